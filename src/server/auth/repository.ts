import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import { nameSkeleton } from '#shared/name-skeleton.ts';

export function findUserByUsername(db: Kysely<Database>, username: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'password_hash'])
    .where('username_lower', '=', username.toLowerCase())
    .executeTakeFirst();
}

/** When the member's account was made; undefined when there is no such member. */
export async function memberSince(
  db: Kysely<Database> | Transaction<Database>,
  userId: number,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('users')
    .select('created_at')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.created_at;
}

/** A member's password hash, for an action that asks for the password again (wallet links). */
export async function findUserPasswordHash(
  db: Kysely<Database>,
  userId: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.password_hash;
}

/** Whether a member's name looks like this one (same skeleton: `Аdmin` beside `admin`). */
export async function isLookAlikeOfMember(db: Kysely<Database>, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username_skeleton', '=', nameSkeleton(name))
    .executeTakeFirst();
  return row !== undefined;
}

/** Inserts the user; returns undefined when the name or a look-alike of it is taken. */
export async function insertUser(
  db: Kysely<Database>,
  user: { username: string; passwordHash: string; now: number },
): Promise<{ id: number; username: string } | undefined> {
  return db
    .insertInto('users')
    .values({
      username: user.username,
      username_lower: user.username.toLowerCase(),
      username_skeleton: nameSkeleton(user.username),
      password_hash: user.passwordHash,
      created_at: user.now,
    })
    .onConflict((oc) => oc.doNothing())
    .returning(['id', 'username'])
    .executeTakeFirst();
}
