import { getTransactionDecoder, signTransaction, type KeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainPaths, type PaymentStatus, type PreparedPayment } from '#shared/api/chain.ts';
import { prizeTransferBytes } from '#shared/prize-transfer.ts';
import {
  fundedSigner,
  LAMPORTS_PER_SOL,
  sendThroughRpc,
} from '#test-support/chain-transactions.ts';
import { operator as asOperator } from '#test-support/operators.ts';
import { approveWeek } from '#test-support/prize-weeks.ts';
import { TestChain } from '#test-support/test-chain.ts';
import { createTestApp, type TestApp } from '#test-support/test-app.ts';
import type { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { weekEvents } from './repository.ts';

/**
 * The transfer the console builds (src/shared/prize-transfer.ts) on the blockhash the server
 * prepares, signed by a wallet's key and sent through the RPC as a wallet's
 * signAndSendTransaction sends it: the server finds it by its reference and records it paid.
 */
describe.each(databaseKinds)("the console's prize transfer, on %s", (kind) => {
  const chain = new TestChain(() => t.clock.now());
  let t: TestApp;
  let operator: TestClient;

  beforeAll(async () => {
    await chain.start();
    t = await createTestApp(kind, {
      solana: { cluster: 'mainnet-beta', rpcUrl: chain.url, timeoutMs: 1_000, treasury: [] },
    });
    operator = (await asOperator(t, 'admin', { passkey: true })).client;
  });
  afterAll(async () => {
    await t?.close();
    await chain.stop();
  });

  let weekNumber = 20;
  const approvedWeek = async () =>
    (await approveWeek(t.app.deps.db, `2026-W${weekNumber++}`, t.clock.now())).week;
  const steps = async (week: string) => (await weekEvents(t.app.deps.db, week)).map((e) => e.step);

  /** What a wallet does with the console's bytes: signs them and sends them to its RPC. */
  async function signAndSend(bytes: Uint8Array, payer: KeyPairSigner): Promise<string> {
    const tx = await signTransaction([payer.keyPair], getTransactionDecoder().decode(bytes));
    return sendThroughRpc(chain.url, tx);
  }

  it('is built on the prepared blockhash, lands, and is recorded paid', async () => {
    const week = await approvedWeek();
    const res = await operator.request('POST', chainPaths.payment.replace(':week', week));
    expect(res.statusCode, res.body).toBe(200);
    const prepared = res.json<PreparedPayment>();
    expect(prepared.lifetime.blockhash).toBe(chain.svm.latestBlockhash());

    const payer = await fundedSigner(chain);
    const balanceBefore = chain.balance(prepared.recipient);
    const signature = await signAndSend(prizeTransferBytes(prepared, payer.address), payer);
    expect(chain.balance(prepared.recipient) - balanceBefore).toBe(LAMPORTS_PER_SOL);

    const confirmed = await operator.request(
      'POST',
      chainPaths.confirmPayment.replace(':week', week),
      { body: { signature } },
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json<PaymentStatus>()).toMatchObject({ state: 'paid', signature });
    expect(await steps(week)).toEqual(['approved', 'pending', 'paid']);
  });

  it('prepares nothing when the RPC cannot give a blockhash', async () => {
    const week = await approvedWeek();
    chain.mode = 'down';
    const res = await operator.request('POST', chainPaths.payment.replace(':week', week));
    chain.mode = 'up';
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'CHAIN_UNAVAILABLE' });
    expect(await steps(week)).toEqual(['approved']);
  });

  it('refuses a week that is not approved as such, even with the RPC down', async () => {
    chain.mode = 'down';
    const res = await operator.request('POST', chainPaths.payment.replace(':week', '2026-W02'));
    chain.mode = 'up';
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PRIZE_NOT_APPROVED' });
    expect(await steps('2026-W02')).toEqual([]);
  });
});
