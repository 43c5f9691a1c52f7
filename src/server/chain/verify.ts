import { base58 } from '@scure/base';

/**
 * The rules that decide whether a finalized transaction is the prize payment or a burn of the
 * site's mint (docs/decisions/023-prize-paid-on-chain.md). Pure: they read a transaction as the
 * RPC returned it (chain/rpc.ts turns it into a ChainTransaction) and answer a verdict with the
 * reason an operator reads. Instructions are decoded here from their bytes, not taken from an
 * RPC's parsed labels.
 */

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
/** The memo program, and its first version, which wallets still use. */
const MEMO_PROGRAMS = [
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
];

const LAMPORTS_PER_SOL = 1_000_000_000n;

interface ChainInstruction {
  programId: string;
  accounts: string[];
  data: Uint8Array;
}

export interface ChainTokenBalance {
  accountIndex: number;
  mint: string;
  amount: bigint;
  decimals: number;
}

/** A transaction as read at `finalized`, whatever encoding the RPC used. */
export interface ChainTransaction {
  signature: string;
  slot: bigint;
  /** Seconds since the epoch, as the chain reports it; null when the node does not know. */
  blockTime: number | null;
  /** The transaction's error, null when it succeeded. */
  err: unknown;
  /** Static keys, then the keys loaded from lookup tables (writable, then read-only). */
  accountKeys: string[];
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: ChainTokenBalance[];
  postTokenBalances: ChainTokenBalance[];
  /** Top-level instructions (a burn or transfer inside another program's call is not counted). */
  instructions: ChainInstruction[];
}

export type Refusal =
  | 'TX_FAILED'
  | 'TX_NO_BLOCK_TIME'
  | 'TX_NO_REFERENCE'
  | 'TX_NO_MEMO'
  | 'TX_WRONG_RECIPIENT'
  | 'TX_SHORT_AMOUNT'
  | 'TX_WRONG_PAYER'
  | 'TX_NOT_A_BURN'
  | 'TX_WRONG_MINT'
  | 'TX_BURN_ZERO'
  | 'TX_BURN_TOO_LARGE';

export type Verdict<T> = { ok: true; value: T } | { ok: false; code: Refusal; reason: string };

const refuse = (code: Refusal, reason: string): { ok: false; code: Refusal; reason: string } => ({
  ok: false,
  code,
  reason,
});

/** Neither a payment nor a burn: the transaction failed on chain. */
const failedOnChain = (tx: ChainTransaction) =>
  refuse('TX_FAILED', `transaction ${tx.signature} failed on chain (${describeError(tx.err)})`);

/** A verdict is dated by its block: without the time, the same transaction is read again later. */
const noBlockTime = (tx: ChainTransaction) =>
  refuse('TX_NO_BLOCK_TIME', `the RPC gave no block time for ${tx.signature}; try again later`);

/** Where a verified transaction stands on chain, what every verdict's value starts with. */
interface OnChain {
  signature: string;
  slot: bigint;
  blockTime: number;
}

const onChain = (tx: ChainTransaction, blockTime: number): OnChain => ({
  signature: tx.signature,
  slot: tx.slot,
  blockTime,
});

export interface ExpectedPayment {
  recipient: string;
  lamports: bigint;
  /**
   * The prepared payment's reference key; null when none was prepared. A transfer without it
   * passes only when it comes from PRIZE_TREASURY (then the memo alone names the week).
   */
  reference: string | null;
  memo: string;
  /** PRIZE_TREASURY: when not empty, the fee payer must be one of these. */
  treasury: readonly string[];
}

export interface VerifiedPayment extends OnChain {
  payer: string;
  recipient: string;
  /** What the recipient's balance rose by. */
  received: bigint;
  /** The reference key it carries; null for a treasury transfer without one. */
  reference: string | null;
}

/** The memo texts of a transaction's memo instructions. */
function memos(tx: ChainTransaction): string[] {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  return tx.instructions
    .filter((i) => MEMO_PROGRAMS.includes(i.programId))
    .map((i) => decoder.decode(i.data));
}

/** "1 SOL", "0.5 SOL" -> lamports; undefined for a prize that is not an amount of SOL. */
export function prizeLamports(prize: string): bigint | undefined {
  const match = /^\s*(\d{1,9})(?:\.(\d{1,9}))?\s*SOL\s*$/i.exec(prize);
  if (!match) return undefined;
  const fraction = (match[2] ?? '').padEnd(9, '0');
  return BigInt(match[1]!) * LAMPORTS_PER_SOL + BigInt(fraction);
}

