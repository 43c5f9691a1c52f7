import type { Kysely } from 'kysely';
import type { Database } from '#server/db/database.ts';
import { NEW_ACCOUNT_PERIOD_MS } from '#server/memes/upload-slots.ts';
import { creditCoins } from '#server/shop/ledger.ts';
import { characters } from '#shared/characters.ts';
import { uniqueName, type TestApp } from './test-app.ts';
import { TestClient } from './test-client.ts';

/** A member's balance as stored (the ledger's rows must add up to it). */
export async function coinsOf(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select('coins')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.coins;
}

/** A newly registered member's browser, given `coins` by an operator's grant first. */
export async function memberWithCoins(t: TestApp, coins = 0, prefix = 'member') {
  const client = TestClient.inject(t.app);
  const user = await client.register(uniqueName(prefix));
  if (coins > 0) {
    await creditCoins(t.app.deps.db, {
      userId: user.id,
      amount: coins,
      reason: 'grant',
      note: 'test',
      now: t.clock.now(),
    });
  }
  return { client, user };
}

/** Every character on sale, bought together. */
const ALL_PRICES = characters.reduce((sum, c) => sum + c.price, 0);

/**
 * The members a load is made of: each granted enough coins to buy every character, and
 * registered long enough ago to be past a new account's first-day upload slots.
 */
export async function establishMembers(
  db: Kysely<Database>,
  userIds: readonly number[],
  now = Date.now(),
): Promise<void> {
  for (const userId of userIds) {
    await creditCoins(db, { userId, amount: ALL_PRICES, reason: 'grant', now });
  }
  await db
    .updateTable('users')
    .set({ created_at: now - 2 * NEW_ACCOUNT_PERIOD_MS })
    .where('id', 'in', userIds)
    .execute();
}
