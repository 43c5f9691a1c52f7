import { describe, expect, it } from 'vitest';
import {
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageEncoder,
  compileTransactionMessage,
  createTransactionMessage,
  generateKeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  appendTransactionMessageInstructions,
  partiallySignTransactionMessageWithSigners,
  lamports,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  burnTokens,
  createTestMint,
  fundedSigner,
  LAMPORTS_PER_SOL,
} from '#test-support/chain-transactions.ts';
import { TestChain } from '#test-support/test-chain.ts';
import { SvmRpc } from './svm-rpc.ts';

// The chain `npm run chain:local` serves, through the methods a wallet pointed at a custom RPC
// and the site's server call, and brought back after a restart from the state it saved.

describe('the local chain', () => {
  it('answers what a wallet asks before it signs: accounts, token accounts, fees, a simulation', async () => {
    const chain = new TestChain();
    const owner = await fundedSigner(chain, 3n);
    const token = await createTestMint(chain, owner, { decimals: 6, supply: 5_000_000n });

    const info = chain.rpcAnswer('getAccountInfo', [owner.address, { encoding: 'base64' }]) as {
      value: { lamports: number; owner: string; data: [string, string] };
    };
    expect(info.value).toMatchObject({
      lamports: 3 * Number(LAMPORTS_PER_SOL),
      owner: '11111111111111111111111111111111',
      data: ['', 'base64'],
    });
    const held = chain.rpcAnswer('getTokenAccountsByOwner', [
      owner.address,
      { mint: token.mint },
      { encoding: 'jsonParsed' },
    ]) as { value: { pubkey: string; account: { data: { parsed: { info: unknown } } } }[] };
    expect(held.value).toHaveLength(1);
    expect(held.value[0]!.pubkey).toBe(token.account);
    expect(held.value[0]!.account.data.parsed.info).toMatchObject({
      mint: token.mint,
      owner: owner.address,
      tokenAmount: { amount: '5000000', decimals: 6, uiAmountString: '5' },
    });

    // An unsigned transfer, as a wallet simulates it before asking its user to sign.
    const { value: lifetime } = chain.rpcAnswer('getLatestBlockhash', []) as {
      value: { blockhash: string; lastValidBlockHeight: number };
    };
    const recipient = (await generateKeyPairSigner()).address;
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(owner, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: lifetime.blockhash as never, lastValidBlockHeight: 1_000n },
          m,
        ),
      (m) =>
        appendTransactionMessageInstructions(
          [
            getTransferSolInstruction({
              source: owner,
              destination: recipient,
              amount: lamports(LAMPORTS_PER_SOL),
            }),
          ],
          m,
        ),
    );
    const compiled = getCompiledTransactionMessageEncoder().encode(
      compileTransactionMessage(message),
    );
    expect(
      chain.rpcAnswer('getFeeForMessage', [Buffer.from(compiled).toString('base64')]),
    ).toMatchObject({ value: 5000 });
    const tx = await partiallySignTransactionMessageWithSigners(message);
    const unsigned = { ...tx, signatures: { [owner.address]: null } };
    const simulated = chain.rpcAnswer('simulateTransaction', [
      getBase64EncodedWireTransaction(unsigned as never),
      { encoding: 'base64' },
    ]) as { value: { err: unknown; logs: string[] } };
    expect(simulated.value.err).toBeNull();
    expect(simulated.value.logs.join('\n')).toContain('success');
    // A simulation moves nothing.
    expect(chain.balance(recipient)).toBe(0n);

    const airdrop = chain.rpcAnswer('requestAirdrop', [recipient, Number(LAMPORTS_PER_SOL)]) as string;
    expect(chain.balance(recipient)).toBe(LAMPORTS_PER_SOL);
    expect(chain.rpcAnswer('getSignatureStatuses', [[airdrop]])).toMatchObject({
      value: [{ confirmationStatus: 'finalized', err: null }],
    });
    expect(chain.rpcAnswer('getHealth', [])).toBe('ok');
    expect(() => chain.rpcAnswer('getBlockProduction', [])).toThrow(/does not answer/);
  });

  it('comes back after a restart from its saved state: balances, the mint, every transaction', async () => {
    const before = new TestChain();
    const owner = await fundedSigner(before, 2n);
    const token = await createTestMint(before, owner, { decimals: 6, supply: 9_000n });
    const signature = before.send(await burnTokens(before, token, 4_000n));
    // Through JSON, as scripts/chain-local.ts writes it to its data folder.
    const saved = JSON.parse(JSON.stringify(before.state())) as ReturnType<SvmRpc['state']>;

    const after = new SvmRpc();
    after.restore(saved);
    expect(after.balance(owner.address)).toBe(before.balance(owner.address));
    expect(after.rpcAnswer('getTokenSupply', [token.mint])).toMatchObject({
      value: { amount: '5000', decimals: 6 },
    });
    expect(after.rpcAnswer('getTransaction', [signature, { encoding: 'json' }])).toEqual(
      before.rpcAnswer('getTransaction', [signature, { encoding: 'json' }]),
    );
    expect(after.rpcAnswer('getSignaturesForAddress', [token.mint])).toEqual(
      before.rpcAnswer('getSignaturesForAddress', [token.mint]),
    );
    // The slot goes on from where it was: a new transaction lands after the old ones.
    expect(after.rpcAnswer('getSlot', [])).toBe(before.rpcAnswer('getSlot', []));
    const again = after.send(await burnTokens(after, token, 1_000n));
    expect(after.rpcAnswer('getSignatureStatuses', [[again]])).toMatchObject({
      value: [{ err: null, confirmationStatus: 'finalized' }],
    });
  });
});
