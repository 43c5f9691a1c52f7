import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SessionUser } from '../deps.ts';
import {
  csrfTokenEndpoint,
  loginEndpoint,
  logoutEndpoint,
  meEndpoint,
  registerEndpoint,
} from '#shared/api/auth.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { clientNetwork } from '../http/client-network.ts';
import { noStore } from '../http/no-store.ts';
import { issueCsrfToken, renewCsrfCookie } from '../security/csrf.ts';
import { cachedSession, endSession, startSession } from '../security/sessions.ts';
import { knownDevice, rememberDevice } from './known-device.ts';
import { login, register } from './service.ts';
import { untoldDecision } from '../suspensions/appeals.ts';
import { checkSolution } from '../raid/challenge.ts';
import {
  walletLoginEndpoint,
  walletRegisterEndpoint,
  walletSignInChallengeEndpoint,
} from '#shared/api/wallet-sign-in.ts';
import { siteIdentity } from '../wallet/siws-checks.ts';
import { issueSignInChallenge, registerWithWallet, signInWithWallet } from './wallet-sign-in.ts';

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
  endpointRoute(
    app,
    csrfTokenEndpoint,
    async (request, reply) => ({ csrfToken: issueCsrfToken(request, reply) }),
    { preHandler: noStore },
  );

  // A member's read also carries the decision on their appeal until they have seen it (022).
  // Best effort: the member comes from the session cache, and a database that cannot answer
  // the notice now must not fail the read; it is told on a later one.
  endpointRoute(
    app,
    meEndpoint,
    async (request) => {
      const { user, sessionIdHash } = request;
      if (!user || !sessionIdHash) return { user: null };
      // Kept by the session scope's look-up a moment ago: no query unless a decision waits.
      const { role, appealDecisionUntold } = await cachedSession(app.deps, sessionIdHash);
      const told = appealDecisionUntold
        ? await untoldDecision(app.deps.db, user.id).catch((error: unknown) => {
            request.log.warn({ err: error }, 'appeal decision not read for /api/auth/me');
            return null;
          })
        : null;
      return {
        user,
        ...(told && { appealDecision: told }),
        ...(role !== 'member' && { operator: role }),
      };
    },
    { preHandler: noStore },
  );

  endpointRoute(app, registerEndpoint, async (request, reply) => {
    // Raid mode: a sign-up brings a solved proof-of-work challenge (decision 027).
    if ((await app.raid.get()).active) await checkSolution(app.deps, request.body.altcha);
    // One person may hold a whole /48: registrations count per subscriber (docs/decisions/018).
    const user = await register(app.deps, request.body, clientNetwork(request, 'subscriber'));
    return signIn(request, reply, user);
  });

  endpointRoute(app, loginEndpoint, async (request, reply) => {
    const user = await login(app.deps, request.body, clientNetwork(request), (userId) =>
      knownDevice(request, userId),
    );
    // This browser now knows the password: others' failures do not pause it (known-device.ts).
    rememberDevice(request, reply, user.id);
    return signIn(request, reply, user);
  });

  // Signing in with a wallet (docs/decisions/029-holders-at-home.md): the same session rotation
  // as a password's; no known-browser cookie, which says a browser knew the password.
  endpointRoute(
    app,
    walletSignInChallengeEndpoint,
    async (request) =>
      issueSignInChallenge(app.deps, siteIdentity(request), clientNetwork(request)),
    { preHandler: noStore },
  );

  endpointRoute(app, walletLoginEndpoint, async (request, reply) => {
    const user = await signInWithWallet(
      app.deps,
      request.body,
      siteIdentity(request),
      clientNetwork(request),
    );
    return signIn(request, reply, user);
  });

  endpointRoute(app, walletRegisterEndpoint, async (request, reply) => {
    // Raid mode asks a wallet's sign-up for the same proof of work as a password's (decision 027).
    if ((await app.raid.get()).active) await checkSolution(app.deps, request.body.altcha);
    const user = await registerWithWallet(app.deps, request.body, siteIdentity(request), {
      client: clientNetwork(request),
      subscriber: clientNetwork(request, 'subscriber'),
    });
    return signIn(request, reply, user);
  });

  endpointRoute(app, logoutEndpoint, async (request, reply) => {
    await endSession(request, reply);
    renewCsrfCookie(request, reply);
    return { ok: true as const };
  });
};
