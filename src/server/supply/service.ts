import { HOUR_MS, MINUTE_MS } from '#shared/time.ts';
import type { SiteConfig } from '#shared/site.ts';
import { ChainUnavailable, type ChainRpc } from '../chain/rpc.ts';
import type { Clock } from '../clock.ts';
import { HttpError } from '../http-error.ts';

/**
 * The supply figures listing sites ask a token team for (docs/decisions/029-holders-at-home.md):
 * the mint's supply at `finalized`, and that less the balances of the wallets SITE_CONFIG lists
 * as not circulating, in whole tokens (the fraction of a token dropped). A figure is kept a
 * minute; while the RPC cannot answer, one younger than an hour is still given, then none.
 */

type SupplyKind = 'total' | 'circulating';

export const SUPPLY_FRESH_MS = MINUTE_MS;
/** Never a figure older than this, whatever the RPC is doing. */
export const SUPPLY_STALE_LIMIT_MS = HOUR_MS;

export interface SupplyFigure {
  figure: string;
  /** How old the figure is, for the answer's Cache-Control. */
  ageMs: number;
}

export interface SupplyReader {
  read(kind: SupplyKind): Promise<SupplyFigure>;
}

/** Base units to whole tokens, rounded down (a u64 over 10^decimals, exact). */
function wholeTokens(amount: bigint, decimals: number): string {
  return (amount / 10n ** BigInt(decimals)).toString();
}

export function createSupplyReader(deps: {
  rpc: ChainRpc | undefined;
  site: Pick<SiteConfig, 'contractAddress' | 'holders'>;
  clock: Clock;
}): SupplyReader {
  const kept = new Map<SupplyKind, { figure: string; at: number }>();
  /** One read at a time per figure, shared by everyone asking meanwhile. */
  const loading = new Map<SupplyKind, Promise<string>>();

  async function load(rpc: ChainRpc, kind: SupplyKind): Promise<string> {
    const mint = deps.site.contractAddress;
    const { amount, decimals } = await rpc.tokenSupply(mint);
    if (kind === 'total') return wholeTokens(amount, decimals);
    let held = 0n;
    for (const wallet of deps.site.holders.notCirculating) {
      held += await rpc.tokenBalance(wallet, mint);
    }
    return wholeTokens(amount > held ? amount - held : 0n, decimals);
  }

  return {
    async read(kind) {
      // Nothing to report on this site (not a dependency that is down): 404, as for any
      // resource the site does not have; a 5xx is for a chain that failed to answer.
      if (!deps.site.contractAddress) {
        throw new HttpError(
          404,
          'The token has not launched: there is no supply to report yet',
          'NO_CONTRACT_ADDRESS',
        );
      }
      const { rpc } = deps;
      if (!rpc) {
        throw new HttpError(
          404,
          'This site reads no blockchain (no Solana RPC is configured), so it cannot report the supply',
          'CHAIN_NOT_CONFIGURED',
        );
      }
      const started = deps.clock.now();
      const last = kept.get(kind);
      if (last && started - last.at < SUPPLY_FRESH_MS) {
        return { figure: last.figure, ageMs: started - last.at };
      }
      let pending = loading.get(kind);
      if (!pending) {
        pending = load(rpc, kind).finally(() => loading.delete(kind));
        loading.set(kind, pending);
      }
      try {
        const figure = await pending;
        kept.set(kind, { figure, at: started });
        return { figure, ageMs: 0 };
      } catch (error) {
        if (!(error instanceof ChainUnavailable)) throw error;
        const now = deps.clock.now();
        if (last && now - last.at < SUPPLY_STALE_LIMIT_MS) {
          return { figure: last.figure, ageMs: now - last.at };
        }
        throw new HttpError(
          503,
          `${error.message}; the supply is not known (no figure younger than an hour is kept)`,
          error.code,
        );
      }
    },
  };
}
