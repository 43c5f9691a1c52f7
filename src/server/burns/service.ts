import type { ExpressionBuilder, Kysely, Selectable, Transaction } from 'kysely';
import { formatTokenUnits } from '#shared/format-units.ts';
import type { Burn, BurnsResponse } from '#shared/api/chain.ts';
import { explorerTxUrl } from '#shared/explorer-links.ts';
import type { SiteConfig } from '#shared/site.ts';
import { ChainUnavailable, NO_RPC_MESSAGE, U64_MAX, type ChainRpc } from '../chain/rpc.ts';
import { verifyBurn } from '../chain/verify.ts';
import type { Database, TokenBurnsTable } from '../db/database.ts';
import { cliOperator, recordDecision, type Operator } from '../db/operator-log.ts';
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
  /** Who records it, for the operator log: the console's operator; the CLI's user when left out. */
  operator?: Operator;
}

type BurnRow = Selectable<TokenBurnsTable>;

const BURNS_LIMIT = 20;

function burnView(site: SiteConfig, row: BurnRow): Burn {
  return {
    signature: row.signature,
    slot: String(row.slot),
    amount: row.amount,
    decimals: row.decimals,
    mint: row.mint,
    burnedAt: new Date(row.block_time).toISOString(),
    explorerUrl: explorerTxUrl(site, row.signature, row.cluster),
  };
}

/**
 * Records a burn by its signature once the chain says it is a finalized SPL Token or Token-2022
 * burn of the site's mint, of more than 0 and no more than the mint's supply can have held; the
 * amount and time are the transaction's own. The burn, or its refusal with the reason, goes on
 * the operator log.
 */
export async function recordBurn(ctx: BurnContext, signature: string): Promise<Burn> {
  try {
    return await verifyAndRecord(ctx, signature);
  } catch (error) {
    // What was decided is logged; an RPC that is down or a transaction not final yet decide nothing.
    if (
      error instanceof HttpError &&
      error.statusCode !== 503 &&
      error.code !== 'TX_NOT_FINALIZED'
    ) {
      await logBurn(ctx, ctx.db, 'burn-refused', signature, error.message, { code: error.code });
    }
    throw error;
  }
}

async function logBurn(
  ctx: BurnContext,
  db: Kysely<Database> | Transaction<Database>,
  kind: 'burn-record' | 'burn-refused',
  signature: string,
  reason: string,
  details: Record<string, unknown>,
): Promise<void> {
  await recordDecision(
    db,
    ctx.operator ?? cliOperator(),
    {
      kind,
      targetType: 'burn',
      targetId: signature,
      targetLabel: signature,
      reason,
      details: { signature, explorerUrl: explorerTxUrl(ctx.site, signature), ...details },
    },
    ctx.clock.now(),
  );
}

const unavailable = (error: ChainUnavailable) =>
  new HttpError(503, `${error.message}; nothing was recorded, try again in a minute`, error.code);

async function verifyAndRecord(ctx: BurnContext, signature: string): Promise<Burn> {
  const mint = ctx.site.contractAddress;
  if (mint === '') {
    throw new HttpError(
      409,
      "the site has no contract address (pre-launch): set contractAddress in SITE_CONFIG to the token's mint",
      'NO_CONTRACT_ADDRESS',
    );
  }
  if (ctx.rpc === undefined) throw new HttpError(503, NO_RPC_MESSAGE, 'CHAIN_NOT_CONFIGURED');
  const rpc = ctx.rpc;
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
    tx = await rpc.finalizedTransaction(signature);
    if (tx === null) {
      const status = await rpc.status(signature);
      throw status === 'unknown'
        ? new HttpError(404, `the Solana RPC knows no transaction ${signature}`, 'TX_NOT_FOUND')
        : new HttpError(
            409,
            `transaction ${signature} is ${status}, not finalized yet; try again in a minute`,
            'TX_NOT_FINALIZED',
          );
    }
  } catch (error) {
    if (error instanceof ChainUnavailable) throw unavailable(error);
    throw error;
  }
  const verdict = verifyBurn(tx, mint);
  if (!verdict.ok) throw new HttpError(422, verdict.reason, verdict.code);
  const burn = verdict.value;
  // The supply before the burn held at least what it burned, and a mint's supply is a u64.
  let supply: bigint;
  try {
    supply = (await rpc.tokenSupply(mint)).amount;
  } catch (error) {
    if (error instanceof ChainUnavailable) throw unavailable(error);
    throw error;
  }
  if (burn.amount + supply > U64_MAX) {
    throw new HttpError(
      422,
      `transaction ${signature} says it burns ${burn.amount} base units, more than the mint's supply can have held (${supply} remain)`,
      'TX_BURN_TOO_LARGE',
    );
  }
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
    cluster: ctx.site.solana.cluster,
  };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto('token_burns').values(row).execute();
      await logBurn(
        ctx,
        trx,
        'burn-record',
        signature,
        `verified at finalized and recorded: ${formatTokenUnits(row.amount, row.decimals)} burned by ${row.authority}`,
        {
          wallet: row.authority,
          amount: row.amount,
          decimals: row.decimals,
          mint: row.mint,
          slot: String(row.slot),
        },
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new HttpError(409, `burn ${signature} is already recorded`, 'TX_ALREADY_RECORDED');
    }
    throw error;
  }
  recordLiveEvent(ctx.db, { type: 'burns', data: { signature: burn.signature } });
  return burnView(ctx.site, { id: 0, ...row });
}

/**
 * The verified burns of the site's mint on the site's cluster (a rehearsal's burns on devnet
 * are not a mainnet site's), newest first, and their total.
 */
export async function listBurns(db: Kysely<Database>, site: SiteConfig): Promise<BurnsResponse> {
  const mint = site.contractAddress;
  const rows = await db
    .selectFrom('token_burns')
    .selectAll()
    .where('mint', '=', mint)
    .where('cluster', '=', site.solana.cluster)
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

/**
 * Burns by state, for /metrics: recorded (verified on chain) and refused (a signature submitted
 * and refused, as the operator log holds it).
 */
export async function burnStates(
  db: Kysely<Database>,
): Promise<{ recorded: number; refused: number }> {
  const count = (eb: ExpressionBuilder<Database, keyof Database>) =>
    eb.fn.countAll<number | string>().as('n');
  const [recorded, refused] = await Promise.all([
    db.selectFrom('token_burns').select(count).executeTakeFirstOrThrow(),
    db
      .selectFrom('operator_log')
      .select(count)
      .where('kind', '=', 'burn-refused')
      .executeTakeFirstOrThrow(),
  ]);
  return { recorded: Number(recorded.n), refused: Number(refused.n) };
}
