import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';

export function findUserByUsername(db: Kysely<Database>, username: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'password_hash'])
    .where('username_lower', '=', username.toLowerCase())
    .executeTakeFirst();
}

/** Inserts the user; returns undefined when the name is taken (ignoring case). */
export async function insertUser(
  db: Kysely<Database>,
  user: { username: string; passwordHash: string; now: number },
): Promise<{ id: number; username: string } | undefined> {
  return db
    .insertInto('users')
    .values({
      username: user.username,
      username_lower: user.username.toLowerCase(),
      password_hash: user.passwordHash,
      created_at: user.now,
    })
    .onConflict((oc) => oc.column('username_lower').doNothing())
    .returning(['id', 'username'])
    .executeTakeFirst();
}
