import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { address } from '@solana/kit';
import {
  burnTokens,
  createTestMint,
  freshAddress,
  fundedSigner,
  LAMPORTS_PER_SOL,
  prizeTransfer,
  TOKEN_2022_PROGRAM_ADDRESS,
  tokenAccount,
  tokenTransfer,
} from '#test-support/chain-transactions.ts';
import { TestChain } from '#test-support/test-chain.ts';
import { ChainUnavailable, createChainRpc } from './rpc.ts';
import { prizeLamports, verifyBurn, verifyPayment, type ExpectedPayment } from './verify.ts';

// Real transactions executed by LiteSVM, read back through the site's RPC client from the
// test JSON-RPC server, then judged by the rules.
describe('payments and burns read from the chain', () => {
  const chain = new TestChain(() => Date.UTC(2026, 10, 23, 20, 0, 0));
  let rpc: ReturnType<typeof createChainRpc>;
  beforeAll(async () => {
    rpc = createChainRpc(await chain.start(), 1_500);
  });
  afterAll(() => chain.stop());
  const signatures = async (account: string) =>
    (await rpc.signaturesFor(account)).map((s) => s.signature);

  type Expected = ExpectedPayment & { reference: string };
  async function expected(overrides: Partial<Expected> = {}): Promise<Expected> {
    return {
      recipient: await freshAddress(),
      lamports: LAMPORTS_PER_SOL,
      reference: await freshAddress(),
      memo: 'Daily Grind prize 2026-W47',
      treasury: [],
      ...overrides,
    };
  }

  async function pay(
    e: Expected,
    parts: Partial<{ to: string; lamports: bigint; reference: string; memo: string }> = {},
  ) {
    const payer = await fundedSigner(chain);
    const tx = await prizeTransfer(chain, payer, {
      to: e.recipient,
      lamports: e.lamports,
      reference: e.reference,
      memo: e.memo,
      ...parts,
    });
    return { payer, signature: chain.send(tx) };
  }

  it('reads the amount of SOL a prize names', () => {
    expect(prizeLamports('1 SOL')).toBe(LAMPORTS_PER_SOL);
    expect(prizeLamports('0.25 SOL')).toBe(250_000_000n);
    expect(prizeLamports('1 GRIND')).toBeUndefined();
  });

  it('verifies a payment found by its reference at finalized', async () => {
    const e = await expected();
    const { payer, signature } = await pay(e);
    expect(await signatures(e.reference)).toEqual([signature]);
    const tx = await rpc.finalizedTransaction(signature);
    const verdict = verifyPayment(tx!, { ...e, treasury: [payer.address] });
    expect(verdict).toEqual({
      ok: true,
      value: expect.objectContaining({
        signature,
        payer: payer.address,
        received: LAMPORTS_PER_SOL,
      }),
    });
    expect(chain.balance(e.recipient)).toBe(LAMPORTS_PER_SOL);
  });

  it('refuses each way a transaction can differ from the payment', async () => {
    const judge = async (e: Expected, signature: string) =>
      verifyPayment((await rpc.finalizedTransaction(signature))!, e);
    let e = await expected();
    expect(await judge(e, (await pay(e, { to: await freshAddress() })).signature)).toMatchObject({
      ok: false,
      code: 'TX_WRONG_RECIPIENT',
    });
    e = await expected();
    expect(
      await judge(e, (await pay(e, { lamports: LAMPORTS_PER_SOL - 1n })).signature),
    ).toMatchObject({ ok: false, code: 'TX_SHORT_AMOUNT' });
    e = await expected();
    expect(
      await judge(e, (await pay(e, { reference: await freshAddress() })).signature),
    ).toMatchObject({ ok: false, code: 'TX_NO_REFERENCE' });
    e = await expected();
    expect(
      await judge(e, (await pay(e, { memo: 'Daily Grind prize 2026-W46' })).signature),
    ).toMatchObject({ ok: false, code: 'TX_NO_MEMO' });
    e = await expected();
    expect(
      await judge({ ...e, treasury: [await freshAddress()] }, (await pay(e)).signature),
    ).toMatchObject({ ok: false, code: 'TX_WRONG_PAYER' });
    // A transfer larger than the payer holds fails on chain.
    e = await expected({ lamports: 100n * LAMPORTS_PER_SOL });
    expect(await judge(e, (await pay(e)).signature)).toMatchObject({
      ok: false,
      code: 'TX_FAILED',
    });
    // Another token to the winner, with the reference and memo: no SOL arrived.
    e = await expected();
    const owner = await fundedSigner(chain);
    const other = await createTestMint(chain, owner);
    const winnersAccount = await tokenAccount(chain, other, address(e.recipient));
    const sig = chain.send(
      await tokenTransfer(chain, other, winnersAccount, 5_000_000n, {
        reference: e.reference,
        memo: e.memo,
        alsoNaming: e.recipient,
      }),
    );
    expect(await judge(e, sig)).toMatchObject({ ok: false, code: 'TX_WRONG_RECIPIENT' });
  });

  it('sees nothing below finalized, and tells confirmed from unknown', async () => {
    const e = await expected();
    chain.finalizeNew = false;
    const { signature } = await pay(e);
    chain.finalizeNew = true;
    expect(await signatures(e.reference)).toEqual([]);
    expect(await rpc.finalizedTransaction(signature)).toBeNull();
    expect(await rpc.status(signature)).toBe('confirmed');
    chain.finalize(signature);
    expect(await signatures(e.reference)).toEqual([signature]);
    expect(await rpc.status(signature)).toBe('finalized');
  });

  it('verifies burns and burnChecked of the mint, on SPL Token and Token-2022', async () => {
    for (const program of [undefined, TOKEN_2022_PROGRAM_ADDRESS]) {
      for (const checked of [false, true]) {
        const owner = await fundedSigner(chain);
        const grind = await createTestMint(chain, owner, { program, decimals: 6 });
        const signature = chain.send(await burnTokens(chain, grind, 1_500_000_000n, checked));
        const tx = await rpc.finalizedTransaction(signature);
        expect(verifyBurn(tx!, grind.mint)).toEqual({
          ok: true,
          value: expect.objectContaining({ amount: 1_500_000_000n, decimals: 6, mint: grind.mint }),
        });
        const otherMint = await freshAddress();
        expect(verifyBurn(tx!, otherMint)).toMatchObject({ ok: false, code: 'TX_WRONG_MINT' });
      }
    }
    const e = await expected();
    const { signature } = await pay(e);
    expect(verifyBurn((await rpc.finalizedTransaction(signature))!, e.recipient)).toMatchObject({
      ok: false,
      code: 'TX_NOT_A_BURN',
    });
  });

  it('pages through every transaction naming an account, not the first page alone', async () => {
    const e = await expected();
    const first = (await pay(e)).signature;
    const payer = await fundedSigner(chain);
    const others: string[] = [];
    for (let i = 0; i < 7; i++) {
      others.push(
        chain.send(
          await prizeTransfer(chain, payer, {
            to: await freshAddress(),
            lamports: 1n,
            reference: e.reference,
          }),
        ),
      );
    }
    // An RPC that answers at most three a page, whatever the limit asked.
    chain.signaturesPerPage = 3;
    try {
      expect(await signatures(e.reference)).toEqual([...others].reverse().concat(first));
    } finally {
      chain.signaturesPerPage = 1_000;
    }
  });

  it("accepts a treasury transfer with the memo but no reference, and nobody else's", async () => {
    const e = await expected();
    const { payer, signature } = await pay(e, { reference: await freshAddress() });
    const tx = (await rpc.finalizedTransaction(signature))!;
    expect(verifyPayment(tx, { ...e, reference: null, treasury: [payer.address] })).toMatchObject({
      ok: true,
      value: { reference: null, payer: payer.address },
    });
    expect(verifyPayment(tx, { ...e, reference: null })).toMatchObject({
      ok: false,
      code: 'TX_NO_REFERENCE',
    });
  });

  it('refuses a burn of 0, and one that says it burns more than its accounts held', async () => {
    const owner = await fundedSigner(chain);
    const grind = await createTestMint(chain, owner, { decimals: 6 });
    const zero = chain.send(await burnTokens(chain, grind, 0n));
    expect(verifyBurn((await rpc.finalizedTransaction(zero))!, grind.mint)).toMatchObject({
      ok: false,
      code: 'TX_BURN_ZERO',
    });
    const burned = chain.send(await burnTokens(chain, grind, 1_500_000n));
    const tx = (await rpc.finalizedTransaction(burned))!;
    const u64Max = new Uint8Array(9).fill(0xff);
    u64Max[0] = 8; // burn
    const crafted = {
      ...tx,
      instructions: tx.instructions.map((i) =>
        i.programId === grind.program ? { ...i, data: u64Max } : i,
      ),
    };
    expect(verifyBurn(crafted, grind.mint)).toMatchObject({
      ok: false,
      code: 'TX_BURN_TOO_LARGE',
    });
  });

  it('cuts off an answer past 2 MB at once, and refuses a malformed one, as ChainUnavailable', async () => {
    const e = await expected();
    const { signature } = await pay(e);
    chain.craft = (method) => (method === 'getTransaction' ? { bytes: 50_000_000 } : undefined);
    const started = performance.now();
    const huge = await rpc.finalizedTransaction(signature).catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(huge).toBeInstanceOf(ChainUnavailable);
    expect(huge).toMatchObject({ code: 'CHAIN_BAD_ANSWER', message: /more than 2097152 bytes/ });
    for (const answer of [
      'not json',
      '{"jsonrpc":"2.0","id":1,"result":{"slot":1}}',
      '{"jsonrpc":"2.0","id":1,"result":"aaaa"}',
      '[]',
    ]) {
      chain.craft = (method) => (method === 'getTransaction' ? answer : undefined);
      const error = await rpc.finalizedTransaction(signature).catch((thrown: unknown) => thrown);
      expect(error, answer).toBeInstanceOf(ChainUnavailable);
      expect(error).toMatchObject({ code: 'CHAIN_BAD_ANSWER' });
    }
    chain.craft = undefined;
    expect(await rpc.finalizedTransaction(signature)).toMatchObject({ signature });
  });

  it('reads u64 balances exactly, past what a double holds', async () => {
    const e = await expected();
    const { signature } = await pay(e);
    chain.craft = (method, params) => {
      if (method !== 'getTransaction') return undefined;
      const real = chain.rpcAnswer(method, params) as {
        meta: { preBalances: unknown[]; postBalances: unknown[] };
        transaction: { message: { accountKeys: string[] } };
      };
      const at = real.transaction.message.accountKeys.indexOf(e.recipient);
      real.meta.preBalances[at] = 'PRE';
      real.meta.postBalances[at] = 'POST';
      return JSON.stringify({ jsonrpc: '2.0', id: 1, result: real })
        .replace('"PRE"', '18000000000000000001')
        .replace('"POST"', '18000000001000000001');
    };
    try {
      const tx = (await rpc.finalizedTransaction(signature))!;
      expect(verifyPayment(tx, e)).toMatchObject({
        ok: true,
        value: { received: LAMPORTS_PER_SOL },
      });
    } finally {
      chain.craft = undefined;
    }
  });

  it('gives up on an RPC that is down or slow', async () => {
    chain.mode = 'down';
    await expect(rpc.signaturesFor(await freshAddress())).rejects.toThrow(ChainUnavailable);
    chain.mode = 'slow';
    chain.slowMs = 4_000;
    await expect(rpc.signaturesFor(await freshAddress())).rejects.toThrow(/within 1500 ms/);
    chain.mode = 'up';
  });
});
