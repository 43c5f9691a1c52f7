import type { FastifyPluginAsync, FastifyRequest, onRequestHookHandler } from 'fastify';
import {
  confirmPaymentEndpoint,
  paymentStatusEndpoint,
  preparePaymentEndpoint,
} from '#shared/api/chain.ts';
import type { SiteConfig } from '#shared/site.ts';
import type { Operator } from '../db/operator-log.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import {
  confirmPayment,
  paymentContext,
  paymentStates,
  paymentStatus,
  preparePaymentWithLifetime,
  type PaymentContext,
} from './payments.ts';

/** What the console gives its money routes: its operator check and its write limit. */
export interface ConsoleHooks {
  site: SiteConfig;
  /** The operator check (it sets request.operator), each route's first onRequest hook. */
  guard: onRequestHookHandler;
  /** The console's write limit, after the guard on every write. */
  writeLimit: onRequestHookHandler;
}

/** The operator the console's guard found, for the operator log. */
export function consoleOperator(request: FastifyRequest): Operator {
  if (!request.operator) throw new Error('a money route ran without the console guard');
  return request.operator;
}

/**
 * The console's prize payment: prepare (reference and memo), confirm (verified on chain, then
 * paid) and status. Each route runs the console's guard; the writes also count against the
 * console's write limit, and each money action goes on the operator log under the operator who
 * made it. The console registers this plugin in its scope.
 */
export const prizePaymentRoutes: FastifyPluginAsync<ConsoleHooks> = async (
  app,
  { site, guard, writeLimit },
) => {
  const write = { onRequest: [guard, writeLimit] };
  const shared = paymentContext(
    app.deps.config,
    { db: app.deps.db, site, clock: app.deps.clock },
    app.deps.tracing,
  );
  app.deps.metrics.readers.prizeWeeks = () => paymentStates(app.deps.db, app.deps.clock.now());
  const as = (request: FastifyRequest): PaymentContext => ({
    ...shared,
    operator: consoleOperator(request),
  });
  endpointRoute(
    app,
    preparePaymentEndpoint,
    async (request) => preparePaymentWithLifetime(as(request), request.params.week),
    write,
  );
  endpointRoute(
    app,
    paymentStatusEndpoint,
    async (request) => paymentStatus(shared, request.params.week),
    { onRequest: guard },
  );
  endpointRoute(
    app,
    confirmPaymentEndpoint,
    async (request) => confirmPayment(as(request), request.params.week, request.body.signature),
    write,
  );
};
