import type { Generated } from 'kysely';

/**
 * Every table, as Kysely sees it. Times are epoch milliseconds (bigint in PostgreSQL, parsed to
 * number by create-database.ts), so both engines compare and sort them the same way.
 * Each domain adds its tables here next to its migration.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  username_lower: string;
  password_hash: string;
  coins: Generated<number>;
  selected_character_key: Generated<string>;
  created_at: number;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export interface RateLimitsTable {
  key: string;
  window_start: number;
  count: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
}
