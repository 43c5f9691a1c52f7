import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { signInMessageText } from '#shared/siws.ts';
import type { WalletChallenge, WalletResponse } from '#shared/api/wallet.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { TestWallet } from '#test-support/test-wallet.ts';
import {
  CHALLENGE_TTL_MS,
  CHALLENGES_PER_MEMBER,
  CHALLENGES_PER_NETWORK,
  LINKS_PER_MEMBER,
} from './service.ts';
import { walletPaths } from '#shared/api/paths.ts';

const PASSWORD = 'password123';

describe.each(databaseKinds)('linking a Solana wallet on %s', (kind) => {
  const t = suiteApp(kind);

  async function member() {
    const client = TestClient.inject(t.app);
    const user = await client.register(uniqueName('wallet'));
    return { client, user };
  }

  async function challenge(client: TestClient, headers: Record<string, string> = {}) {
    const res = await client.request('POST', walletPaths.challenge, { headers });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<WalletChallenge>();
  }

  /** A link request with the member's password (TestClient.register's default) unless `body` names one. */
  const link = (client: TestClient, body: object, headers: Record<string, string> = {}) =>
    client.request('POST', walletPaths.link, {
      body: { password: PASSWORD, ...body },
      headers,
    });

  async function walletOf(client: TestClient) {
    const res = await client.request('GET', walletPaths.wallet);
    expect(res.statusCode).toBe(200);
    return res.json<WalletResponse>().wallet?.address ?? null;
  }

  /** The refusal's status and message, and proof that nothing was linked by it. */
  async function expectRefused(
    client: TestClient,
    body: object,
    status: number,
    message: RegExp,
    walletBefore: string | null,
    headers: Record<string, string> = {},
  ) {
    const res = await link(client, body, headers);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<{ message: string }>().message).toMatch(message);
    expect(await walletOf(client)).toBe(walletBefore);
  }

  it('links a wallet by a signed Sign In With Solana message, once per message', async () => {
    const { client } = await member();
    expect(await walletOf(client)).toBeNull();
    const issued = await challenge(client);
    expect(issued).toMatchObject({
      domain: 'localhost:80',
      uri: 'http://localhost:80',
      version: '1',
      issuedAt: new Date(t.clock.now()).toISOString(),
      expirationTime: new Date(t.clock.now() + CHALLENGE_TTL_MS).toISOString(),
    });
    expect(issued.nonce).toMatch(/^[1-9A-HJ-NP-Za-km-z]{16,}$/);

    const wallet = new TestWallet();
    const body = wallet.signIn(issued);
    const res = await link(client, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<WalletResponse>().wallet).toEqual({
      address: wallet.address,
      linkedAt: new Date(t.clock.now()).toISOString(),
    });
    expect(await walletOf(client)).toBe(wallet.address);

    // The proof is kept for anyone auditing a payout, and it checks out.
    const stored = await t.app.deps.db
      .selectFrom('user_wallets')
      .selectAll()
      .where('address', '=', wallet.address)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(stored.message).toString('base64')).toBe(body.signedMessage);

    await expectRefused(client, body, 409, /already used/, wallet.address);
  });

  it('lets one of two identical links through at once', async () => {
    const { client } = await member();
    const wallet = new TestWallet();
    const body = wallet.signIn(await challenge(client));
    const results = await Promise.all([link(client, body), link(client, body), link(client, body)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await walletOf(client)).toBe(wallet.address);
  });

  it('refuses a message for another site, expired, altered, or not issued to this member', async () => {
    const { client } = await member();
    const wallet = new TestWallet();

    // Another domain (signed correctly, by the right key).
    let issued = await challenge(client);
    await expectRefused(
      client,
      wallet.signIn({ ...issued, domain: 'grind-airdrop.example' }),
      400,
      /for another site \(grind-airdrop\.example\)/,
      null,
    );
    // The request came to another host than the message names.
    issued = await challenge(client, { host: 'dailygrind.example' });
    expect(issued.domain).toBe('dailygrind.example');
    await expectRefused(client, wallet.signIn(issued), 400, /another site/, null, {
      host: 'copy-of-dailygrind.example',
    });

    // Altered after signing: the signature no longer matches.
    issued = await challenge(client);
    const signed = wallet.signIn(issued);
    const tampered = Buffer.from(signed.signedMessage, 'base64')
      .toString()
      .replace('Version: 1', 'Version: 2');
    await expectRefused(
      client,
      { ...signed, signedMessage: Buffer.from(tampered).toString('base64') },
      400,
      /does not match this message/,
      null,
    );
    // Altered and signed again: a statement or expiry the server did not issue.
    await expectRefused(
      client,
      wallet.signIn(issued, (text) =>
        text.replace(/Expiration Time: .*/, 'Expiration Time: 2030-01-01T00:00:00.000Z'),
      ),
      400,
      /differs from the one this site issued/,
      null,
    );
    await expectRefused(
      client,
      wallet.signIn({ ...issued, statement: 'Send me everything.' }),
      400,
      /differs from the one this site issued/,
      null,
    );
    // Another key signed it, claiming this wallet's address.
    const intruder = new TestWallet();
    const forged = intruder.signIn(issued);
    await expectRefused(
      client,
      { ...forged, address: wallet.address, signedMessage: wallet.signIn(issued).signedMessage },
      400,
      /does not match/,
      null,
    );

    // Expired: ten minutes later the same message is refused.
    const late = wallet.signIn(issued);
    t.clock.advance(CHALLENGE_TTL_MS);
    await expectRefused(client, late, 400, /expired/, null);

    // A nonce issued to another member.
    const other = await member();
    const theirs = wallet.signIn(await challenge(other.client));
    await expectRefused(client, theirs, 400, /not issued to you/, null);

    // A newer challenge replaces the older one.
    const older = wallet.signIn(await challenge(client));
    const newer = wallet.signIn(await challenge(client));
    await expectRefused(client, older, 400, /replaced by a newer one/, null);
    expect((await link(client, newer)).statusCode).toBe(200);
  });

  it('refuses an address linked to another account, and lets a member change wallets', async () => {
    const alice = await member();
    const bob = await member();
    const first = new TestWallet();
    expect((await link(alice.client, first.signIn(await challenge(alice.client)))).statusCode).toBe(
      200,
    );
    await expectRefused(
      bob.client,
      first.signIn(await challenge(bob.client)),
      409,
      /already linked to another account/,
      null,
    );

    // Alice moves to a new wallet; the old one is free for Bob to prove.
    const second = new TestWallet();
    const moved = await link(alice.client, second.signIn(await challenge(alice.client)));
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await walletOf(alice.client)).toBe(second.address);
    expect((await link(bob.client, first.signIn(await challenge(bob.client)))).statusCode).toBe(
      200,
    );
    expect(await walletOf(bob.client)).toBe(first.address);
  });

  it('answers bad input and visitors with a clear 4xx', async () => {
    const visitor = TestClient.inject(t.app);
    for (const [method, url] of [
      ['GET', walletPaths.wallet],
      ['POST', walletPaths.challenge],
    ] as const) {
      const res = await visitor.request(method, url);
      expect(res.statusCode).toBe(401);
      expect(res.json<{ message: string }>().message).toBe('Please log in to link a wallet');
    }

    const { client } = await member();
    const wallet = new TestWallet();
    const good = wallet.signIn(await challenge(client));
    const cases: Array<[object, RegExp]> = [
      [{ ...good, address: '0OIl' }, /address must be a Solana address/],
      [{ ...good, signature: Buffer.alloc(63).toString('base64') }, /64 bytes/],
      [{ ...good, signature: 'not base64!' }, /signature must be base64/],
      [
        { ...good, signedMessage: Buffer.from('hello').toString('base64') },
        /not a Sign In With Solana message/,
      ],
      [
        { ...good, signedMessage: Buffer.from([0xff, 0xfe]).toString('base64') },
        /not a Sign In With Solana message/,
      ],
      [{ ...good, address: new TestWallet().address }, /names another address/],
      [{ address: good.address }, /signedMessage is required/],
      [{ ...good, password: '' }, /Password is required/],
      [{ ...good, password: 'x'.repeat(129) }, /Password must be at most 128/],
    ];
    for (const [body, message] of cases) {
      await expectRefused(client, body, 400, message, null);
    }
    expect((await link(client, good)).statusCode).toBe(200);
  });
});

