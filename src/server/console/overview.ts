import { sql, type Kysely } from 'kysely';
import { OVERVIEW_SERIES } from '#shared/api/console/overview.ts';
import type { Database, MemeActivityKind } from '../db/database.ts';
import { activityPerDay } from '../memes/activity.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const OVERVIEW_DAYS = 30;

type Series = (typeof OVERVIEW_SERIES)[number];

/**
 * What each chart counts. Memes, votes and reports come from the gallery's activity record
 * (memes/activity.ts), which keeps what happened: a meme deleted since, with the votes and
 * reports that went with it, and a vote taken back still count on the day they were made.
 * Members and runs are rows nothing but an account's erasure removes.
 */
const SOURCES: Record<
  Series,
  { activity: MemeActivityKind } | { table: keyof Database; column: string }
> = {
  members: { table: 'users', column: 'created_at' },
  memes: { activity: 'meme' },
  votes: { activity: 'vote' },
  runs: { table: 'game_runs', column: 'verified_at' },
  reports: { activity: 'report' },
};

/** Per-day counts of the last 30 days (today included), counted by the database. */
export async function overview(db: Kysely<Database>, now: number) {
  const today = Math.floor(now / DAY_MS);
  const first = today - OVERVIEW_DAYS + 1;
  const days = Array.from({ length: OVERVIEW_DAYS }, (_, i) => (first + i) * DAY_MS);
  const series = Object.fromEntries(
    OVERVIEW_SERIES.map((name) => [name, new Array<number>(OVERVIEW_DAYS).fill(0)]),
  ) as Record<Series, number[]>;
  const count = (name: Series, day: number, n: number) => {
    const index = day - first;
    if (index >= 0 && index < OVERVIEW_DAYS) series[name][index]! += n;
  };

  const activity = await activityPerDay(db, first, DAY_MS);
  for (const name of OVERVIEW_SERIES) {
    const source = SOURCES[name];
    if ('activity' in source) {
      for (const row of activity) if (row.kind === source.activity) count(name, row.day, row.n);
      continue;
    }
    const col = sql.ref(source.column);
    const { rows } = await sql<{ day: number | string; n: number | string }>`
      select ${col} / ${sql.lit(DAY_MS)} as day, count(*) as n from ${sql.table(source.table)}
      where ${col} >= ${first * DAY_MS} group by ${col} / ${sql.lit(DAY_MS)}`.execute(db);
    for (const row of rows) count(name, Math.floor(Number(row.day)), Number(row.n));
  }
  return { days, series };
}
