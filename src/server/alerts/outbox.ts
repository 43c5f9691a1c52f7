import type { Kysely, Transaction } from 'kysely';
import { MINUTE_MS, SECOND_MS } from '#shared/time.ts';
import type { AlertsConfig } from '../config.ts';
import type { AlertChannel, Database } from '../db/database.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Moderators' alerts (issue 43, docs/decisions/027-raid-day.md): a durable outbox. An alert is one
 * row per configured channel, written in the transaction of what it reports (raid mode entered,
 * a meme held), so it is neither lost by a crash nor sent for something that did not happen; a
 * sender (sender.ts) delivers due rows in the background and never holds a request up.
 */
type AlertKind =
  'raid-entered' | 'raid-left' | 'meme-held' | 'queue-size' | 'payment-refused';

export interface Alert {
  kind: AlertKind;
  subject: string;
  body: string;
}

export function alertChannels(config: AlertsConfig): AlertChannel[] {
  const channels: AlertChannel[] = [];
  if (config.discord) channels.push('discord');
  if (config.telegram) channels.push('telegram');
  if (config.email) channels.push('email');
  return channels;
}

/** Queues the alert for every channel set (none set: nothing is written). */
export async function enqueueAlert(
  db: Db,
  config: AlertsConfig,
  alert: Alert,
  now: number,
): Promise<void> {
  const channels = alertChannels(config);
  if (channels.length === 0) return;
  await db
    .insertInto('alert_outbox')
    .values(
      channels.map((channel) => ({
        kind: alert.kind,
        channel,
        subject: alert.subject,
        body: alert.body,
        created_at: now,
        next_attempt_at: now,
        sent_at: null,
        failed_at: null,
        last_error: null,
      })),
    )
    .execute();
}

/** Tries per alert and channel before it is marked failed (about a day of backoff). */
const MAX_ATTEMPTS = 12;

/** The wait before the next try after `attempts` failed ones: 15 s doubling, at most an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(15 * SECOND_MS * 2 ** Math.max(0, attempts - 1), 60 * MINUTE_MS);
}

export async function dueAlerts(db: Db, now: number, limit = 50) {
  return db
    .selectFrom('alert_outbox')
    .selectAll()
    .where('sent_at', 'is', null)
    .where('failed_at', 'is', null)
    .where('next_attempt_at', '<=', now)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function markSent(db: Db, id: number, now: number): Promise<void> {
  await db.updateTable('alert_outbox').set({ sent_at: now }).where('id', '=', id).execute();
}

export async function markFailedAttempt(
  db: Db,
  row: { id: number; attempts: number },
  error: string,
  now: number,
): Promise<void> {
  const attempts = row.attempts + 1;
  await db
    .updateTable('alert_outbox')
    .set({
      attempts,
      last_error: error.slice(0, 500),
      next_attempt_at: now + backoffMs(attempts),
      failed_at: attempts >= MAX_ATTEMPTS ? now : null,
    })
    .where('id', '=', row.id)
    .execute();
}

/** Rows sent or given up on more than a week ago go. */
export async function pruneAlerts(db: Db, now: number): Promise<void> {
  const before = now - 7 * 24 * 60 * MINUTE_MS;
  await db
    .deleteFrom('alert_outbox')
    .where((eb) =>
      eb.or([
        eb.and([eb('sent_at', 'is not', null), eb('sent_at', '<', before)]),
        eb.and([eb('failed_at', 'is not', null), eb('failed_at', '<', before)]),
      ]),
    )
    .execute();
}
