import { consolePaths, type Role } from '#shared/api/console/common.ts';
import { cliOperator } from '#server/db/operator-log.ts';
import { setRole } from '#server/console/roles.ts';
import type { TestApp } from './test-app.ts';
import { uniqueName } from './test-app.ts';
import { TestClient } from './test-client.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

export const PASSWORD = 'password123';

export interface Operator {
  client: TestClient;
  user: { id: number; username: string };
  authenticator: SoftAuthenticator;
}

/**
 * A member with `role`, signed in (again, after the role change ended the session registration
 * opened); with `passkey`, a passkey added (and so signed in with it).
 */
export async function operator(
  t: TestApp,
  role: Role,
  options: { passkey?: boolean; ip?: string } = {},
): Promise<Operator> {
  const client = TestClient.inject(t.app, options.ip);
  const user = await client.register(uniqueName(role.slice(0, 3)), PASSWORD);
  if (role !== 'member') {
    await setRole(t.app.deps.db, cliOperator(), user, role, t.clock.now());
    const login = await client.login(user.username, PASSWORD);
    if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
  }
  // Without PUBLIC_ORIGIN the page is inject's own host, localhost (port 80, which an origin omits).
  const authenticator = new SoftAuthenticator(t.config.publicOrigin ?? 'http://localhost');
  if (options.passkey) await addPasskey(client, authenticator);
  return { client, user, authenticator };
}

/**
 * Adds a passkey through the console's API, as the console page does; `node` names the node of
 * a multi-node site to ask (TestClient.http).
 */
export async function addPasskey(
  client: TestClient,
  authenticator: SoftAuthenticator,
  node?: string,
) {
  const options = await client.request('POST', consolePaths.registrationOptions, {
    body: { password: PASSWORD },
    node,
  });
  if (options.statusCode !== 200) throw new Error(`options: ${options.statusCode} ${options.body}`);
  const res = await client.request('POST', consolePaths.registration, {
    body: { response: authenticator.register(options.json()) },
    node,
  });
  if (res.statusCode !== 201) throw new Error(`registration: ${res.statusCode} ${res.body}`);
  return res.json<{ passkey: { id: number } }>().passkey;
}

/** Signs in with the passkey again, as the console asks after 15 idle minutes (or 12 hours). */
export async function passkeySignIn(client: TestClient, authenticator: SoftAuthenticator) {
  const options = await client.request('POST', consolePaths.authenticationOptions);
  if (options.statusCode !== 200) throw new Error(`options: ${options.statusCode} ${options.body}`);
  return client.request('POST', consolePaths.authentication, {
    body: { response: authenticator.authenticate(options.json()) },
  });
}
