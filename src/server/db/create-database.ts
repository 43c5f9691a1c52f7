import fs from 'node:fs';
import path from 'node:path';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type KyselyConfig,
  type SqliteDatabase,
} from 'kysely';
import pg from 'pg';
import type { AppConfig } from '../config.ts';
import type { PoolFigures } from '../metrics/metrics.ts';
import type { Database } from './database.ts';
import { SQLite, type SqliteConnection, type SqliteStatement } from './sqlite.ts';

// Counts and epoch-ms timestamps come back from PostgreSQL as int8; they fit a double exactly.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Connections per node in the main PostgreSQL pool (docs/deployment.md sizes the server by it). */
const POOL_SIZE = 10;
/**
 * Bounds on waiting for PostgreSQL (docs/decisions/015-dependency-failures.md): a request gets
 * a connection within 5 s (a new one, or a turn in the busy pool) and each statement ends
 * within 10 s, or the request is answered 503 with Retry-After instead of hanging.
 */
const CONNECT_TIMEOUT_MS = 5_000;
const STATEMENT_TIMEOUT_MS = 10_000;

/** Each PostgreSQL database's pool, for its figures on /metrics (poolFigures). */
const pools = new WeakMap<Kysely<Database>, pg.Pool>();

/** A PostgreSQL pool's connections now; undefined on SQLite, which has none. */
export function poolFigures(db: Kysely<Database>): PoolFigures | undefined {
  const pool = pools.get(db);
  if (!pool) return undefined;
  return {
    idle: pool.idleCount,
    busy: pool.totalCount - pool.idleCount,
    waiting: pool.waitingCount,
    max: pool.options.max,
  };
}

export interface DatabaseOptions {
  poolSize?: number;
  /** Kysely's log: told of every statement run, with its time (tracing's SQL spans). */
  log?: KyselyConfig['log'];
}

export function createDatabase(
  database: AppConfig['database'],
  { poolSize = POOL_SIZE, log }: DatabaseOptions = {},
): Kysely<Database> {
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: database.url,
      max: poolSize,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      // The server's timeout cannot fire when the server is the part that stopped answering.
      query_timeout: STATEMENT_TIMEOUT_MS + 2_000,
    });
    // A client dropped by the server (restart, failover) must not crash the process: the pool
    // listens on idle clients only, and one checked out between two queries of a transaction
    // had no listener (a PostgreSQL restart under load killed the node; tests/faults). The
    // query in flight fails (503), the pool discards the client, the next one reconnects.
    const dropped = (error: Error) => console.warn('PostgreSQL connection lost:', error.message);
    pool.on('error', dropped);
    pool.on('connect', (client) => client.on('error', dropped));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
    pools.set(db, pool);
    return db;
  }
  fs.mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new SQLite(database.file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL in WAL mode survives a process crash (SIGKILL); only an OS crash can lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // REPLACE's implicit delete fires delete triggers only with this on: without it, INSERT OR
  // REPLACE rewrites a row of an append-only table (db/append-only.ts).
  sqlite.pragma('recursive_triggers = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    log,
  });
}

const MAX_CACHED_STATEMENTS = 500;

/**
 * Kysely asks better-sqlite3 to prepare every query it runs, and preparing compiles the SQL
 * each time. The app runs a few dozen distinct SQL texts, so each is compiled once and kept
 * (the oldest dropped past a bound, for texts that vary such as `in (?, ?, ...)` lists).
 */
function withStatementCache(sqlite: SqliteConnection): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        statement = sqlite.prepare(text);
        if (statements.size >= MAX_CACHED_STATEMENTS)
          statements.delete(statements.keys().next().value!);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}
