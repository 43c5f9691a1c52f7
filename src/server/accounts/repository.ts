import type { Kysely, Transaction } from 'kysely';
import { nameSkeleton } from '#shared/name-skeleton.ts';
import type { Database } from '../db/database.ts';
import { isPostgres } from '../db/migration-helpers.ts';

/**
 * The users table's one owner: every other domain reads an account through these functions.
 * Queries that join users for another domain's listing (the leaderboard, the shop's member list,
 * the console's queue) stay with that domain.
 */
type Db = Kysely<Database> | Transaction<Database>;

/**
 * The account of that name (ignoring case), or undefined. The password hash is there for
 * sign-in; the operator CLI and the console get the same row and print only what they name.
 */
export function findUserByUsername(db: Db, username: string) {
  return db
    .selectFrom('users')
    .select([
      'id',
      'username',
      'password_hash',
      'coins',
      'selected_character_key',
      'created_at',
      'role',
    ])
    .where('username_lower', '=', username.toLowerCase())
    .executeTakeFirst();
}

export interface ProfileRow {
  username: string;
  coins: number;
  selected_character_key: string;
}

/** A member's name, balance and selected character; undefined when there is no such member. */
export function findProfile(db: Db, userId: number): Promise<ProfileRow | undefined> {
  return db
    .selectFrom('users')
    .select(['username', 'coins', 'selected_character_key'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/**
 * When the member's account was made; undefined when there is no such member. `lock` (inside a
 * transaction) holds the member's row on PostgreSQL until it ends, so two requests of one member
 * that count something against the account's age run one after the other.
 */
export async function memberSince(
  db: Db,
  userId: number,
  { lock = false }: { lock?: boolean } = {},
): Promise<number | undefined> {
  let query = db.selectFrom('users').select('created_at').where('id', '=', userId);
  if (lock && isPostgres(db)) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row?.created_at;
}

/** A member's password hash, for an action that asks for the password again (wallet links). */
/** A member's name and role as the rank rule reads them (inside the deciding transaction). */
export function findUserRole(db: Db, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'role'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function findUserPasswordHash(db: Db, userId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.password_hash;
}

/** Those of the names that are a member's or look like one (same skeleton: `Аdmin` beside `admin`). */
export async function lookAlikesOfMembers(db: Db, names: string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const skeletons = new Map<string, string[]>();
  for (const name of new Set(names)) {
    const skeleton = nameSkeleton(name);
    skeletons.set(skeleton, [...(skeletons.get(skeleton) ?? []), name]);
  }
  const members = await db
    .selectFrom('users')
    .select('username_skeleton')
    .where('username_skeleton', 'in', [...skeletons.keys()])
    .execute();
  return new Set(members.flatMap((member) => skeletons.get(member.username_skeleton ?? '') ?? []));
}

/** Whether the name is a member's or looks like one. */
export async function isLookAlikeOfMember(db: Db, name: string): Promise<boolean> {
  return (await lookAlikesOfMembers(db, [name])).size > 0;
}

/** Inserts the user; returns undefined when the name or a look-alike of it is taken. */
export async function insertUser(
  db: Db,
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

/** What a member's public page starts from (members/service.ts), by name ignoring case. */
export function findMemberByName(db: Db, username: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'created_at', 'selected_character_key', 'show_wallet'])
    .where('username_lower', '=', username.toLowerCase())
    .executeTakeFirst();
}

/** The member's own account settings; the hash only to tell whether there is a password. */
export function findAccount(db: Db, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'created_at', 'password_hash', 'show_wallet'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function setShowWallet(db: Db, userId: number, show: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ show_wallet: show ? 1 : 0 })
    .where('id', '=', userId)
    .execute();
}

/**
 * Gives an account opened with a wallet alone its first password; false when it has one already
 * (a compare-and-set: two requests at once set it once).
 */
export async function setPasswordIfNone(
  db: Db,
  userId: number,
  passwordHash: string,
  none: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('id', '=', userId)
    .where('password_hash', '=', none)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Notes a deleted account's name, so its page says the account is gone (migration 024). */
export async function rememberDeletedAccount(db: Db, username: string, now: number): Promise<void> {
  await db
    .insertInto('deleted_accounts')
    .values({ username_lower: username.toLowerCase(), deleted_at: now })
    .onConflict((oc) => oc.column('username_lower').doUpdateSet({ deleted_at: now }))
    .execute();
}

export async function wasDeleted(db: Db, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('deleted_accounts')
    .select('username_lower')
    .where('username_lower', '=', username.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** Accounts opened at or after `since` (the raid trigger's sign-ups an hour). */
export async function signUpsSince(db: Db, since: number): Promise<number> {
  const { n } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The ids of these names' accounts (ignoring case), by the name as given. */
export async function userIdsByName(
  db: Db,
  names: readonly string[],
): Promise<Map<string, number>> {
  if (names.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username_lower'])
    .where(
      'username_lower',
      'in',
      names.map((n) => n.toLowerCase()),
    )
    .execute();
  const byLower = new Map(rows.map((r) => [r.username_lower, r.id]));
  return new Map(
    names.flatMap((name) => {
      const id = byLower.get(name.toLowerCase());
      return id === undefined ? [] : [[name, id] as const];
    }),
  );
}

/** The names of the members among `userIds` (a deleted one is not in the map). */
export async function usernamesOf(
  db: Db,
  userIds: readonly number[],
): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('id', 'in', [...new Set(userIds)])
    .execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}
