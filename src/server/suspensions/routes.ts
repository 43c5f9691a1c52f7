import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { appealEndpoint, appealSeenEndpoint, appealStatusEndpoint } from '#shared/api/appeals.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { clientNetwork } from '../http/client-network.ts';
import { enforceRateLimit } from '../security/rate-limit.ts';
import { noStore } from '../http/no-store.ts';
import { currentAppeal, fileAppeal, markTold } from './appeals.ts';

/** A member's appeal writes, per network: a handful an hour is all an honest member needs. */
const APPEAL_WRITES = { limit: 20, windowMs: 60 * 60 * 1000 };

/** Counted per network after the member check, before the body is read. */
const appealWriteLimit: onRequestHookHandler = async (request) => {
  await enforceRateLimit(
    request.server.deps.rateLimiter,
    `appeal:net:${clientNetwork(request)}`,
    APPEAL_WRITES,
    'Too many appeal requests. Please try again later.',
  );
};

/**
 * The member's side of an appeal, in the session scope (CSRF and Origin as on every write). Not
 * among the writes a suspension refuses (`refuses`, src/shared/api): a suspended member is who appeals.
 */
export async function appealRoutes(app: FastifyInstance): Promise<void> {
  const writes = { onRequest: appealWriteLimit };

  endpointRoute(
    app,
    appealEndpoint,
    async (request) => {
      return {
        appeal: await fileAppeal(
          app.deps.db,
          request.user,
          request.body.text,
          app.deps.clock.now(),
        ),
      };
    },
    writes,
  );

  endpointRoute(
    app,
    appealStatusEndpoint,
    async (request) => {
      return currentAppeal(app.deps.db, request.user.id, app.deps.clock.now());
    },
    { preHandler: noStore },
  );

  endpointRoute(
    app,
    appealSeenEndpoint,
    async (request) => {
      await markTold(app.deps.db, request.user.id, request.params.id, app.deps.clock.now());
      // Their sessions' look-ups said a decision waits (auth/me): read afresh. Once a decision.
      app.deps.sessions.clear();
      return { ok: true as const };
    },
    writes,
  );
}
