import {
  PostgresAdapter,
  type ColumnDefinitionBuilder,
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

/** Drops `tables` in the order given (a down migration's, the reverse of its up). */
export async function dropTables(db: Kysely<any>, tables: string[]): Promise<void> {
  for (const table of tables) await db.schema.dropTable(table).execute();
}
