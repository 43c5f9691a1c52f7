import { sql, type Kysely } from 'kysely';
import { dropTables, oneRowPerUser, timestamp } from '../migration-helpers.ts';

const CLUSTERS = sql.raw(`('mainnet-beta', 'devnet', 'testnet', 'localnet')`);

/**
 * Rehearsals (issue 42, docs/decisions/030): a payment or a burn keeps the Solana cluster it was
 * verified on (SOLANA_CLUSTER), so a mainnet site never shows a devnet payment as a winner's; and
 * the demo members `rehearsal:week` makes are listed, so `rehearsal:clear` removes them and their
 * runs and nothing else.
 *
 * Both record tables are append-only, so rows already there cannot be given a cluster: a burn
 * recorded before this migration reads mainnet-beta (the column's default, the only cluster the
 * site had), and a paid step without one is mainnet-beta to every reader (prize/repository.ts).
 * Only the paid step of prize_events names a cluster; the other steps are not verified on chain.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('prize_events')
    .addColumn('cluster', 'text', (c) => c.check(sql`cluster in ${CLUSTERS}`))
    .execute();
  await db.schema
    .alterTable('token_burns')
    .addColumn('cluster', 'text', (c) =>
      c.notNull().defaultTo('mainnet-beta').check(sql`cluster in ${CLUSTERS}`),
    )
    .execute();
  await db.schema
    .createTable('rehearsal_members')
    .addColumn('user_id', 'integer', oneRowPerUser)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['rehearsal_members']);
  await db.schema.alterTable('token_burns').dropColumn('cluster').execute();
  await db.schema.alterTable('prize_events').dropColumn('cluster').execute();
}
