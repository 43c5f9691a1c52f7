import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
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

/** The operator the console's guard found, for the operator log. */
export function consoleOperator(request: FastifyRequest): Operator {
  if (!request.operator) throw new Error('a money route ran without the console guard');
  return request.operator;
}

/**
 * The console's prize payment: prepare (reference and memo), confirm (verified on chain, then
 * paid) and status: admins' endpoints, so each route runs the console's guard and each write
 * counts against the console's write limit (endpointRoute installs both); each money action
 * goes on the operator log under the operator who made it. Registered in the console's scope.
 */
export const prizePaymentRoutes: FastifyPluginAsync<{ site: SiteConfig }> = async (
  app,
  { site },
) => {
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
  endpointRoute(app, preparePaymentEndpoint, async (request) =>
    preparePaymentWithLifetime(as(request), request.params.week),
  );
  endpointRoute(app, paymentStatusEndpoint, async (request) =>
    paymentStatus(shared, request.params.week),
  );
  endpointRoute(app, confirmPaymentEndpoint, async (request) =>
    confirmPayment(as(request), request.params.week, request.body.signature),
  );
};
