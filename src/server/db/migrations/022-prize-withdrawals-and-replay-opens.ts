import type { Kysely } from 'kysely';
import { appendOnly, dropAppendOnly } from '../append-only.ts';
import { createIndexes, dropTables, timestamp, withIdColumn } from '../migration-helpers.ts';
import { createReplayActs } from './016-operator-console.ts';

/**
 * An approval's life (issue 41, docs/decisions/013): a withdrawn approval is a row of its own,
 * append-only like the prize record it strikes out (one withdrawal per approval), so the record
 * keeps who approved, who withdrew and why. And the console's "watched to its end" (issue 40):
 * when this operator opened a run's replay, so a watch is accepted only after the replay could
 * have played to its end.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('prize_withdrawals'))
    .addColumn('week_id', 'text', (c) => c.notNull())
    .addColumn('approval_id', 'integer', (c) => c.notNull().unique())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'integer')
    .addColumn('operator_name', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, 'prize_withdrawals', { prize_withdrawals_week: ['week_id'] });
  await appendOnly(db, 'prize_withdrawals');

  await createReplayActs(db, 'replay_opens', 'opened_at');
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropAppendOnly(db, 'prize_withdrawals');
  await dropTables(db, ['replay_opens', 'prize_withdrawals']);
}
