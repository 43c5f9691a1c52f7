import type { Kysely } from 'kysely';
import type { LiveEventInput } from '#shared/api/live.ts';
import type { Database } from '../db/database.ts';

/** Whatever carries events from this process to the site's streams (a node's hub, the CLI's bus). */
export interface LivePublisher {
  publish(event: LiveEventInput): void;
}

const publishers = new WeakMap<Kysely<Database>, LivePublisher>();

/**
 * Binds a publisher to a database handle: the server does it for its hub (plugins/database.ts),
 * the operator CLI for a bus without streams (cli/main.ts). The event stream follows the
 * database because every change it announces is a write through that handle.
 */
export function attachLivePublisher(db: Kysely<Database>, publisher: LivePublisher): void {
  publishers.set(db, publisher);
}

/**
 * The one way to announce a change on `GET /api/events` (docs/decisions/021): call it with the
 * root database handle (not a transaction's) after the change committed. It never throws and
 * never waits; with no publisher bound (a script, a test building its own handle) it does
 * nothing.
 */
export function recordLiveEvent(db: Kysely<Database>, event: LiveEventInput): void {
  publishers.get(db)?.publish(event);
}
