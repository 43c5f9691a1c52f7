import { adminPaths, type OperatorRole } from '#shared/api/admin.ts';
import { raidPaths } from '#shared/api/raid.ts';
import type { Method } from './test-client.ts';

/** Every console route with a call that would be valid, for the access tests. */
export interface ConsoleRoute {
  method: Method;
  pattern: string;
  path: string;
  body?: unknown;
  role: OperatorRole;
  /** False for the steps that lead to a passkey sign-in. */
  needsPasskey: boolean;
}

const route = (
  method: Method,
  pattern: string,
  options: { path?: string; body?: unknown; role?: OperatorRole; needsPasskey?: boolean } = {},
): ConsoleRoute => ({
  method,
  pattern,
  path: options.path ?? pattern,
  body: options.body,
  role: options.role ?? 'moderator',
  needsPasskey: options.needsPasskey ?? true,
});

export const CONSOLE_ROUTES: ConsoleRoute[] = [
  route('GET', adminPaths.me, { needsPasskey: false }),
  route('POST', adminPaths.registrationOptions, { body: { password: 'x' }, needsPasskey: false }),
  route('POST', adminPaths.registration, { body: { response: {} }, needsPasskey: false }),
  route('POST', adminPaths.authenticationOptions, { needsPasskey: false }),
  route('POST', adminPaths.authentication, { body: { response: {} }, needsPasskey: false }),
  route('GET', adminPaths.passkeys),
  route('DELETE', adminPaths.passkey, { path: adminPaths.passkey.replace(':id', '1') }),
  route('PUT', adminPaths.passkeyName, {
    path: adminPaths.passkeyName.replace(':id', '1'),
    body: { name: 'YubiKey' },
  }),
  route('GET', adminPaths.log),
];

CONSOLE_ROUTES.push(
  route('GET', adminPaths.reports),
  route('POST', adminPaths.memeDecision, {
    path: adminPaths.memeDecision.replace(':id', '1'),
    body: { decision: 'hide', reason: 'spam everywhere' },
  }),
);

CONSOLE_ROUTES.push(
  route('GET', adminPaths.members, { path: `${adminPaths.members}?q=a` }),
  route('GET', adminPaths.member, { path: adminPaths.member.replace(':username', 'someone') }),
  route('POST', adminPaths.suspend, {
    path: adminPaths.suspend.replace(':username', 'someone'),
    body: { length: 'day', reason: 'spamming the gallery' },
  }),
  route('POST', adminPaths.lift, {
    path: adminPaths.lift.replace(':username', 'someone'),
    body: { reason: 'appeal heard' },
  }),
  route('POST', adminPaths.endSessions, {
    path: adminPaths.endSessions.replace(':username', 'someone'),
    body: { reason: 'stolen account' },
  }),
);

CONSOLE_ROUTES.push(route('GET', adminPaths.overview));

CONSOLE_ROUTES.push(
  route('POST', adminPaths.appealDecision, {
    path: adminPaths.appealDecision.replace(':id', '1'),
    body: { decision: 'uphold', reason: 'the rules were clear' },
  }),
);

const runPath = (pattern: string) => pattern.replace(':runId', 'some-run');
CONSOLE_ROUTES.push(
  route('GET', adminPaths.prizeWeek, { role: 'admin' }),
  route('POST', adminPaths.replayOpened, {
    path: runPath(adminPaths.replayOpened),
    role: 'admin',
  }),
  route('POST', adminPaths.withdraw, { body: { reason: 'a second look' }, role: 'admin' }),
  route('POST', adminPaths.replayWatched, {
    path: runPath(adminPaths.replayWatched),
    role: 'admin',
  }),
  route('POST', adminPaths.approve, { path: runPath(adminPaths.approve), body: {}, role: 'admin' }),
  route('POST', adminPaths.disqualify, {
    path: runPath(adminPaths.disqualify),
    body: { reason: 'a bot played this run' },
    role: 'admin',
  }),
);

// Raid day (docs/decisions/027): the raid page and the blocklist.
CONSOLE_ROUTES.push(
  route('GET', raidPaths.admin),
  route('POST', raidPaths.admin, {
    body: { active: true, reason: 'a raid is on' },
    role: 'admin',
  }),
  route('POST', raidPaths.adminThresholds, {
    body: {
      signupsPerHour: 60,
      newPostsPerHour: 30,
      reportsPerHour: 40,
      quietMinutes: 60,
      reason: 'defaults again',
    },
    role: 'admin',
  }),
  route('GET', raidPaths.blocklist, { role: 'admin' }),
  route('POST', raidPaths.blocklist, {
    body: { source: 'friends', text: '', reason: 'their list' },
    role: 'admin',
  }),
);
