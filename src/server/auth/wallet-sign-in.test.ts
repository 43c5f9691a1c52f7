import { describe, expect, it } from 'vitest';
import { accountPaths, authPaths, walletPaths, walletSignInPaths } from '#shared/api/paths.ts';
import type { WalletChallenge } from '#shared/api/wallet.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { TestWallet } from '#test-support/test-wallet.ts';
import { CLOCK_SKEW_MS } from '../wallet/siws-checks.ts';
import {
  SIGN_IN_CHALLENGES_PER_NETWORK,
  SIGN_IN_STATEMENT,
  SIGN_IN_TTL_MS,
  SIGN_INS_PER_WALLET,
} from './wallet-sign-in.ts';

/**
 * Signing in with a wallet (issue 45, docs/decisions/029-holders-at-home.md): the site's Sign In
 * With Solana message, every field checked; a proven wallet signs its member in, an unknown one
 * opens an account with the same signature.
 */
describe.each(databaseKinds)('signing in with a wallet on %s', (kind) => {
  const t = suiteApp(kind);
  let network = 0;
  /** A browser on an IPv6 /64 of its own (one /48 for the suite). */
  const browser = () => TestClient.inject(t.app, `2001:db8:45:${(network += 1).toString(16)}::1`);

  async function challenge(client: TestClient): Promise<WalletChallenge> {
    const res = await client.request('POST', walletSignInPaths.challenge);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<WalletChallenge>();
  }
  const login = (client: TestClient, body: object) =>
    client.request('POST', walletSignInPaths.login, { body });
  const register = (client: TestClient, body: object, username: string) =>
    client.request('POST', walletSignInPaths.register, { body: { ...body, username } });
  const me = async (client: TestClient) =>
    (await client.request('GET', authPaths.me)).json<{ user: { username: string } | null }>().user;
  const refusal = (res: { statusCode: number; json<T>(): T }) => [
    res.statusCode,
    res.json<{ code: string }>().code,
  ];

  it('opens an account for an unknown wallet with the same signed message, and a message serves once', async () => {
    const client = browser();
    const wallet = new TestWallet();
    const issued = await challenge(client);
    expect(issued).toEqual({
      domain: 'localhost:80',
      statement: SIGN_IN_STATEMENT,
      uri: 'http://localhost:80',
      version: '1',
      chainId: 'mainnet',
      nonce: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{16,}$/),
      issuedAt: new Date(t.clock.now()).toISOString(),
      expirationTime: new Date(t.clock.now() + SIGN_IN_TTL_MS).toISOString(),
    });
    const signed = wallet.signIn(issued);

    // No member proved this wallet: the visitor is told, and nothing is spent.
    expect(refusal(await login(client, signed))).toEqual([404, 'WALLET_UNKNOWN']);
    expect(await me(client)).toBeNull();

    const name = uniqueName('wallet');
    const opened = await register(client, signed, name);
    expect(opened.statusCode, opened.body).toBe(201);
    expect(opened.json()).toEqual({ user: { id: expect.any(Number), username: name } });
    expect(await me(client)).toMatchObject({ username: name });
    const linked = await client.request('GET', walletPaths.wallet);
    expect(linked.json().wallet.address).toBe(wallet.address);

    // Replayed, the message is refused: to sign in, and to open a second account.
    expect(refusal(await login(browser(), signed))).toEqual([409, 'NONCE_USED']);
    expect(refusal(await register(browser(), signed, uniqueName('again')))).toEqual([
      409,
      'NONCE_USED',
    ]);

    // A new message signs the member in with a new session: the old session id stops working.
    const before = client.cookies.get('sid')!;
    const again = await login(client, wallet.signIn(await challenge(client)));
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(opened.json());
    expect(client.cookies.get('sid')).not.toBe(before);
    const stale = await t.app.inject({
      method: 'GET',
      url: authPaths.me,
      headers: { cookie: `sid=${before}` },
    });
    expect(stale.json()).toEqual({ user: null });

    // No password yet: a password sign-in fails like any wrong one, until the member adds one.
    expect((await browser().login(name, 'anything1')).statusCode).toBe(401);
    const added = await client.request('POST', accountPaths.password, {
      body: { password: 'grind-pass-1' },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ hasPassword: true, wallet: wallet.address });
    expect(
      refusal(
        await client.request('POST', accountPaths.password, { body: { password: 'other-pass' } }),
      ),
    ).toEqual([409, 'PASSWORD_ALREADY_SET']);
    expect((await browser().login(name, 'grind-pass-1')).statusCode).toBe(200);
  });

  it("signs in the member who proved the wallet by a link, and a wallet-only account's wallet changes need a password", async () => {
    const owner = browser();
    const name = uniqueName('linker');
    await owner.register(name);
    const wallet = new TestWallet();
    const linkChallenge = (await owner.request('POST', walletPaths.challenge)).json();
    const link = await owner.request('POST', walletPaths.link, {
      body: { ...wallet.signIn(linkChallenge), password: 'password123' },
    });
    expect(link.statusCode, link.body).toBe(200);

    const elsewhere = browser();
    const res = await login(elsewhere, wallet.signIn(await challenge(elsewhere)));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.username).toBe(name);
    // A proven wallet opens no second account.
    const twice = await register(browser(), wallet.signIn(await challenge(browser())), 'x_twice');
    expect(refusal(twice)).toEqual([409, 'WALLET_TAKEN']);

    // An account opened with a wallet alone is asked for a password before its wallet changes.
    const solo = browser();
    const first = new TestWallet();
    expect(
      (await register(solo, first.signIn(await challenge(solo)), uniqueName('solo'))).statusCode,
    ).toBe(201);
    const next = new TestWallet();
    const change = await solo.request('POST', walletPaths.link, {
      body: {
        ...next.signIn((await solo.request('POST', walletPaths.challenge)).json()),
        password: 'guess',
      },
    });
    expect(refusal(change)).toEqual([403, 'PASSWORD_NOT_SET']);
  });

  it('refuses a message for another site, URI or chain, altered, forged, never issued, expired or dated ahead', async () => {
    const client = browser();
    const wallet = new TestWallet();
    const issued = await challenge(client);
    const cases: Array<[object, number, string]> = [
      [wallet.signIn({ ...issued, domain: 'grind-claim.example' }), 400, 'WRONG_DOMAIN'],
      [wallet.signIn({ ...issued, uri: 'https://grind-claim.example' }), 400, 'WRONG_URI'],
      [wallet.signIn({ ...issued, chainId: 'devnet' }), 400, 'WRONG_CHAIN'],
      [wallet.signIn({ ...issued, statement: 'Claim your airdrop' }), 400, 'ALTERED_MESSAGE'],
      [
        wallet.signIn(issued, (text) =>
          text.replace(/Expiration Time: .*/, 'Expiration Time: 2099-01-01T00:00:00.000Z'),
        ),
        400,
        'ALTERED_MESSAGE',
      ],
      [wallet.signIn({ ...issued, nonce: 'NeverIssued1111111111' }), 400, 'UNKNOWN_NONCE'],
      [{ ...new TestWallet().signIn(issued), address: wallet.address }, 400, 'WRONG_ADDRESS'],
      [
        { ...wallet.signIn(issued), signature: new TestWallet().signIn(issued).signature },
        400,
        'BAD_SIGNATURE',
      ],
    ];
    for (const [body, status, code] of cases) {
      expect(refusal(await login(client, body)), code).toEqual([status, code]);
    }
    // None of that spent the message; five minutes on, it has expired.
    expect(refusal(await login(client, wallet.signIn(issued)))).toEqual([404, 'WALLET_UNKNOWN']);
    t.clock.advance(SIGN_IN_TTL_MS);
    expect(refusal(await login(client, wallet.signIn(issued)))).toEqual([400, 'NONCE_EXPIRED']);

    // Issued by a node whose clock runs ahead: taken within the stated skew, refused past it.
    const ahead = wallet.signIn(await challenge(client));
    t.clock.advance(-CLOCK_SKEW_MS);
    expect(refusal(await login(client, ahead))).toEqual([404, 'WALLET_UNKNOWN']);
    t.clock.advance(-1);
    expect(refusal(await login(client, ahead))).toEqual([400, 'NONCE_NOT_YET_VALID']);
    t.clock.advance(CLOCK_SKEW_MS + 1);
  });

  it('keeps the name rules, and a taken name leaves the message to pick another', async () => {
    const client = browser();
    const wallet = new TestWallet();
    const signed = wallet.signIn(await challenge(client));
    const short = await register(client, signed, 'ab');
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('Username must be at least 3 characters');
    const taken = uniqueName('taken');
    await browser().register(taken);
    expect(refusal(await register(client, signed, taken.toUpperCase()))).toEqual([
      409,
      'USERNAME_TAKEN',
    ]);
    const free = uniqueName('free');
    const res = await register(client, signed, free);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().user.username).toBe(free);
  });

  it('limits sign-ins per wallet and messages per network', async () => {
    const wallet = new TestWallet();
    const first = browser();
    expect(
      (await register(first, wallet.signIn(await challenge(first)), uniqueName('busy'))).statusCode,
    ).toBe(201);
    // Each from a network of its own: the wallet's own count stops them.
    const statuses: number[] = [];
    for (let i = 1; i < SIGN_INS_PER_WALLET.limit + 1; i++) {
      const client = browser();
      statuses.push((await login(client, wallet.signIn(await challenge(client)))).statusCode);
    }
    expect(statuses).toEqual([...Array(SIGN_INS_PER_WALLET.limit - 1).fill(200), 429]);
    // Another wallet is not held back by that one.
    const other = browser();
    expect(
      (await register(other, new TestWallet().signIn(await challenge(other)), uniqueName('calm')))
        .statusCode,
    ).toBe(201);

    // One network asks for so many messages, then is told to wait.
    const client = browser();
    for (let i = 0; i < SIGN_IN_CHALLENGES_PER_NETWORK.limit; i++) await challenge(client);
    const over = await client.request('POST', walletSignInPaths.challenge);
    expect(refusal(over)).toEqual([429, 'RATE_LIMITED']);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });
});
