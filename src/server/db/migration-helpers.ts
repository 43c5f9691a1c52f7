// Migrations that have already run call these: what they run must stay what it was, statement
// for statement, or a new database would differ from those migrated before.
import {
  PostgresAdapter,
  sql,
  type ColumnDefinitionBuilder,
  type ComparisonOperatorExpression,
  type CreateTableBuilder,
  type Kysely,
} from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An auto-incrementing integer primary key on either engine. */
export function withIdColumn<T extends string>(
  db: Kysely<any>,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return isPostgres(db)
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Epoch-millisecond timestamps: bigint on PostgreSQL, integer (64-bit) on SQLite. */
export const timestamp = 'bigint' as const;

/** A member's own `user_id`: required, and the row is deleted with the member's account. */
export const deletedWithUser = (c: ColumnDefinitionBuilder) =>
  c.notNull().references('users.id').onDelete('cascade');

/** A member's `user_id` on a row that outlives the account: set to null when it is deleted. */
export const keptAfterUser = (c: ColumnDefinitionBuilder) =>
  c.references('users.id').onDelete('set null');

/** A member's one row of a table keyed by `user_id`, deleted with the member's account. */
export const oneRowPerUser = (c: ColumnDefinitionBuilder) =>
  c.primaryKey().references('users.id').onDelete('cascade');

/**
 * A yes-or-no column as 0 or 1 (SQLite has no boolean type), required, `initial` for rows that
 * do not say. `column` is the column's own name, which its CHECK names.
 */
export const flag =
  (column: string, initial: 0 | 1 = 0) =>
  (c: ColumnDefinitionBuilder) =>
    c
      .notNull()
      .defaultTo(initial)
      .check(sql.raw(`${column} in (0, 1)`));

/** A number that starts at 0 and cannot go below it; `column` is its own name, as for flag. */
export const countFromZero = (column: string) => (c: ColumnDefinitionBuilder) =>
  c
    .notNull()
    .defaultTo(0)
    .check(sql.raw(`${column} >= 0`));

/**
 * Plain (not unique, not partial) indexes on `table`, created in the order given, each named
 * by its key and covering its columns in order (`'score desc'` for a descending one).
 */
export async function createIndexes(
  db: Kysely<any>,
  table: string,
  indexes: Record<string, string[]>,
): Promise<void> {
  for (const [name, columns] of Object.entries(indexes)) {
    await db.schema.createIndex(name).on(table).columns(columns).execute();
  }
}

/**
 * A partial index: over only the rows where `where` (`[column, operator, value]`) holds; with
 * `unique`, one row per key among them.
 */
export async function createPartialIndex(
  db: Kysely<any>,
  name: string,
  {
    on,
    columns,
    where: [column, operator, value],
    unique = false,
  }: {
    on: string;
    columns: string[];
    where: [string, ComparisonOperatorExpression, unknown];
    unique?: boolean;
  },
): Promise<void> {
  const index = db.schema.createIndex(name).on(on).columns(columns);
  await (unique ? index.unique() : index).where(sql.ref(column), operator, value).execute();
}

/** Drops `tables` in the order given (a down migration's, the reverse of its up). */
export async function dropTables(db: Kysely<any>, tables: string[]): Promise<void> {
  for (const table of tables) await db.schema.dropTable(table).execute();
}