describe.each(databaseKinds)(
  'a wallet message names PUBLIC_ORIGIN, never a forwarded host, on %s',
  (kind) => {
    const t = suiteApp(kind, { publicOrigin: 'https://dailygrind.example', trustProxy: 1 });

    it('issues and accepts messages for the public origin only', async () => {
      const client = TestClient.inject(t.app);
      await client.register(uniqueName('origin'));
      // What the audit sent: a challenge asked for by way of another host.
      const asked = await client.request('POST', walletPaths.challenge, {
        headers: { host: 'phish.example', 'x-forwarded-host': 'phish.example' },
      });
      const issued = asked.json<WalletChallenge>();
      expect(issued).toMatchObject({
        domain: 'dailygrind.example',
        uri: 'https://dailygrind.example',
      });
      const wallet = new TestWallet();
      const refused = await client.request('POST', walletPaths.link, {
        body: { ...wallet.signIn({ ...issued, domain: 'phish.example' }), password: PASSWORD },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ message: string }>().message).toMatch(
        /another site \(phish\.example\)/,
      );
      const linked = await client.request('POST', walletPaths.link, {
        body: { ...wallet.signIn(issued), password: PASSWORD },
        headers: { host: 'phish.example', 'x-forwarded-host': 'phish.example' },
      });
      expect(linked.statusCode, linked.body).toBe(200);
    });
  },
);

