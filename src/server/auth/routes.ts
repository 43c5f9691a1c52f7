import { authPaths } from '#shared/api/paths.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authResponseSchema,
  csrfTokenResponseSchema,
  loginBodySchema,
  logoutResponseSchema,
  meResponseSchema,
  registerBodySchema,
} from '#shared/api/auth.ts';
import { noStore } from '../http/no-store.ts';
import { issueCsrfToken, renewCsrfCookie } from '../security/csrf.ts';
import { endSession, startSession } from '../security/sessions.ts';
import { login, register } from './service.ts';

/** Register and login end alike: a new session, and a csrf cookie no earlier token matches. */
async function signIn(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
  await startSession(request, reply, userId);
  renewCsrfCookie(request, reply);
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
      const user = await register(app.deps, request.body, request.ip);
      await signIn(request, reply, user.id);
      return reply.code(201).send({ user });
    },
  );

  app.post(
    authPaths.login,
    { schema: { body: loginBodySchema, response: { 200: authResponseSchema } } },
    async (request, reply) => {
      const user = await login(app.deps, request.body, request.ip);
      await signIn(request, reply, user.id);
      return { user };
    },
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
