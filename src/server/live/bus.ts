import type { Kysely } from 'kysely';
import type { LiveEventInput } from '#shared/api/live.ts';
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { LivePublisher } from './record.ts';
import {
  inProcessTransport,
  postgresTransport,
  redisTransport,
  type LiveTransport,
} from './transport.ts';
import { systemClock, type Clock } from '../clock.ts';

/**
 * The site's bus (docs/decisions/021): Redis pub/sub when REDIS_URL is set, else PostgreSQL
 * LISTEN/NOTIFY on PostgreSQL, else (one node on SQLite) this process alone.
 */
export function createLiveTransport(
  config: AppConfig,
  db: Kysely<Database>,
  secret: string,
  clock: Clock,
): LiveTransport {
  if (config.redisUrl) return redisTransport(config.redisUrl, secret);
  if (config.database.kind === 'postgres') return postgresTransport(db, config.database.url);
  return inProcessTransport(clock);
}

/**
 * A publisher without streams, for a process that changes what pages show but serves none (the
 * operator CLI): its events reach the nodes over PostgreSQL or Redis. On SQLite the nodes are
 * other processes it cannot reach, so it announces nothing (pages show the change on their
 * next load). `flush` waits for what was sent.
 */
export function createCliPublisher(
  config: AppConfig,
  db: Kysely<Database>,
  secret: string,
): (LivePublisher & { flush(): Promise<void> }) | undefined {
  if (!config.redisUrl && config.database.kind !== 'postgres') return undefined;
  const transport = createLiveTransport(config, db, secret, systemClock);
  const sent: Promise<void>[] = [];
  return {
    publish(event: LiveEventInput) {
      sent.push(transport.publish(event).catch(() => {}));
    },
    async flush() {
      await Promise.all(sent);
      await transport.close();
    },
  };
}
