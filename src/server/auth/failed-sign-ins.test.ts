import { describe, expect, it } from 'vitest';
import { MINUTE_MS } from '#shared/time.ts';
import { authPaths } from '#shared/api/paths.ts';
import { WIDE_NETWORK_SHARE } from '#server/http/client-network.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import {
  LOGIN_LIMIT_PER_USERNAME,
  SIGN_IN_FAILURES_PER_ACCOUNT,
  SIGN_IN_FAILURES_PER_DEVICE,
} from './service.ts';

/**
 * Failed sign-ins are counted per account from every network as well (issue 40): a guesser who
 * spreads over many networks (the /64s of one /48, or many IPv4 addresses) is paused after
 * `SIGN_IN_FAILURES_PER_ACCOUNT`, for a window that ends, and a browser that signed in before
 * is not paused by others. The addresses arrive as a trusted proxy reports them.
 */
describe.each(databaseKinds)('failed sign-ins to one account on %s', (kind) => {
  const t = suiteApp(kind, { trustProxy: 1 });

  /** A sign-in as the proxy forwards it from `address`, by a new browser unless given. */
  const signIn = (
    address: string,
    username: string,
    password: string,
    client = TestClient.inject(t.app),
  ) => client.login(username, password, { forwardedFor: address });

  async function member(address: string) {
    const name = uniqueName('owner');
    const browser = TestClient.inject(t.app);
    await browser.register(name, 'rightpass1', { forwardedFor: address });
    return { name, browser };
  }

  /** 60 wrong passwords for `name`, each from the next address, and the answers. */
  async function guess(name: string, addresses: string[]) {
    const answers = [];
    for (const address of addresses) answers.push(await signIn(address, name, 'wrong-password'));
    return answers;
  }

  function expectPausedAfterTheLimit(answers: Awaited<ReturnType<typeof guess>>) {
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.slice(0, SIGN_IN_FAILURES_PER_ACCOUNT).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(SIGN_IN_FAILURES_PER_ACCOUNT).every((s) => s === 429)).toBe(true);
    const paused = answers[SIGN_IN_FAILURES_PER_ACCOUNT]!;
    expect(paused.json()).toEqual({
      code: 'SIGN_IN_PAUSED',
      message: expect.stringMatching(
        /^Too many failed sign-ins to this account\. Signing in to it is paused for \d+ minutes?;/,
      ),
    });
    expect(Number(paused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(paused.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
  }

  it('pauses an account after 20 wrong passwords from 60 /64s of one /48', async () => {
    const { name } = await member('2001:db8:40:1::1');
    const addresses = Array.from(
      { length: 60 },
      (_, i) => `2001:db8:41:${(i + 1).toString(16)}::1`,
    );
    const answers = await guess(name, addresses);
    expectPausedAfterTheLimit(answers);
    // Past 40 the /48's own count of tries at this name (10 per /64, four /64s' worth) refuses
    // first: the per-network limits count at both widths too.
    const perName = LOGIN_LIMIT_PER_USERNAME * WIDE_NETWORK_SHARE;
    expect(answers.slice(perName).every((a) => a.json().code === 'RATE_LIMITED')).toBe(true);
  });

  it('pauses an account after 20 wrong passwords from 60 IPv4 addresses, for a window that ends', async () => {
    const { name } = await member('198.51.100.40');
    const addresses = Array.from({ length: 60 }, (_, i) => `203.0.113.${i + 1}`);
    const answers = await guess(name, addresses);
    expectPausedAfterTheLimit(answers);
    expect(answers.at(-1)!.json().code).toBe('SIGN_IN_PAUSED');
    // The right password tests nothing during the pause, from anywhere new.
    expect((await signIn('198.51.100.41', name, 'rightpass1')).statusCode).toBe(429);
    t.clock.advance(15 * MINUTE_MS + 1000);
    expect((await signIn('198.51.100.41', name, 'rightpass1')).statusCode).toBe(200);
  });

  it('lets a browser that signed in before through the pause, counting its own failures', async () => {
    const { name, browser } = await member('198.51.100.50');
    // The owner's browser signs in once: it is now a known one.
    expect((await signIn('198.51.100.50', name, 'rightpass1', browser)).statusCode).toBe(200);
    const addresses = Array.from({ length: 30 }, (_, i) => `192.0.2.${i + 100}`);
    const answers = await guess(name, addresses);
    expect(answers.at(-1)!.json().code).toBe('SIGN_IN_PAUSED');
    expect((await signIn('198.51.100.51', name, 'rightpass1')).statusCode).toBe(429);

    // From another network too: the browser is what is known, not the address.
    expect((await signIn('198.51.100.52', name, 'rightpass1', browser)).statusCode).toBe(200);
    // A thief holding the cookie but not the password gets its own small allowance.
    for (let i = 0; i < SIGN_IN_FAILURES_PER_DEVICE; i++) {
      expect((await signIn(`198.51.100.${60 + i}`, name, 'wrong', browser)).statusCode).toBe(401);
    }
    const stopped = await signIn('198.51.100.99', name, 'rightpass1', browser);
    expect(stopped.statusCode).toBe(429);
    expect(stopped.json()).toMatchObject({
      code: 'SIGN_IN_PAUSED',
      message: expect.stringMatching(/^Too many failed sign-ins from this browser\./),
    });
  });

  it('does not take a cookie made for another account, or forged, as a known browser', async () => {
    const { name } = await member('198.51.100.70');
    const other = await member('198.51.100.71');
    expect(
      (await signIn('198.51.100.71', other.name, 'rightpass1', other.browser)).statusCode,
    ).toBe(200);
    const known = other.browser.cookies.get('kd')!;
    expect(known).toMatch(/^\d+\.[\w-]{22}\.[\w-]{43}$/);
    await guess(
      name,
      Array.from({ length: SIGN_IN_FAILURES_PER_ACCOUNT }, (_, i) => `192.0.2.${i + 1}`),
    );
    // The other account's cookie, and one re-signed for this account by hand, are strangers.
    const [, device, mac] = known.split('.');
    const id = (await other.browser.request('GET', authPaths.me)).json().user.id as number;
    for (const value of [known, `${id + 1}.${device}.${mac}`]) {
      const stranger = TestClient.inject(t.app);
      stranger.cookies.set('kd', value);
      expect((await signIn('198.51.100.72', name, 'rightpass1', stranger)).statusCode).toBe(429);
    }
  });
});
