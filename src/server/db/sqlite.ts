import { createRequire } from 'node:module';
// eslint-disable-next-line no-restricted-imports -- the types only; the driver is loaded below.
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite driver this Node can run (docs/decisions/019). better-sqlite3 12 wraps its objects
 * in `node::ObjectWrap`, which since Node 24.19 aborts the process when a statement is garbage
 * collected outside JavaScript (`Assertion failed: (env) != nullptr`); 13 moved to Node-API and
 * fixes that, but needs Node 22 and crashes on Node 20, which these machines still run. Both are
 * installed (12 as `better-sqlite3`, 13 as `better-sqlite3-node22`) and each Node loads its
 * own; the API is the same. With Node 20 gone, 13 becomes `better-sqlite3` and this switch goes.
 */
const nodeMajor = Number(process.versions.node.split('.')[0]);
const driver = nodeMajor >= 22 ? 'better-sqlite3-node22' : 'better-sqlite3';

export const SQLite: typeof BetterSqlite3 = createRequire(import.meta.url)(driver);
export type SqliteConnection = BetterSqlite3.Database;
export type SqliteStatement = BetterSqlite3.Statement;
