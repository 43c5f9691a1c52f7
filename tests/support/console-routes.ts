import { consolePaths, type OperatorRole } from '#shared/api/console/common.ts';
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
  route('GET', consolePaths.me, { needsPasskey: false }),
  route('POST', consolePaths.registrationOptions, { body: { password: 'x' }, needsPasskey: false }),
  route('POST', consolePaths.registration, { body: { response: {} }, needsPasskey: false }),
  route('POST', consolePaths.authenticationOptions, { needsPasskey: false }),
  route('POST', consolePaths.authentication, { body: { response: {} }, needsPasskey: false }),
  route('GET', consolePaths.passkeys),
  route('DELETE', consolePaths.passkey, { path: consolePaths.passkey.replace(':id', '1') }),
  route('PUT', consolePaths.passkeyName, {
    path: consolePaths.passkeyName.replace(':id', '1'),
    body: { name: 'YubiKey' },
  }),
  route('GET', consolePaths.log),
];

CONSOLE_ROUTES.push(
  route('GET', consolePaths.reports),
  route('POST', consolePaths.memeDecision, {
    path: consolePaths.memeDecision.replace(':id', '1'),
    body: { decision: 'hide', reason: 'spam everywhere' },
  }),
);

CONSOLE_ROUTES.push(
  route('GET', consolePaths.members, { path: `${consolePaths.members}?q=a` }),
  route('GET', consolePaths.member, { path: consolePaths.member.replace(':username', 'someone') }),
  route('POST', consolePaths.suspend, {
    path: consolePaths.suspend.replace(':username', 'someone'),
    body: { length: 'day', reason: 'spamming the gallery' },
  }),
  route('POST', consolePaths.lift, {
    path: consolePaths.lift.replace(':username', 'someone'),
    body: { reason: 'appeal heard' },
  }),
  route('POST', consolePaths.endSessions, {
    path: consolePaths.endSessions.replace(':username', 'someone'),
    body: { reason: 'stolen account' },
  }),
);

CONSOLE_ROUTES.push(route('GET', consolePaths.overview));

CONSOLE_ROUTES.push(
  route('POST', consolePaths.appealDecision, {
    path: consolePaths.appealDecision.replace(':id', '1'),
    body: { decision: 'uphold', reason: 'the rules were clear' },
  }),
);

const runPath = (pattern: string) => pattern.replace(':runId', 'some-run');
CONSOLE_ROUTES.push(
  route('GET', consolePaths.prizeWeek, { role: 'admin' }),
  route('POST', consolePaths.replayOpened, {
    path: runPath(consolePaths.replayOpened),
    role: 'admin',
  }),
  route('POST', consolePaths.withdraw, { body: { reason: 'a second look' }, role: 'admin' }),
  route('POST', consolePaths.replayWatched, {
    path: runPath(consolePaths.replayWatched),
    role: 'admin',
  }),
  route('POST', consolePaths.approve, {
    path: runPath(consolePaths.approve),
    body: {},
    role: 'admin',
  }),
  route('POST', consolePaths.disqualify, {
    path: runPath(consolePaths.disqualify),
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
