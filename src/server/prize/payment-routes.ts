import type { FastifyPluginAsync, onRequestHookHandler } from 'fastify';
import {
  confirmPaymentEndpoint,
  paymentStatusEndpoint,
  preparePaymentEndpoint,
} from '#shared/api/chain.ts';
import type { SiteConfig } from '#shared/site.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import {
  confirmPayment,
  paymentContext,
  paymentStatus,
  preparePaymentWithLifetime,
} from './payments.ts';

/**
 * The console's prize payment: prepare (reference and memo), confirm (verified on chain, then
 * paid) and status. `guard` is the console's operator check, run as each route's onRequest hook;
 * the console registers this plugin in its scope.
 */
export const prizePaymentRoutes: FastifyPluginAsync<{
  site: SiteConfig;
  guard: onRequestHookHandler;
}> = async (app, { site, guard }) => {
  const ctx = paymentContext(app.deps.config, {
    db: app.deps.db,
    site,
    clock: app.deps.clock,
  });
  const extras = { onRequest: guard };
  endpointRoute(
    app,
    preparePaymentEndpoint,
    async (request) => preparePaymentWithLifetime(ctx, request.params.week),
    extras,
  );
  endpointRoute(
    app,
    paymentStatusEndpoint,
    async (request) => paymentStatus(ctx, request.params.week),
    extras,
  );
  endpointRoute(
    app,
    confirmPaymentEndpoint,
    async (request) => confirmPayment(ctx, request.params.week, request.body.signature),
    extras,
  );
};
