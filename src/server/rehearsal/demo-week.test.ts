import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import type { SolanaCluster } from '#shared/solana-cluster.ts';
import { runAdminIn } from '#test-support/admin-cli.ts';
import { storeHonestEntry } from '#test-support/honest-run.ts';
import { suiteApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { closedWeek, reviewWeek } from '../prize/review.ts';
import { verifyStanding } from '../game/cli-commands.ts';
import { findRuns } from '../game/repository.ts';
import { DEMO_PLAYERS } from './demo-week.ts';

describe.each(databaseKinds)('a rehearsal week on %s', (kind) => {
  const t = suiteApp(kind);
  const db = () => t.app.deps.db;
  const on = (cluster: SolanaCluster) => ({
    config: { solana: { ...t.config.solana, cluster } },
  });
  const count = async (table: 'users' | 'game_runs' | 'game_scores') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('is refused on mainnet-beta with one line saying why, and writes nothing', async () => {
    const res = await runAdminIn(t, ['rehearsal:week']);
    expect(res.code).toBe(1);
    expect(res.err).toEqual([
      'Error: rehearsal:week is refused on mainnet-beta (SOLANA_CLUSTER): a demo member could be paid real SOL; set SOLANA_CLUSTER=localnet (or devnet, testnet) to rehearse.',
    ]);
    expect(await count('users')).toBe(0);
  });

  it("makes last week's board of replayable runs by demo members whose wallets are proven, then clears only them", async () => {
    const week = closedWeek(t.clock.now());
    // A real member's run of the same week, which the rehearsal leaves alone.
    const real = await TestClient.inject(t.app).register('RealPlayer', 'password123');
    await storeHonestEntry(db(), {
      userId: real.id,
      playerName: real.username,
      targetSteps: 300,
      at: week.start + 3_600_000,
    });

    const made = await runAdminIn(t, ['rehearsal:week'], on('localnet'));
    expect(made.err).toEqual([]);
    expect(made.code).toBe(0);
    expect(made.out[0]).toBe(
      `Rehearsal of ${week.id} on the local chain: 3 demo members, each with a wallet proven by signature and a replayed run on the week's board.`,
    );

    // The prize review finds them payable: a member with a wallet, replaying to its figures.
    const review = await reviewWeek(db(), week, 10, t.clock.now());
    const demo = review.entries.filter((e) => e.row.player_name.startsWith('Demo_'));
    expect(demo.map((e) => e.row.player_name)).toEqual(DEMO_PLAYERS.map((p) => p.username));
    expect(demo.map((e) => e.why)).toEqual([null, null, null]);
    const runs = await findRuns(
      db(),
      demo.map((e) => e.row.run_id),
    );
    for (const entry of demo) {
      const run = runs.find((r) => r.id === entry.row.run_id);
      expect(verifyStanding(entry.row, run)).toMatchObject({ ok: true });
    }
    // Each wallet was linked with a signed message, kept as its proof, that verifies.
    const proofs = await db()
      .selectFrom('wallet_changes')
      .selectAll()
      .where(
        'new_address',
        'in',
        demo.map((e) => e.wallet!),
      )
      .execute();
    expect(proofs).toHaveLength(3);
    for (const proof of proofs) {
      expect(
        ed25519.verify(
          base58.decode(proof.signature),
          new TextEncoder().encode(proof.message),
          base58.decode(proof.new_address),
        ),
      ).toBe(true);
    }
    // The top run is short enough to watch in a rehearsal: about 20 s, 5 s at the top speed.
    expect(demo[0]!.row.game_time).toBeGreaterThan(10);
    expect(demo[0]!.row.game_time).toBeLessThan(30);

    const again = await runAdminIn(t, ['rehearsal:week'], on('devnet'));
    expect(again.code).toBe(1);
    expect(again.err[0]).toMatch(/^Error: A rehearsal is already here \(3 demo members\)/);

    // Approved (reviewed first, as the CLI does), then cleared: the approval goes with them.
    expect((await runAdminIn(t, ['prize:review'])).code).toBe(0);
    const approve = await runAdminIn(t, [
      'prize:approve',
      '--week',
      week.id,
      `--run=${demo[0]!.row.run_id}`,
    ]);
    expect(approve.code, approve.text).toBe(0);
    const cleared = await runAdminIn(t, ['rehearsal:clear']);
    expect(cleared.code, cleared.text).toBe(0);
    expect(cleared.out.slice(0, 2)).toEqual([
      'Removed 3 demo members, 3 runs and 3 board entries.',
      `Withdrew the unpaid approval of ${week.id}.`,
    ]);
    expect(await count('users')).toBe(1);
    expect(await count('game_runs')).toBe(1);
    const after = await reviewWeek(db(), week, 10, t.clock.now());
    expect(after.entries.map((e) => e.row.player_name)).toEqual(['RealPlayer']);
    expect(after.approval).toBeUndefined();
    expect((await runAdminIn(t, ['rehearsal:clear'])).out).toEqual([
      'No rehearsal here: no demo members.',
    ]);
  });
});
