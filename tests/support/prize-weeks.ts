import type { Address } from '@solana/kit';
import type { Kysely } from 'kysely';
import type { Database } from '#server/db/database.ts';
import { appendPrizeEvent } from '#server/prize/repository.ts';
import { freshAddress } from './chain-transactions.ts';

/** Records `week` as approved for a winner (member 1) with a fresh wallet, as prize:approve does. */
export async function approveWeek(
  db: Kysely<Database>,
  week: string,
  at: number,
): Promise<{ week: string; winner: Address }> {
  const winner = await freshAddress();
  await appendPrizeEvent(db, {
    week_id: week,
    step: 'approved',
    run_id: `run-${week}`,
    user_id: 1,
    player_name: 'Winner',
    score: 42,
    wallet_address: winner,
    prize: '1 SOL',
    created_at: at,
  });
  return { week, winner };
}
