import { adminPaths, type OperatorRole } from '#shared/api/admin.ts';
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
  route('GET', adminPaths.log),
];

CONSOLE_ROUTES.push(
  route('GET', adminPaths.reports),
  route('POST', adminPaths.memeDecision, {
    path: adminPaths.memeDecision.replace(':id', '1'),
    body: { decision: 'hide', reason: 'spam everywhere' },
  }),
);
