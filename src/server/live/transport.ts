import { createHmac } from 'node:crypto';
import { Redis } from 'ioredis';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { LiveEvent, LiveEventInput } from '#shared/api/live.ts';
import type { Database } from '../db/database.ts';
import type { Clock } from '../clock.ts';

/**
 * How an event reaches every node of the site, each node included (docs/decisions/021): the bus
 * gives it the next id of one counter the nodes share, so a stream resumed on another node
 * continues where it stopped.
 */
export interface LiveTransport {
  readonly kind: 'in-process' | 'postgres' | 'redis';
  /** Numbers the event and sends it to every node; rejects when the bus is unreachable. */
  publish(event: LiveEventInput): Promise<void>;
  /**
   * Starts receiving. `onReady(lastId)` is called each time the listener is (re)connected, with
   * the counter's value at that moment: every event numbered after it will arrive. A second
   * call means events may have been missed while the listener was down.
   */
  listen(handlers: ListenHandlers): void;
  close(): Promise<void>;
}

interface ListenHandlers {
  onEvent(event: LiveEvent): void;
  onReady(lastId: number): void;
  onError(error: unknown): void;
}

/** Reconnection delays of a lost listener: 0.5 s doubling to 10 s. */
const backoff = (attempt: number) => Math.min(500 * 2 ** attempt, 10_000);

function parseEvent(text: string): LiveEvent | undefined {
  try {
    const event = JSON.parse(text) as LiveEvent;
    return typeof event.id === 'number' && typeof event.type === 'string' ? event : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One node on SQLite: the events stay in this process. Ids start from the clock (microseconds)
 * so a restarted node's ids are still higher than the ones its clients saw before it stopped,
 * and those clients are told to refetch rather than replayed a wrong backlog.
 */
export function inProcessTransport(clock: Clock): LiveTransport {
  let last = Math.floor(clock.now()) * 1000;
  let handlers: ListenHandlers | undefined;
  return {
    kind: 'in-process',
    publish(event) {
      last += 1;
      const numbered = { ...event, id: last } as LiveEvent;
      // Delivered after the caller's own work, as the other buses deliver.
      queueMicrotask(() => handlers?.onEvent(numbered));
      return Promise.resolve();
    },
    listen(h) {
      handlers = h;
      h.onReady(last);
    },
    async close() {
      handlers = undefined;
    },
  };
}

const POSTGRES_CHANNEL = 'live_events';
export const LISTENER_NAME = 'grind-live-listener';

/**
 * PostgreSQL LISTEN/NOTIFY: the id comes from the `live_event_ids` sequence (migration 018) in the
 * same statement as the NOTIFY; payloads are a few dozen bytes, far below NOTIFY's 8,000. The
 * listener is one connection of its own, reconnected with backoff when it drops.
 */
export function postgresTransport(db: Kysely<Database>, url: string): LiveTransport {
  let client: pg.Client | undefined;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (handlers: ListenHandlers) => {
    const c = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 5_000,
      // Named, so an operator can tell it in pg_stat_activity.
      application_name: LISTENER_NAME,
    });
    client = c;
    let lost = false;
    const retry = (error: unknown) => {
      if (lost || closed) return;
      lost = true;
      handlers.onError(error);
      c.removeAllListeners('notification');
      void c.end().catch(() => {});
      timer = setTimeout(() => void connect(handlers), backoff(attempt++));
    };
    c.on('error', retry);
    c.on('end', () => retry(new Error('listener connection ended')));
    c.on('notification', (message) => {
      const event = message.payload ? parseEvent(message.payload) : undefined;
      if (event) handlers.onEvent(event);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${POSTGRES_CHANNEL}`);
      const { rows } = await c.query<{ last: string }>(
        'SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS last FROM live_event_ids',
      );
      if (closed) return void c.end().catch(() => {});
      attempt = 0;
      handlers.onReady(Number(rows[0]!.last));
    } catch (error) {
      retry(error);
    }
  };

  return {
    kind: 'postgres',
    async publish(event) {
      await sql`select pg_notify(${POSTGRES_CHANNEL}, json_build_object(
        'id', nextval('live_event_ids'), 'type', ${event.type}::text, 'data', ${JSON.stringify(event.data)}::json
      )::text)`.execute(db);
    },
    listen(handlers) {
      void connect(handlers);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => {});
    },
  };
}

/**
 * Redis pub/sub when REDIS_URL is set: the id from INCR, then PUBLISH. The channel and counter
 * are named from the site's shared secret, so two sites (or two test runs) on one Redis never
 * hear each other. ioredis reconnects and resubscribes by itself; each `ready` after the first
 * is reported as a reconnection.
 */
export function redisTransport(url: string, secret: string): LiveTransport {
  const name = createHmac('sha256', secret).update('live-events').digest('hex').slice(0, 16);
  const channel = `live:${name}:events`;
  const counter = `live:${name}:id`;
  const options = {
    connectTimeout: 2_000,
    retryStrategy: (attempt: number) => backoff(attempt - 1),
  };
  // Publishing fails fast while Redis is away (a vote must never wait on it).
  const publisher = new Redis(url, {
    ...options,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
  });
  publisher.on('error', () => {});
  let subscriber: Redis | undefined;
  return {
    kind: 'redis',
    async publish(event) {
      const id = await publisher.incr(counter);
      await publisher.publish(channel, JSON.stringify({ ...event, id }));
    },
    listen(handlers) {
      const sub = new Redis(url, { ...options, maxRetriesPerRequest: null });
      subscriber = sub;
      sub.on('error', (error) => handlers.onError(error));
      sub.on('message', (_channel, text: string) => {
        const event = parseEvent(text);
        if (event) handlers.onEvent(event);
      });
      // On every (re)connection: subscribe first, then read the counter, so nothing numbered
      // after the value read can be missed.
      sub.on('ready', () => {
        void (async () => {
          try {
            await sub.subscribe(channel);
            const last = await publisher.get(counter).catch(() => null);
            handlers.onReady(last === null ? Number.NaN : Number(last));
          } catch (error) {
            handlers.onError(error);
          }
        })();
      });
    },
    async close() {
      subscriber?.disconnect();
      publisher.disconnect();
    },
  };
}
