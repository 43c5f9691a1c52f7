import { getAddMemoInstruction } from '@solana-program/memo';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getTransactionEncoder,
  lamports,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import type { PreparedPayment } from './api/chain.ts';

/**
 * SPL Memo v2, the memo program wallets and explorers show; @solana-program/memo 0.15 defaults
 * to a newer address, so it is named here.
 */
const WALLET_MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/**
 * The week's prize transfer as the console asks a wallet to sign and send it: `payer` sends the
 * prepared lamports to the approved wallet, the transfer names the payment's reference key (read
 * only, as Solana Pay tags a payment) and a memo names the week. Unsigned wire bytes; the server
 * verifies what lands, never these bytes.
 */
export function prizeTransferBytes(payment: PreparedPayment, payer: string): Uint8Array {
  if (payment.reference === null || payment.memo === null) {
    throw new Error(`the payment of ${payment.week} is not prepared`);
  }
  const transfer = getTransferSolInstruction({
    source: createNoopSigner(address(payer)),
    destination: address(payment.recipient),
    amount: lamports(BigInt(payment.lamports)),
  });
  const tagged = {
    ...transfer,
    accounts: [
      ...transfer.accounts,
      { address: address(payment.reference), role: AccountRole.READONLY },
    ],
  };
  const memo = getAddMemoInstruction(
    { memo: payment.memo },
    { programAddress: WALLET_MEMO_PROGRAM },
  );
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(address(payer), m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        {
          blockhash: blockhash(payment.lifetime.blockhash),
          lastValidBlockHeight: BigInt(payment.lifetime.lastValidBlockHeight),
        },
        m,
      ),
    (m) => appendTransactionMessageInstructions([tagged, memo], m),
  );
  return new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)));
}
