import { sql, type Kysely } from 'kysely';
import { OVERVIEW_SERIES } from '#shared/api/admin.ts';
import type { Database } from '../db/database.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
export const OVERVIEW_DAYS = 30;

type Series = (typeof OVERVIEW_SERIES)[number];

const SOURCES: Record<Series, { table: keyof Database; column: string }> = {
  members: { table: 'users', column: 'created_at' },
  memes: { table: 'memes', column: 'created_at' },
  votes: { table: 'meme_votes', column: 'created_at' },
  runs: { table: 'game_runs', column: 'verified_at' },
  reports: { table: 'meme_reports', column: 'created_at' },
};

/** Per-day counts of the last 30 days (today included), counted by the database. */
export async function overview(db: Kysely<Database>, now: number) {
  const today = Math.floor(now / DAY_MS);
  const first = today - OVERVIEW_DAYS + 1;
  const days = Array.from({ length: OVERVIEW_DAYS }, (_, i) => (first + i) * DAY_MS);
  const series = {} as Record<Series, number[]>;
  for (const name of OVERVIEW_SERIES) {
    const { table, column } = SOURCES[name];
    const col = sql.ref(column);
    const { rows } = await sql<{ day: number | string; n: number | string }>`
      select ${col} / ${sql.lit(DAY_MS)} as day, count(*) as n from ${sql.table(table)}
      where ${col} >= ${first * DAY_MS} group by ${col} / ${sql.lit(DAY_MS)}`.execute(db);
    const counts = new Array<number>(OVERVIEW_DAYS).fill(0);
    for (const row of rows) {
      const index = Math.floor(Number(row.day)) - first;
      if (index >= 0 && index < OVERVIEW_DAYS) counts[index]! += Number(row.n);
    }
    series[name] = counts;
  }
  return { days, series };
}
