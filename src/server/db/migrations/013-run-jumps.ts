import { sql, type Kysely } from 'kysely';
import { createPartialIndex } from '../migration-helpers.ts';

/**
 * Issue 30, finding 2 (docs/decisions/018): a run's jumps in one place, appended, never
 * rewritten per report. Until now they were kept twice: the reported ones as comma-separated
 * text in `game_runs.progress_jumps`, rewritten whole by every report (596 KB written per
 * report with 100 long runs open), and the verified log as JSON in `game_runs.inputs`.
 *
 * `run_jumps` holds a run's jumps as chunks of comma-separated step numbers: one chunk per
 * report that brought jumps (from the step the server held, `first_step`), and once the run is
 * verified one chunk with its whole log. `jump_count` caps a run's jumps without reading them;
 * `network` is the caller's network while the run may still report, to cap open runs per
 * network (cleared when the run is verified or refused).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('run_jumps')
    .addColumn('run_id', 'text', (c) => c.notNull().references('game_runs.id').onDelete('cascade'))
    .addColumn('first_step', 'integer', (c) => c.notNull())
    .addColumn('jumps', 'text', (c) => c.notNull().check(sql`jumps <> ''`))
    .addPrimaryKeyConstraint('run_jumps_pkey', ['run_id', 'first_step'])
    .execute();
  await db.schema
    .alterTable('game_runs')
    .addColumn('jump_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('game_runs').addColumn('network', 'text').execute();
  await createPartialIndex(db, 'game_runs_open_by_network', {
    on: 'game_runs',
    columns: ['network', 'issued_at'],
    where: ['network', 'is not', null],
  });

  // The verified log (JSON, written by JSON.stringify: no spaces) wins over the reported jumps,
  // which it extends; a run never verified keeps what it reported.
  await sql`
    insert into run_jumps (run_id, first_step, jumps)
    select id, 0, replace(replace(replace(inputs, '[', ''), ']', ''), ' ', '')
    from game_runs
    where inputs is not null and replace(inputs, ' ', '') <> '[]'
  `.execute(db);
  await sql`
    insert into run_jumps (run_id, first_step, jumps)
    select id, 0, progress_jumps
    from game_runs
    where inputs is null and progress_jumps <> ''
  `.execute(db);
  await sql`
    update game_runs
    set jump_count = (
      select length(j.jumps) - length(replace(j.jumps, ',', '')) + 1
      from run_jumps j
      where j.run_id = game_runs.id
    )
    where exists (select 1 from run_jumps j where j.run_id = game_runs.id)
  `.execute(db);
  await db.schema.alterTable('game_runs').dropColumn('inputs').execute();
  await db.schema.alterTable('game_runs').dropColumn('progress_jumps').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('game_runs').addColumn('inputs', 'text').execute();
  await db.schema
    .alterTable('game_runs')
    .addColumn('progress_jumps', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const chunks = (await db
    .selectFrom('run_jumps as j')
    .innerJoin('game_runs as r', 'r.id', 'j.run_id')
    .select(['j.run_id', 'j.jumps', 'r.verified_at'])
    .orderBy('j.run_id')
    .orderBy('j.first_step')
    .execute()) as { run_id: string; jumps: string; verified_at: number | null }[];
  const logs = new Map<string, { jumps: string[]; verified: boolean }>();
  for (const chunk of chunks) {
    const log = logs.get(chunk.run_id) ?? { jumps: [], verified: chunk.verified_at !== null };
    log.jumps.push(chunk.jumps);
    logs.set(chunk.run_id, log);
  }
  for (const [runId, log] of logs) {
    const csv = log.jumps.join(',');
    await db
      .updateTable('game_runs')
      .set(log.verified ? { inputs: `[${csv}]`, progress_jumps: csv } : { progress_jumps: csv })
      .where('id', '=', runId)
      .execute();
  }
  // A verified run without jumps had the log `[]`.
  await db
    .updateTable('game_runs')
    .set({ inputs: '[]' })
    .where('verified_at', 'is not', null)
    .where('inputs', 'is', null)
    .execute();
  await db.schema.dropIndex('game_runs_open_by_network').execute();
  await db.schema.alterTable('game_runs').dropColumn('network').execute();
  await db.schema.alterTable('game_runs').dropColumn('jump_count').execute();
  await db.schema.dropTable('run_jumps').execute();
}
