import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getMintEncoder } from '@solana-program/token';
import { lamports, type Address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '#shared/api/members.ts';
import {
  accountPaths,
  gamePaths,
  memberPaths,
  pathTo,
  shopPaths,
  walletSignInPaths,
} from '#shared/api/paths.ts';
import type { WalletChallenge } from '#shared/api/wallet.ts';
import { weekStartUtc } from '#shared/time.ts';
import { freshAddress, TOKEN_2022_PROGRAM_ADDRESS } from '#test-support/chain-transactions.ts';
import { createTestApp, uniqueName, type TestApp } from '#test-support/test-app.ts';
import { TestChain } from '#test-support/test-chain.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { TestWallet } from '#test-support/test-wallet.ts';
import { loadConfig } from '../config.ts';
import { creditCoins } from '../shop/ledger.ts';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../chain/verify.ts';
import { CHECKS_PER_MEMBER, HOLDER_RECHECK_MS, RECHECK_SPREAD_MS } from './service.ts';

const UNIT = 1_000_000n; // the test mint's 6 decimals

/**
 * Holder perks read from the chain (issue 45, docs/decisions/029-holders-at-home.md): the site's
 * mint is a Token-2022 one, which a reader of the first token program alone would show as zero;
 * the balance crosses the tiers, and the member's check and the six-hourly one follow it.
 */
describe.each(databaseKinds)('holder perks on %s', (kind) => {
  const chain = new TestChain();
  let t: TestApp;
  let mint: Address;
  /** getTokenAccountsByOwner's parameters, as the site asked. */
  const asked: unknown[][] = [];

  beforeAll(async () => {
    await chain.start();
    mint = await freshAddress();
    const data = new Uint8Array(
      getMintEncoder().encode({
        mintAuthority: null,
        supply: 1_000_000_000n * UNIT,
        decimals: 6,
        isInitialized: true,
        freezeAuthority: null,
      }),
    );
    chain.svm.setAccount({
      address: mint,
      data,
      executable: false,
      lamports: lamports(chain.svm.minimumBalanceForRentExemption(BigInt(data.length))),
      programAddress: TOKEN_2022_PROGRAM_ADDRESS,
      space: BigInt(data.length),
    });
    chain.craft = (method, params) => {
      if (method === 'getTokenAccountsByOwner') asked.push(params);
      return undefined;
    };
    const siteFile = path.join(tmpdir(), `holders-site-${process.pid}-${kind}.json`);
    writeFileSync(siteFile, JSON.stringify({ contractAddress: mint }));
    const { solana } = loadConfig({ SOLANA_RPC_URL: chain.url, SOLANA_RPC_TIMEOUT_MS: '1000' });
    // The app reads it once, as it starts; removed then, so no run leaves it in the temp folder.
    t = await createTestApp(kind, { solana, siteConfigFile: siteFile }).finally(() =>
      rmSync(siteFile),
    );
  });
  afterAll(async () => {
    await t?.close();
    await chain.stop();
  });

  async function walletMember(coins = 0) {
    const client = TestClient.inject(t.app);
    const wallet = new TestWallet();
    const issued = await client.request('POST', walletSignInPaths.challenge);
    const name = uniqueName('holder');
    const res = await client.request('POST', walletSignInPaths.register, {
      body: { ...wallet.signIn(issued.json<WalletChallenge>()), username: name },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<{ user: { id: number } }>().user.id;
    if (coins > 0) {
      await creditCoins(t.app.deps.db, {
        userId: id,
        amount: coins,
        reason: 'grant',
        note: 'test',
        now: t.clock.now(),
      });
    }
    return { client, wallet, name, id, at: await freshAddress() };
  }
  const account = async (client: TestClient) =>
    (await client.request('GET', accountPaths.account)).json<Account>();
  const checkNow = (client: TestClient) => client.request('POST', accountPaths.holderCheck);
  const badgeOnPage = async (name: string) =>
    (
      await TestClient.inject(t.app).request('GET', pathTo(memberPaths.member, { username: name }))
    ).json().holder;
  const buy = (client: TestClient, key: string) =>
    client.request('POST', pathTo(shopPaths.purchase, { key }));
  /** The six-hourly read: run once the member's next read is due. */
  async function scheduledRead() {
    t.clock.advance(HOLDER_RECHECK_MS + RECHECK_SPREAD_MS);
    await t.app.maintenance.runAll();
  }

  it('reads the wallet at finalized under both programs; the badge and the holders row follow the balance across the tiers', async () => {
    const m = await walletMember(5_000);
    expect(await account(m.client)).toMatchObject({ wallet: m.wallet.address, holder: null });

    // Half a token: below the holder tier.
    chain.holdTokens(mint, m.wallet.address, UNIT / 2n, m.at, TOKEN_2022_PROGRAM_ADDRESS);
    asked.length = 0;
    const half = await checkNow(m.client);
    expect(half.statusCode, half.body).toBe(200);
    expect(half.json<Account>().holder).toMatchObject({
      address: m.wallet.address,
      badge: null,
      balance: '0.5',
    });
    expect(asked).toEqual(
      [TOKEN_PROGRAM, TOKEN_2022_PROGRAM].map((programId) => [
        m.wallet.address,
        { programId },
        { commitment: 'finalized', encoding: 'base64', dataSlice: { offset: 0, length: 72 } },
      ]),
    );
    expect(await badgeOnPage(m.name)).toBeNull();
    const refused = await buy(m.client, 'diamond-hands');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'HOLDERS_ONLY',
      message:
        'Diamond Hands is for Holders of $GRIND: at least 1 $GRIND in your proven wallet (your wallet held 0.5 at its last check)',
    });

    // Two tokens: the six-hourly read finds them, not an earlier run of the timer.
    chain.holdTokens(mint, m.wallet.address, 2n * UNIT, m.at, TOKEN_2022_PROGRAM_ADDRESS);
    await t.app.maintenance.runAll();
    expect((await account(m.client)).holder?.badge).toBeNull();
    await scheduledRead();
    expect((await account(m.client)).holder).toMatchObject({
      badge: { tier: 'holder', label: 'Holder' },
      balance: '2',
    });
    expect(await badgeOnPage(m.name)).toEqual({ tier: 'holder', label: 'Holder' });
    // Beside their name on the board too.
    await t.app.deps.db
      .insertInto('game_runs')
      .values({ id: `${m.name}-run`, seed: 1, user_id: m.id, issued_at: t.clock.now() })
      .execute();
    await t.app.deps.db
      .insertInto('game_scores')
      .values({
        run_id: `${m.name}-run`,
        user_id: m.id,
        player_key: `u:${m.id}`,
        player_name: m.name,
        score: 5,
        level: 1,
        tasks_completed: 5,
        power_ups_collected: 0,
        game_time: 9,
        week_start: weekStartUtc(t.clock.now()),
        created_at: t.clock.now(),
      })
      .execute();
    const board = (
      await TestClient.inject(t.app).request('GET', `${gamePaths.leaderboard}?limit=50`)
    ).json<Array<{ playerName: string }>>();
    expect(board.find((e) => e.playerName === m.name)).toMatchObject({
      member: true,
      holder: 'holder',
    });
    const bought = await buy(m.client, 'diamond-hands');
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json().profile.coins).toBe(4_500);

    // A million and one: a whale, at the member's own check.
    chain.holdTokens(
      mint,
      m.wallet.address,
      1_000_000n * UNIT + 1n,
      m.at,
      TOKEN_2022_PROGRAM_ADDRESS,
    );
    expect((await checkNow(m.client)).json<Account>().holder).toMatchObject({
      badge: { tier: 'whale', label: 'Whale' },
      balance: '1,000,000.000001',
    });

    // Sold it all: the badge goes at the next read; what was bought stays, nothing new is sold.
    chain.holdTokens(mint, m.wallet.address, 0n, m.at, TOKEN_2022_PROGRAM_ADDRESS);
    await scheduledRead();
    expect((await account(m.client)).holder).toMatchObject({ badge: null, balance: '0' });
    expect(await badgeOnPage(m.name)).toBeNull();
    const owned = (await m.client.request('GET', shopPaths.characters)).json();
    expect(owned).toContainEqual({ characterKey: 'diamond-hands' });
    const selected = await m.client.request(
      'POST',
      pathTo(shopPaths.select, { key: 'diamond-hands' }),
    );
    expect(selected.statusCode).toBe(200);
    expect((await buy(m.client, 'hodler')).json().code).toBe('HOLDERS_ONLY');
  });

  it('limits checks, says why without a wallet, and keeps the last read while the RPC is down', async () => {
    const noWallet = TestClient.inject(t.app);
    await noWallet.register(uniqueName('plain'));
    const none = await checkNow(noWallet);
    expect([none.statusCode, none.json().code]).toEqual([409, 'NO_WALLET']);

    const m = await walletMember();
    chain.holdTokens(mint, m.wallet.address, 3n * UNIT, m.at, TOKEN_2022_PROGRAM_ADDRESS);
    expect((await checkNow(m.client)).json<Account>().holder?.badge?.tier).toBe('holder');

    for (let i = 1; i < CHECKS_PER_MEMBER.limit; i++) {
      expect((await checkNow(m.client)).statusCode).toBe(200);
    }
    const over = await checkNow(m.client);
    expect([over.statusCode, over.json().code]).toEqual([429, 'RATE_LIMITED']);

    // An hour on, with the RPC down: the member is told, and the timer's read keeps the last one.
    t.clock.advance(CHECKS_PER_MEMBER.windowMs);
    chain.mode = 'down';
    try {
      const down = await checkNow(m.client);
      expect([down.statusCode, down.json().code]).toEqual([503, 'CHAIN_UNAVAILABLE']);
      await scheduledRead();
      expect((await account(m.client)).holder).toMatchObject({
        badge: { tier: 'holder' },
        balance: '3',
      });
    } finally {
      chain.mode = 'up';
    }
  });
});
