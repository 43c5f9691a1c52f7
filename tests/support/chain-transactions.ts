import { getAddMemoInstruction } from '@solana-program/memo';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  getBurnCheckedInstruction,
  getBurnInstruction,
  getTransferInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Transaction,
} from '@solana/kit';
import { writeMint, writeTokenAccount } from '../../scripts/local-chain/token-accounts.ts';
import type { SvmRpc } from '../../scripts/local-chain/svm-rpc.ts';

export const TOKEN_2022_PROGRAM_ADDRESS = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
export const LAMPORTS_PER_SOL = 1_000_000_000n;
/**
 * SPL Memo v2, the memo program wallets use; @solana-program/memo 0.15 defaults to a newer
 * address, so the program is named explicitly (as the console's payment does).
 */
export const MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const memoInstruction = (memo: string) =>
  getAddMemoInstruction({ memo }, { programAddress: MEMO_PROGRAM });

/** A generated key with SOL on the test chain. */
export async function fundedSigner(chain: SvmRpc, sol = 10n): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  chain.airdrop(signer.address, sol * LAMPORTS_PER_SOL);
  return signer;
}

/** A fresh address nobody holds the key of (a reference key, a recipient). */
export async function freshAddress(): Promise<Address> {
  return (await generateKeyPairSigner()).address;
}

/** A transaction paying `payer`'s instructions, signed, with the chain's latest blockhash. */
export async function signed(
  chain: SvmRpc,
  payer: KeyPairSigner,
  instructions: Instruction[],
): Promise<Transaction> {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: chain.svm.latestBlockhash(), lastValidBlockHeight: 1_000_000n },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return signTransactionMessageWithSigners(message);
}

/** Adds a read-only reference key to an instruction, the way Solana Pay tags a payment. */
export function withReference<I extends Instruction>(instruction: I, reference: string): I {
  return {
    ...instruction,
    accounts: [
      ...(instruction.accounts ?? []),
      { address: address(reference), role: AccountRole.READONLY },
    ],
  };
}

export interface PaymentParts {
  to: string;
  lamports: bigint;
  reference?: string;
  memo?: string;
}

/** A SOL transfer with the payment's reference key and memo (either may be left out). */
export async function prizeTransfer(
  chain: SvmRpc,
  payer: KeyPairSigner,
  parts: PaymentParts,
): Promise<Transaction> {
  const transfer = getTransferSolInstruction({
    source: payer,
    destination: address(parts.to),
    amount: lamports(parts.lamports),
  });
  const instructions: Instruction[] = [
    parts.reference ? withReference(transfer, parts.reference) : transfer,
  ];
  if (parts.memo !== undefined) instructions.push(memoInstruction(parts.memo));
  return signed(chain, payer, instructions);
}

export interface TestMint {
  mint: Address;
  program: Address;
  decimals: number;
  /** A token account of `owner` holding `balance`. */
  account: Address;
  owner: KeyPairSigner;
}

/**
 * A mint of `program` (SPL Token or Token-2022) and a token account of `owner` holding
 * `balance`, written straight into the runtime's accounts (base layouts, no extensions).
 */
export async function createTestMint(
  chain: SvmRpc,
  owner: KeyPairSigner,
  options: {
    program?: Address;
    decimals?: number;
    supply?: bigint;
    balance?: bigint;
    /** The mint's address (a site's contract address chosen before the app starts). */
    mint?: Address;
  } = {},
): Promise<TestMint> {
  const program = options.program ?? TOKEN_PROGRAM_ADDRESS;
  const decimals = options.decimals ?? 6;
  const supply = options.supply ?? 1_000_000_000n * 10n ** BigInt(decimals);
  const balance = options.balance ?? supply;
  const mint = options.mint ?? (await freshAddress());
  const account = await freshAddress();
  writeMint(chain, mint, { supply, decimals, program });
  writeTokenAccount(chain, account, { mint, owner: owner.address, amount: balance, program });
  return { mint, program, decimals, account, owner };
}

/** A token account of `owner` for `of`'s mint, empty. */
export async function tokenAccount(
  chain: SvmRpc,
  of: TestMint,
  owner: Address,
): Promise<Address> {
  const at = await freshAddress();
  writeTokenAccount(chain, at, { mint: of.mint, owner, amount: 0n, program: of.program });
  return at;
}

/** `burn` (or `burnChecked`) of `amount` base units from the owner's account. */
export async function burnTokens(
  chain: SvmRpc,
  of: TestMint,
  amount: bigint,
  checked = false,
): Promise<Transaction> {
  const config = { programAddress: of.program };
  const instruction = checked
    ? getBurnCheckedInstruction(
        { account: of.account, mint: of.mint, authority: of.owner, amount, decimals: of.decimals },
        config,
      )
    : getBurnInstruction(
        { account: of.account, mint: of.mint, authority: of.owner, amount },
        config,
      );
  return signed(chain, of.owner, [instruction]);
}

/** A transfer of tokens (not SOL) to `destination`, with a reference key and a memo. */
export async function tokenTransfer(
  chain: SvmRpc,
  of: TestMint,
  destination: Address,
  amount: bigint,
  extra: { reference: string; memo: string; alsoNaming?: string },
): Promise<Transaction> {
  let transfer: Instruction = getTransferInstruction(
    { source: of.account, destination, authority: of.owner, amount },
    { programAddress: of.program },
  );
  transfer = withReference(transfer, extra.reference);
  if (extra.alsoNaming) transfer = withReference(transfer, extra.alsoNaming);
  return signed(chain, of.owner, [transfer, memoInstruction(extra.memo)]);
}

/** Sends a signed transaction to a JSON-RPC server as a wallet does; the signature it answers. */
export async function sendThroughRpc(rpcUrl: string, tx: Transaction): Promise<string> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'sendTransaction',
      params: [getBase64EncodedWireTransaction(tx), { encoding: 'base64' }],
    }),
  });
  const answer = (await res.json()) as { result?: string; error?: { message: string } };
  if (answer.result === undefined) throw new Error(answer.error?.message ?? 'not sent');
  return answer.result;
}
