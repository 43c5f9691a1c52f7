import { describe, expect, it } from 'vitest';
import { chainPaths, type BurnsResponse } from '#shared/api/chain.ts';
import { gamePaths } from '#shared/api/paths.ts';
import { defaultSite } from '#shared/site.ts';
import type { SolanaCluster } from '#shared/solana-cluster.ts';
import { suiteApp } from '#test-support/test-app.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { buildApp } from '../app.ts';
import { appendPrizeEvent } from './repository.ts';

// A payment and a burn keep the cluster they were verified on (migration 025, decision 030): a
// site shows its own cluster's, so a rehearsal's on the local chain never reads as a winner of
// the mainnet site that later serves the same database.

describe.each(databaseKinds)('payments keep the cluster they were verified on (%s)', (kind) => {
  const t = suiteApp(kind);

  it("a mainnet site never shows a local chain's payment as a winner's or its burn in the panel; the local site does, linked to its chain", async () => {
    const paid = (week: string, cluster: SolanaCluster | null, signature: string) =>
      appendPrizeEvent(t.app.deps.db, {
        week_id: week,
        step: 'paid',
        user_id: null,
        player_name: `Winner of ${week}`,
        wallet_address: 'Wa11et1111111111111111111111111111111111111',
        prize: '1 SOL',
        tx_signature: signature,
        slot: 7,
        block_time: t.clock.now(),
        lamports: 1_000_000_000,
        cluster,
        created_at: t.clock.now(),
      });
    await paid('2026-W40', null, 'S1gOld');
    await paid('2026-W41', 'mainnet-beta', 'S1gMain');
    await paid('2026-W42', 'localnet', 'S1gLocal');
    for (const [signature, cluster] of [
      ['BurnMain', 'mainnet-beta'],
      ['BurnLocal', 'localnet'],
    ] as const) {
      await t.app.deps.db
        .insertInto('token_burns')
        .values({
          signature,
          slot: 9,
          block_time: t.clock.now(),
          mint: defaultSite.contractAddress,
          token_program: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
          amount: '5000000',
          decimals: 6,
          authority: 'Wa11et1111111111111111111111111111111111111',
          recorded_at: t.clock.now(),
          cluster,
        })
        .execute();
    }

    // The same database served by a site set to each cluster, as a rehearsal's would be.
    const winnersOn = async (cluster: SolanaCluster) => {
      const site = await buildApp(
        { ...t.config, solana: { ...t.config.solana, cluster, rpcUrl: 'http://127.0.0.1:8899' } },
        { clock: t.clock, logger: false },
      );
      try {
        const res = await site.inject({ method: 'GET', url: gamePaths.winners });
        const burns = await site.inject({ method: 'GET', url: chainPaths.burns });
        return {
          winners: res.json<{ week: string; txUrl: string }[]>().map((w) => [w.week, w.txUrl]),
          burns: burns.json<BurnsResponse>().burns.map((b) => b.explorerUrl),
        };
      } finally {
        await site.close();
      }
    };
    const custom = '?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899';
    expect(await winnersOn('mainnet-beta')).toEqual({
      winners: [
        ['2026-W41', 'https://solscan.io/tx/S1gMain'],
        ['2026-W40', 'https://solscan.io/tx/S1gOld'],
      ],
      burns: ['https://solscan.io/tx/BurnMain'],
    });
    expect(await winnersOn('localnet')).toEqual({
      winners: [['2026-W42', `https://explorer.solana.com/tx/S1gLocal${custom}`]],
      burns: [`https://explorer.solana.com/tx/BurnLocal${custom}`],
    });
    expect(await winnersOn('devnet')).toEqual({ winners: [], burns: [] });
  });
});
