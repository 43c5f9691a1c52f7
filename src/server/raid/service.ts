import type { Kysely } from 'kysely';
import { raidSigns, type HourlyActivity, type RaidThresholds } from '#shared/raid.ts';
import { HOUR_MS, MINUTE_MS } from '#shared/time.ts';
import type { AppDeps } from '../deps.ts';
import type { Database } from '../db/database.ts';
import { recordDecision, type Operator } from '../db/operator-log.ts';
import { ReadCache } from '../http/read-cache.ts';
import type { Clock } from '../clock.ts';
import { signUpsSince } from '../accounts/repository.ts';
import { galleryActivitySince } from '../memes/standing.ts';
import { holdNewAccountMemesSince } from '../memes/held.ts';
import { enqueueAlert } from '../alerts/outbox.ts';
import { recordLiveEvent } from '../live/record.ts';
import {
  lastSignAt,
  noteSign,
  readRaid,
  writeSwitch,
  writeThresholds,
  type RaidRow,
} from './repository.ts';

/**
 * Raid mode (issue 43, docs/decisions/027-raid-day.md): switched by an admin (console, CLI) or by
 * the thresholds (`checkRaidTrigger`), ended by hand or after a quiet period; every change is one
 * transaction with its row on the operator log and its alert in the outbox.
 */
export type RaidDeps = Pick<AppDeps, 'db' | 'config'>;

/** Who the thresholds act as on the operator log. */
const RAID_TRIGGER: Operator = { id: null, name: 'auto:raid-trigger', address: 'server' };

/**
 * This node's view of the switch, under the read-cache rule (decision 011): every gallery write
 * reads it, and another node's switch is seen within 2 s.
 */
export class RaidState {
  private readonly cache: ReadCache<RaidRow>;
  constructor(
    private readonly db: Kysely<Database>,
    clock: Clock,
  ) {
    this.cache = new ReadCache<RaidRow>({ clock, max: 1 });
  }
  get(): Promise<RaidRow> {
    return this.cache.get('raid', () => readRaid(this.db));
  }
  /** After a switch on this node: its next read is the new state. */
  changed(): void {
    this.cache.clear();
  }
}

const describe = (t: RaidThresholds) =>
  `${t.signupsPerHour} sign-ups, ${t.newPostsPerHour} new-account memes or ${t.reportsPerHour} reports an hour; ends after ${t.quietMinutes} quiet minutes`;

/**
 * Turns raid mode on or off; nothing is written (and undefined answered) when it already is so.
 * `automatic`: the thresholds did it.
 */
export async function switchRaid(
  deps: RaidDeps,
  operator: Operator,
  change: { active: boolean; reason: string; automatic?: boolean },
  now: number,
): Promise<{ row: RaidRow; held: number[] } | undefined> {
  const result = await deps.db.transaction().execute(async (trx) => {
    const before = await readRaid(trx, { lock: true });
    if (before.active === change.active) return undefined;
    const automatic = change.automatic ?? false;
    await writeSwitch(trx, { active: change.active, automatic, now });
    // The first wave, posted before the switch, is held for review with the rest.
    const held = change.active ? await holdNewAccountMemesSince(trx, now - HOUR_MS) : [];
    await recordDecision(
      trx,
      operator,
      {
        kind: change.active ? 'raid-on' : 'raid-off',
        targetType: 'site',
        targetId: 'raid-mode',
        targetLabel: 'Raid mode',
        reason: change.reason,
        details: {
          automatic,
          ...(change.active && { heldMemes: held.length }),
          ...(!change.active && before.since !== null && { lastedMs: now - before.since }),
        },
      },
      now,
    );
    await enqueueAlert(
      trx,
      deps.config.alerts,
      change.active
        ? {
            kind: 'raid-entered',
            subject: `Raid mode ON${automatic ? ' (automatic)' : ''}`,
            body: `${operator.name}: ${change.reason}\nNew accounts cannot post, vote or report; sign-ups need a proof of work; visitor votes are paused. ${held.length} meme(s) from new accounts in the last hour are held in the queue.`,
          }
        : {
            kind: 'raid-left',
            subject: 'Raid mode off',
            body: `${operator.name}: ${change.reason}`,
          },
      now,
    );
    return { row: await readRaid(trx), held };
  });
  // Held memes leave every node's gallery pages at once.
  for (const id of result?.held ?? []) {
    recordLiveEvent(deps.db, { type: 'meme', data: { id, change: 'hidden' } });
  }
  return result;
}

export async function setThresholds(
  deps: RaidDeps,
  operator: Operator,
  thresholds: RaidThresholds,
  reason: string,
  now: number,
): Promise<RaidRow> {
  return deps.db.transaction().execute(async (trx) => {
    const before = await readRaid(trx, { lock: true });
    await writeThresholds(trx, thresholds);
    await recordDecision(
      trx,
      operator,
      {
        kind: 'raid-thresholds',
        targetType: 'site',
        targetId: 'raid-mode',
        targetLabel: 'Raid mode',
        reason,
        details: { before: describe(before.thresholds), after: describe(thresholds) },
      },
      now,
    );
    return readRaid(trx);
  });
}

/** The last hour's counts the thresholds are compared with. */
export async function hourlyActivity(db: Kysely<Database>, now: number): Promise<HourlyActivity> {
  const since = now - HOUR_MS;
  const [signups, gallery] = await Promise.all([
    signUpsSince(db, since),
    galleryActivitySince(db, since),
  ]);
  return { signups, ...gallery };
}

/**
 * The automatic trigger, run every few seconds (raid/plugin.ts): enters raid mode when a count of
 * the last hour reaches its threshold; while on, a count at its threshold keeps it on, and once
 * every count has stayed under for the quiet period (counted from the entry or the last such
 * count) it ends, whether it was entered by hand or not. Answers what it did.
 */
export async function checkRaidTrigger(
  deps: RaidDeps,
  now: number,
): Promise<'entered' | 'left' | null> {
  const raid = await readRaid(deps.db);
  const signs = raidSigns(await hourlyActivity(deps.db, now), raid.thresholds);
  if (!raid.active) {
    if (signs.length === 0) return null;
    const entered = await switchRaid(
      deps,
      RAID_TRIGGER,
      { active: true, reason: signs.join('; '), automatic: true },
      now,
    );
    return entered ? 'entered' : null;
  }
  if (signs.length > 0) {
    await noteSign(deps.db, now);
    return null;
  }
  const quietFor = now - (await lastSignAt(deps.db));
  if (quietFor < raid.thresholds.quietMinutes * MINUTE_MS) return null;
  const left = await switchRaid(
    deps,
    RAID_TRIGGER,
    {
      active: false,
      reason: `Quiet for ${raid.thresholds.quietMinutes} minutes: every count under its threshold.`,
    },
    now,
  );
  return left ? 'left' : null;
}
