import type { Kysely } from 'kysely';
import type { Role } from '#shared/api/console/common.ts';
import type { Clock } from './clock.ts';
import type { AppConfig } from './config.ts';
import type { Database } from './db/database.ts';
import type { LiveHub } from './live/hub.ts';
import type { ReadCache } from './http/read-cache.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { RateLimiter } from './security/rate-limit.ts';
import type { ObjectStore } from './storage/object-store.ts';
import type { Tracing } from './tracing/tracing.ts';

/** What route plugins need; built once by buildApp and passed to nothing through globals. */
export interface AppDeps {
  config: AppConfig;
  db: Kysely<Database>;
  clock: Clock;
  /** Signs CSRF tokens and upload URLs; shared by every node of one site. */
  secret: string;
  rateLimiter: RateLimiter;
  /** Sessions by id hash, under the read-cache rule (security/sessions.ts, decision 011). */
  sessions: ReadCache<CachedSession>;
  /** Uploaded images: local disk under the data folder, or S3 when configured. */
  objectStore?: ObjectStore;
  /** This node's side of `GET /api/events`; announce changes with `recordLiveEvent` (live/record.ts). */
  live: LiveHub;
  /** What /metrics exports (docs/observability.md); counted whether or not anyone reads it. */
  metrics: Metrics;
  /** OpenTelemetry, when OTEL_EXPORTER_OTLP_ENDPOINT is set (tracing/tracing.ts). */
  tracing?: Tracing;
}

/**
 * A session look-up's answer: the member, or null for no live session under that hash; with
 * what `GET /api/auth/me` tells beside the member, read in the same query so that the page's
 * session read costs no query of its own (the console reads the role afresh on every request).
 */
export interface CachedSession {
  user: SessionUser | null;
  role: Role;
  /** A decision on one of the member's appeals waits to be shown to them. */
  appealDecisionUntold: boolean;
}

export interface SessionUser {
  id: number;
  username: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    sessionIdHash: string | null;
  }
}