describe.each(databaseKinds)('proving and changing a prize wallet on %s', (kind) => {
  const t = suiteApp(kind);
  let address = 0;
  /** A member on an IPv6 /64 of their own, unless `network` (a /64 prefix) is given. */
  async function member(network = `2001:db8:${(address += 1).toString(16)}:1`) {
    const client = TestClient.inject(t.app, `${network}::${(address += 1).toString(16)}`);
    const user = await client.register(uniqueName('prover'));
    return { client, user };
  }
  const challenge = async (client: TestClient) => {
    const res = await client.request('POST', walletPaths.challenge);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<WalletChallenge>();
  };
  const link = (client: TestClient, body: object) =>
    client.request('POST', walletPaths.link, { body: { password: PASSWORD, ...body } });
  const walletOf = async (client: TestClient) =>
    (await client.request('GET', walletPaths.wallet)).json<WalletResponse>().wallet?.address ??
    null;

  it('asks for the password again, and records each wallet with a proof that verifies', async () => {
    const { client, user } = await member();
    const first = new TestWallet();
    const wrong = await link(client, {
      ...first.signIn(await challenge(client)),
      password: 'nope',
    });
    expect(wrong.statusCode, wrong.body).toBe(403);
    expect(wrong.json()).toEqual({ message: 'Wrong password', code: 'WRONG_PASSWORD' });
    expect(await walletOf(client)).toBeNull();

    expect((await link(client, first.signIn(await challenge(client)))).statusCode).toBe(200);
    t.clock.advance(1000);
    const second = new TestWallet();
    expect((await link(client, second.signIn(await challenge(client)))).statusCode).toBe(200);

    const changes = await t.app.deps.db
      .selectFrom('wallet_changes')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(changes).toMatchObject([
      { old_address: null, new_address: first.address, changed_at: t.clock.now() - 1000 },
      { old_address: first.address, new_address: second.address, changed_at: t.clock.now() },
    ]);
    // Anyone auditing a payout can check each proof again from what was kept.
    for (const change of changes) {
      expect(
        ed25519.verify(
          base58.decode(change.signature),
          Buffer.from(change.message),
          base58.decode(change.new_address),
          { zip215: false },
        ),
      ).toBe(true);
    }
  });

  it('refuses small-order keys, such as the System Program, "proven" by the universal signature', async () => {
    const { client } = await member();
    // R = the identity point (y = 1), S = 0: [S]B = R + [k]A holds under ZIP-215's cofactored
    // check for any message when A has small order.
    const universal = new Uint8Array(64);
    universal[0] = 1;
    const identity = new Uint8Array(32);
    identity[0] = 1;
    for (const address of ['11111111111111111111111111111111', base58.encode(identity)]) {
      const text = signInMessageText({ ...(await challenge(client)), address });
      const res = await link(client, {
        address,
        signedMessage: Buffer.from(text).toString('base64'),
        signature: Buffer.from(universal).toString('base64'),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ code: string }>().code).toBe('BAD_SIGNATURE');
    }
    expect(await walletOf(client)).toBeNull();
  });

  it('refuses a message whose signed bytes are not the issued text (a byte-order mark first)', async () => {
    const { client } = await member();
    const wallet = new TestWallet();
    const text = signInMessageText({ ...(await challenge(client)), address: wallet.address });
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const res = await link(client, {
      address: wallet.address,
      signedMessage: bytes.toString('base64'),
      signature: Buffer.from(wallet.sign(bytes)).toString('base64'),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(await walletOf(client)).toBeNull();
  });

  it('limits challenges and link attempts per member and per network', async () => {
    // One member: their own limit comes first.
    const { client } = await member();
    for (let i = 0; i < CHALLENGES_PER_MEMBER.limit; i++) await challenge(client);
    const over = await client.request('POST', walletPaths.challenge);
    expect(over.statusCode).toBe(429);
    expect(over.json<{ code: string }>().code).toBe('RATE_LIMITED');

    // Members on one /64, each under their own limit: the network's.
    const network = '2001:db8:ffff:7';
    let answered = 0;
    let status = 201;
    while (status === 201) {
      const { client: next } = await member(network);
      for (let i = 0; i < CHALLENGES_PER_MEMBER.limit && status === 201; i++) {
        status = (await next.request('POST', walletPaths.challenge)).statusCode;
        if (status === 201) answered += 1;
      }
    }
    expect(status).toBe(429);
    expect(answered).toBe(CHALLENGES_PER_NETWORK.limit);

    // Password guesses through the link: counted before the hash.
    const guesser = await member();
    const wallet = new TestWallet();
    const body = wallet.signIn(await challenge(guesser.client));
    const statuses: number[] = [];
    for (let i = 0; i <= LINKS_PER_MEMBER.limit; i++) {
      statuses.push((await link(guesser.client, { ...body, password: `guess${i}` })).statusCode);
    }
    expect(statuses).toEqual([...Array(LINKS_PER_MEMBER.limit).fill(403), 429]);
  });
});
