import type { Kysely } from 'kysely';
import { explorerTxUrl } from '#shared/explorer-links.ts';
import type { SiteConfig } from '#shared/site.ts';
import type { Database } from '../db/database.ts';

/**
 * The weeks a member won and was paid for, newest first: payments verified on chain only (a
 * slot), as Recent Winners shows them (docs/decisions/023-prize-paid-on-chain.md).
 */
export async function prizesOfMember(
  db: Kysely<Database>,
  site: SiteConfig,
  userId: number,
  limit: number,
) {
  const rows = await db
    .selectFrom('prize_events')
    .select(['week_id', 'prize', 'tx_signature', 'lamports', 'block_time', 'created_at'])
    .where('step', '=', 'paid')
    .where('user_id', '=', userId)
    .where('slot', 'is not', null)
    .where('tx_signature', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    week: row.week_id,
    prize: row.prize ?? site.weeklyChallenge.prize,
    signature: row.tx_signature!,
    txUrl: explorerTxUrl(site, row.tx_signature!),
    amount: String(row.lamports ?? 0),
    paidAt: row.block_time ?? row.created_at,
  }));
}
