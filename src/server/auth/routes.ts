import { authPaths } from '#shared/api/paths.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SessionUser } from '../deps.ts';
import {
  authResponseSchema,
  csrfTokenResponseSchema,
  loginBodySchema,
  logoutResponseSchema,
  meResponseSchema,
  registerBodySchema,
} from '#shared/api/auth.ts';
import { clientNetwork } from '../http/client-network.ts';
import { noStore } from '../http/no-store.ts';
import { issueCsrfToken, renewCsrfCookie } from '../security/csrf.ts';
import { endSession, startSession } from '../security/sessions.ts';
import { login, register } from './service.ts';

/**
 * Register and login end alike: a new session, a csrf cookie no earlier token matches, and the
 * member in the answer.
 */
async function signIn(
  request: FastifyRequest,
  reply: FastifyReply,
  user: SessionUser,
): Promise<{ user: SessionUser }> {
  await startSession(request, reply, user.id);
  renewCsrfCookie(request, reply);
  return { user };
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    authPaths.csrfToken,
    { preHandler: noStore, schema: { response: { 200: csrfTokenResponseSchema } } },
    async (request, reply) => ({ csrfToken: issueCsrfToken(request, reply) }),
  );

  app.get(
    authPaths.me,
    { preHandler: noStore, schema: { response: { 200: meResponseSchema } } },
    async (request) => ({ user: request.user }),
  );

  app.post(
    authPaths.register,
    { schema: { body: registerBodySchema, response: { 201: authResponseSchema } } },
    async (request, reply) => {
      // One person may hold a whole /48: registrations count per subscriber (docs/decisions/018).
      const user = await register(app.deps, request.body, clientNetwork(request, 'subscriber'));
      const answer = await signIn(request, reply, user);
      return reply.code(201).send(answer);
    },
  );

  app.post(
    authPaths.login,
    { schema: { body: loginBodySchema, response: { 200: authResponseSchema } } },
    async (request, reply) =>
      signIn(request, reply, await login(app.deps, request.body, clientNetwork(request))),
  );

  app.post(
    authPaths.logout,
    { schema: { response: { 200: logoutResponseSchema } } },
    async (request, reply) => {
      await endSession(request, reply);
      renewCsrfCookie(request, reply);
      return { ok: true as const };
    },
  );
};
