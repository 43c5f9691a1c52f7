import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supplyPaths } from '#shared/api/paths.ts';
import {
  createTestMint,
  freshAddress,
  fundedSigner,
  type TestMint,
} from '#test-support/chain-transactions.ts';
import { createTestApp, type TestApp } from '#test-support/test-app.ts';
import { TestChain } from '#test-support/test-chain.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { loadConfig } from '../config.ts';
import { createSupplyReader, SUPPLY_FRESH_MS, SUPPLY_STALE_LIMIT_MS } from './service.ts';
import { defaultSite } from '#shared/site.ts';

const UNIT = 1_000_000n; // 6 decimals

/**
 * The supply figures listing sites read (issue 45): plain text in whole tokens, against the
 * chain's state, kept a minute, never older than an hour.
 */
describe.each(databaseKinds)('supply for listing sites on %s', (kind) => {
  const chain = new TestChain();
  let t: TestApp;
  let token: TestMint;
  let treasury: Address;
  let treasuryAccount: Address;
  const visitor = () => TestClient.inject(t.app);

  beforeAll(async () => {
    await chain.start();
    // A billion and a half tokens minted; the site's "not circulating" wallets hold 250 million.
    token = await createTestMint(chain, await fundedSigner(chain), {
      supply: 1_000_000_000n * UNIT + UNIT / 2n,
      balance: 700_000_000n * UNIT,
    });
    treasury = await freshAddress();
    const team = await freshAddress();
    treasuryAccount = await freshAddress();
    chain.holdTokens(token.mint, treasury, 150_000_000n * UNIT, treasuryAccount);
    chain.holdTokens(token.mint, treasury, 50_000_000n * UNIT, await freshAddress());
    chain.holdTokens(token.mint, team, 50_000_000n * UNIT, await freshAddress());
    // Another mint in the treasury counts for nothing.
    chain.holdTokens(await freshAddress(), treasury, 999n * UNIT, await freshAddress());
    const siteFile = path.join(tmpdir(), `supply-site-${process.pid}-${kind}.json`);
    writeFileSync(
      siteFile,
      JSON.stringify({
        contractAddress: token.mint,
        holders: { notCirculating: [treasury, team] },
      }),
    );
    const { solana } = loadConfig({ SOLANA_RPC_URL: chain.url, SOLANA_RPC_TIMEOUT_MS: '1000' });
    t = await createTestApp(kind, { solana, siteConfigFile: siteFile });
  });
  afterAll(async () => {
    await t?.close();
    await chain.stop();
  });

  it('answers the total and circulating supply as plain numbers matching the chain, kept a minute', async () => {
    const total = await visitor().request('GET', supplyPaths.total);
    expect(total.statusCode).toBe(200);
    expect(total.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(total.headers['cache-control']).toBe('public, max-age=60');
    expect(total.body).toBe('1000000000');
    const circulating = await visitor().request('GET', supplyPaths.circulating);
    expect(circulating.body).toBe('750000000');

    // The treasury moves 100 million out: the figure kept for its minute, then the chain's.
    chain.holdTokens(token.mint, treasury, 50_000_000n * UNIT, treasuryAccount);
    t.clock.advance(SUPPLY_FRESH_MS / 2);
    const kept = await visitor().request('GET', supplyPaths.circulating);
    expect(kept.body).toBe('750000000');
    expect(kept.headers['cache-control']).toBe('public, max-age=30');
    t.clock.advance(SUPPLY_FRESH_MS / 2);
    expect((await visitor().request('GET', supplyPaths.circulating)).body).toBe('850000000');
  });

  it('gives a figure younger than an hour while the RPC is down, then 503 with a code, never an older one', async () => {
    t.clock.advance(SUPPLY_FRESH_MS);
    const before = (await visitor().request('GET', supplyPaths.total)).body;
    chain.mode = 'down';
    try {
      t.clock.advance(SUPPLY_FRESH_MS);
      const stale = await visitor().request('GET', supplyPaths.total);
      expect(stale.statusCode).toBe(200);
      expect(stale.body).toBe(before);
      expect(stale.headers['cache-control']).toBe('public, max-age=0');
      t.clock.advance(SUPPLY_STALE_LIMIT_MS - SUPPLY_FRESH_MS);
      const down = await visitor().request('GET', supplyPaths.total);
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ code: 'CHAIN_UNAVAILABLE' });
    } finally {
      chain.mode = 'up';
    }
    expect((await visitor().request('GET', supplyPaths.total)).body).toBe(before);
  });

  it('is in the OpenAPI document as text, and says why when there is no chain or no token', async () => {
    const doc = (await visitor().request('GET', '/api/openapi.json')).json();
    for (const route of [supplyPaths.total, supplyPaths.circulating]) {
      const get = doc.paths[route].get;
      expect(Object.keys(get.responses['200'].content)).toEqual(['text/plain']);
      expect(get.responses['503'].description).toMatch(/CHAIN_UNAVAILABLE/);
    }
    // A site that reads no chain, or whose token has not launched, says which.
    const clock = { now: () => 0 };
    await expect(
      createSupplyReader({ rpc: undefined, site: defaultSite, clock }).read('total'),
    ).rejects.toMatchObject({ statusCode: 404, code: 'CHAIN_NOT_CONFIGURED' });
    await expect(
      createSupplyReader({
        rpc: undefined,
        site: { ...defaultSite, contractAddress: '' },
        clock,
      }).read('circulating'),
    ).rejects.toMatchObject({ statusCode: 404, code: 'NO_CONTRACT_ADDRESS' });
  });
});
