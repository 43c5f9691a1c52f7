import type { Kysely, Selectable } from 'kysely';
import type { Burn, BurnsResponse } from '#shared/api/chain.ts';
import { explorerTxUrl, type SiteConfig } from '#shared/site.ts';
import { ChainUnavailable, NO_RPC_MESSAGE, type ChainRpc } from '../chain/rpc.ts';
import { verifyBurn } from '../chain/verify.ts';
import type { Database, TokenBurnsTable } from '../db/database.ts';
import { HttpError } from '../http-error.ts';
import { recordLiveEvent } from '../live/record.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { Clock } from '../clock.ts';

/** What recording a burn needs: the record, the site's mint and the chain. */
export interface BurnContext {
  db: Kysely<Database>;
  site: SiteConfig;
  /** Undefined without SOLANA_RPC_URL: no burn can be recorded. */
  rpc: ChainRpc | undefined;
  clock: Clock;
}

type BurnRow = Selectable<TokenBurnsTable>;

export const BURNS_LIMIT = 20;

function burnView(site: SiteConfig, row: BurnRow): Burn {
  return {
    signature: row.signature,
    slot: String(row.slot),
    amount: row.amount,
    decimals: row.decimals,
    mint: row.mint,
    burnedAt: new Date(row.block_time).toISOString(),
    explorerUrl: explorerTxUrl(site, row.signature),
  };
}

/**
 * Records a burn by its signature once the chain says it is a finalized SPL Token or Token-2022
 * burn of the site's mint; the amount and time are the transaction's own.
 */
export async function recordBurn(ctx: BurnContext, signature: string): Promise<Burn> {
  const mint = ctx.site.contractAddress;
  if (mint === '') {
    throw new HttpError(
      409,
      "the site has no contract address (pre-launch): set contractAddress in SITE_CONFIG to the token's mint",
      'NO_CONTRACT_ADDRESS',
    );
  }
  if (ctx.rpc === undefined) throw new HttpError(503, NO_RPC_MESSAGE, 'CHAIN_NOT_CONFIGURED');
  const recorded = await ctx.db
    .selectFrom('token_burns')
    .select('signature')
    .where('signature', '=', signature)
    .executeTakeFirst();
  if (recorded) {
    throw new HttpError(409, `burn ${signature} is already recorded`, 'TX_ALREADY_RECORDED');
  }
  let tx;
  try {
    tx = await ctx.rpc.finalizedTransaction(signature);
    if (tx === null) {
      const status = await ctx.rpc.status(signature);
      throw status === 'unknown'
        ? new HttpError(404, `the Solana RPC knows no transaction ${signature}`, 'TX_NOT_FOUND')
        : new HttpError(
            409,
            `transaction ${signature} is ${status}, not finalized yet; try again in a minute`,
            'TX_NOT_FINALIZED',
          );
    }
  } catch (error) {
    if (error instanceof ChainUnavailable) {
      throw new HttpError(
        503,
        `${error.message}; nothing was recorded, try again in a minute`,
        'CHAIN_UNAVAILABLE',
      );
    }
    throw error;
  }
  const verdict = verifyBurn(tx, mint);
  if (!verdict.ok) throw new HttpError(422, verdict.reason, verdict.code);
  const burn = verdict.value;
  const row = {
    signature: burn.signature,
    slot: Number(burn.slot),
    block_time: burn.blockTime * 1000,
    mint: burn.mint,
    token_program: burn.tokenProgram,
    amount: burn.amount.toString(),
    decimals: burn.decimals,
    authority: burn.authority,
    recorded_at: ctx.clock.now(),
  };
  try {
    await ctx.db.insertInto('token_burns').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new HttpError(409, `burn ${signature} is already recorded`, 'TX_ALREADY_RECORDED');
    }
    throw error;
  }
  recordLiveEvent(ctx.db, { type: 'burns', data: { signature: burn.signature } });
  return burnView(ctx.site, { id: 0, ...row });
}

/** The verified burns of the site's mint, newest first, and their total. */
export async function listBurns(db: Kysely<Database>, site: SiteConfig): Promise<BurnsResponse> {
  const mint = site.contractAddress;
  const rows = await db
    .selectFrom('token_burns')
    .selectAll()
    .where('mint', '=', mint)
    .orderBy('block_time', 'desc')
    .orderBy('id', 'desc')
    .execute();
  if (rows.length === 0) return { burns: [], totalBurned: null, decimals: null };
  return {
    burns: rows.slice(0, BURNS_LIMIT).map((row) => burnView(site, row)),
    totalBurned: rows.reduce((sum, row) => sum + BigInt(row.amount), 0n).toString(),
    decimals: rows[0]!.decimals,
  };
}
