import { base58 } from '@scure/base';
import { address, createSolanaRpc, signature as toSignature } from '@solana/kit';
import type { ChainTokenBalance, ChainTransaction } from './verify.ts';

/** The RPC did not answer in time, or answered with an error: nothing is decided, try later. */
export class ChainUnavailable extends Error {}

export type SignatureStatus = 'processed' | 'confirmed' | 'finalized' | 'failed' | 'unknown';

/** What the site asks of a Solana RPC, always at `finalized` for what it records. */
export interface ChainRpc {
  /** Signatures of finalized transactions that name `account` (a reference key), newest first. */
  signaturesFor(account: string): Promise<string[]>;
  /** The finalized transaction, or null when the RPC has none at `finalized` (yet). */
  finalizedTransaction(signature: string): Promise<ChainTransaction | null>;
  /** How far a transaction has come, to tell "not finalized yet" from "never seen". */
  status(signature: string): Promise<SignatureStatus>;
  /** A recent blockhash at `finalized`, for the console's transfer to be built on. */
  latestBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: bigint }>;
}

/** Without SOLANA_RPC_URL nothing can be verified; the operator reads this line. */
export const NO_RPC_MESSAGE =
  "No Solana RPC is configured: set SOLANA_RPC_URL (for example https://api.mainnet-beta.solana.com or your RPC provider's URL) in the server's environment and restart it; until then no payment or burn can be recorded";

/** The site's RPC client over @solana/kit; every call bounded by `timeoutMs`. */
export function createChainRpc(url: string, timeoutMs: number): ChainRpc {
  const rpc = createSolanaRpc(url);
  async function call<T>(what: string, send: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      return await send(AbortSignal.timeout(timeoutMs));
    } catch (error) {
      const name = (error as Error).name;
      throw new ChainUnavailable(
        name === 'TimeoutError' || name === 'AbortError'
          ? `the Solana RPC did not answer ${what} within ${timeoutMs} ms`
          : `the Solana RPC failed ${what} (${(error as Error).message})`,
        { cause: error },
      );
    }
  }
  return {
    async signaturesFor(account) {
      const found = await call('getSignaturesForAddress', (abortSignal) =>
        rpc
          .getSignaturesForAddress(address(account), { commitment: 'finalized', limit: 20 })
          .send({ abortSignal }),
      );
      return found.map((s) => s.signature);
    },
    async finalizedTransaction(sig) {
      const tx = await call('getTransaction', (abortSignal) =>
        rpc
          .getTransaction(toSignature(sig), {
            commitment: 'finalized',
            encoding: 'json',
            maxSupportedTransactionVersion: 0,
          })
          .send({ abortSignal }),
      );
      if (tx === null) return null;
      const { message } = tx.transaction;
      const meta = tx.meta;
      const loaded = meta?.loadedAddresses;
      const accountKeys: string[] = [
        ...message.accountKeys,
        ...(loaded?.writable ?? []),
        ...(loaded?.readonly ?? []),
      ];
      const balances = (
        list: readonly TokenBalanceLike[] | null | undefined,
      ): ChainTokenBalance[] =>
        (list ?? []).map((b) => ({
          accountIndex: b.accountIndex,
          mint: b.mint,
          amount: BigInt(b.uiTokenAmount.amount),
          decimals: b.uiTokenAmount.decimals,
        }));
      return {
        signature: sig,
        slot: BigInt(tx.slot),
        blockTime: tx.blockTime === null ? null : Number(tx.blockTime),
        err: meta?.err ?? null,
        accountKeys,
        preBalances: (meta?.preBalances ?? []).map((b) => BigInt(b)),
        postBalances: (meta?.postBalances ?? []).map((b) => BigInt(b)),
        preTokenBalances: balances(meta?.preTokenBalances),
        postTokenBalances: balances(meta?.postTokenBalances),
        instructions: message.instructions.map((i) => ({
          programId: accountKeys[i.programIdIndex] ?? '',
          accounts: i.accounts.map((a) => accountKeys[a] ?? ''),
          data: base58.decode(i.data),
        })),
      };
    },
    async status(sig) {
      const { value } = await call('getSignatureStatuses', (abortSignal) =>
        rpc
          .getSignatureStatuses([toSignature(sig)], { searchTransactionHistory: true })
          .send({ abortSignal }),
      );
      const found = value[0];
      if (!found) return 'unknown';
      if (found.err !== null) return 'failed';
      return found.confirmationStatus ?? 'processed';
    },
    async latestBlockhash() {
      const { value } = await call('getLatestBlockhash', (abortSignal) =>
        rpc.getLatestBlockhash({ commitment: 'finalized' }).send({ abortSignal }),
      );
      return value;
    },
  };
}

interface TokenBalanceLike {
  accountIndex: number;
  mint: string;
  uiTokenAmount: { amount: string; decimals: number };
}