export function formatLamports(lamports: bigint): string {
  const whole = lamports / LAMPORTS_PER_SOL;
  const fraction = (lamports % LAMPORTS_PER_SOL).toString().padStart(9, '0').replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''} SOL`;
}

/** The memo that names a week's prize: "Daily Grind prize 2026-W47". */
export function prizeMemo(brand: string, weekId: string): string {
  return `${brand} prize ${weekId}`;
}

/**
 * A prize payment, as Solana Pay's validateTransfer checks a SOL transfer: the transaction
 * succeeded, carries the memo, the recipient's balance rose by at least the prize, the fee payer
 * is in the treasury when one is set, and it carries the reference key (or, without one, comes
 * from the treasury: an operator who paid by hand from it is still recognised, so the week is
 * never paid twice).
 */
export function verifyPayment(
  tx: ChainTransaction,
  expected: ExpectedPayment,
): Verdict<VerifiedPayment> {
  if (tx.err !== null) return failedOnChain(tx);
  if (!memos(tx).includes(expected.memo)) {
    return refuse('TX_NO_MEMO', `transaction ${tx.signature} has no memo "${expected.memo}"`);
  }
  const index = tx.accountKeys.indexOf(expected.recipient);
  if (index < 0) {
    return refuse(
      'TX_WRONG_RECIPIENT',
      `transaction ${tx.signature} does not pay the approved wallet ${expected.recipient}`,
    );
  }
  const received = (tx.postBalances[index] ?? 0n) - (tx.preBalances[index] ?? 0n);
  if (received < expected.lamports) {
    return refuse(
      received <= 0n ? 'TX_WRONG_RECIPIENT' : 'TX_SHORT_AMOUNT',
      received <= 0n
        ? `transaction ${tx.signature} moved no SOL to the approved wallet ${expected.recipient}`
        : `transaction ${tx.signature} paid ${formatLamports(received)} to ${expected.recipient}, less than the prize of ${formatLamports(expected.lamports)}`,
    );
  }
  const payer = tx.accountKeys[0] ?? '';
  const fromTreasury = expected.treasury.includes(payer);
  if (expected.treasury.length > 0 && !fromTreasury) {
    return refuse(
      'TX_WRONG_PAYER',
      `transaction ${tx.signature} was paid by ${payer}, which is not in PRIZE_TREASURY`,
    );
  }
  const reference =
    expected.reference !== null && tx.accountKeys.includes(expected.reference)
      ? expected.reference
      : null;
  if (reference === null && !fromTreasury) {
    return refuse(
      'TX_NO_REFERENCE',
      expected.reference === null
        ? `transaction ${tx.signature} carries no prepared reference key and is not paid from PRIZE_TREASURY`
        : `transaction ${tx.signature} does not carry the payment's reference key ${expected.reference}`,
    );
  }
  if (tx.blockTime === null) return noBlockTime(tx);
  return {
    ok: true,
    value: {
      ...onChain(tx, tx.blockTime),
      payer,
      recipient: expected.recipient,
      received,
      reference,
    },
  };
}

export interface VerifiedBurn extends OnChain {
  mint: string;
  tokenProgram: string;
  amount: bigint;
  decimals: number;
  authority: string;
}

const BURN = 8;
const BURN_CHECKED = 15;

function readU64(data: Uint8Array, offset: number): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
}

/**
 * A burn of the site's mint: a finalized, successful transaction whose top-level instructions
 * include SPL Token or Token-2022 `burn` or `burnChecked` of `mint`; several such instructions
 * add up. The amount is read from the instructions, the decimals from burnChecked or the
 * token balances the transaction reports.
 */
export function verifyBurn(tx: ChainTransaction, mint: string): Verdict<VerifiedBurn> {
  if (tx.err !== null) return failedOnChain(tx);
  const burns = tx.instructions.flatMap((i) => {
    if (i.programId !== TOKEN_PROGRAM && i.programId !== TOKEN_2022_PROGRAM) return [];
    const kind = i.data[0];
    if (kind === BURN && i.data.length >= 9) {
      return [{ i, amount: readU64(i.data, 1), decimals: undefined as number | undefined }];
    }
    if (kind === BURN_CHECKED && i.data.length >= 10) {
      return [{ i, amount: readU64(i.data, 1), decimals: i.data[9] }];
    }
    return [];
  });
  if (burns.length === 0) {
    return refuse('TX_NOT_A_BURN', `transaction ${tx.signature} burns no tokens`);
  }
  const ofMint = burns.filter((b) => b.i.accounts[1] === mint);
  if (ofMint.length === 0) {
    return refuse(
      'TX_WRONG_MINT',
      `transaction ${tx.signature} burns another token (${burns[0]!.i.accounts[1]}), not the site's mint ${mint}`,
    );
  }
  if (tx.blockTime === null) return noBlockTime(tx);
  const amount = ofMint.reduce((sum, b) => sum + b.amount, 0n);
  if (amount === 0n) {
    return refuse('TX_BURN_ZERO', `transaction ${tx.signature} burns 0 tokens`);
  }
  // What the mint's accounts in this transaction held before it: a burn cannot take more.
  const held = tx.preTokenBalances
    .filter((b) => b.mint === mint)
    .reduce((sum, b) => sum + b.amount, 0n);
  if (amount > held) {
    return refuse(
      'TX_BURN_TOO_LARGE',
      `transaction ${tx.signature} says it burns ${amount} base units, more than its token accounts held (${held})`,
    );
  }
  const first = ofMint[0]!;
  const decimals =
    first.decimals ??
    [...tx.preTokenBalances, ...tx.postTokenBalances].find((b) => b.mint === mint)?.decimals;
  if (decimals === undefined) {
    return refuse('TX_NOT_A_BURN', `transaction ${tx.signature} does not say the mint's decimals`);
  }
  return {
    ok: true,
    value: {
      ...onChain(tx, tx.blockTime),
      mint,
      tokenProgram: first.i.programId,
      amount,
      decimals,
      authority: first.i.accounts[2] ?? '',
    },
  };
}

function describeError(err: unknown): string {
  return JSON.stringify(err, (_key, value: unknown) =>
    typeof value === 'bigint' ? Number(value) : value,
  );
}

/** Base58 of 64 bytes, a transaction signature's form. */
export function isSignature(value: string): boolean {
  try {
    return base58.decode(value).length === 64;
  } catch {
    return false;
  }
}
