import { base58 } from '@scure/base';
import { z } from 'zod';
import {
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  type ChainTokenBalance,
  type ChainTransaction,
} from './verify.ts';

/**
 * The RPC did not answer in time, answered with an error, or answered more or other than the
 * site reads: nothing is decided, try later. `code` is the refusal's code (503).
 */
export class ChainUnavailable extends Error {
  constructor(
    message: string,
    readonly code: 'CHAIN_UNAVAILABLE' | 'CHAIN_BAD_ANSWER' = 'CHAIN_UNAVAILABLE',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

type SignatureStatus = 'processed' | 'confirmed' | 'finalized' | 'failed' | 'unknown';

/** One transaction naming an account, as getSignaturesForAddress lists it. */
export interface SignatureInfo {
  signature: string;
  slot: bigint;
  /** Seconds since the epoch; null when the node does not know. */
  blockTime: number | null;
  err: unknown;
  confirmationStatus: 'processed' | 'confirmed' | 'finalized' | null;
}

/** What the site asks of a Solana RPC, always at `finalized` for what it records. */
export interface ChainRpc {
  /**
   * Every transaction that names `account` (a reference key, a wallet), newest first, paged
   * through with `before` to the end (never only the first page: anyone can name a public key,
   * so a first page can be filled by others). `since` (epoch seconds) stops the paging at
   * transactions older than it.
   */
  signaturesFor(
    account: string,
    options?: { commitment?: 'finalized' | 'confirmed'; since?: number },
  ): Promise<SignatureInfo[]>;
  /** The finalized transaction, or null when the RPC has none at `finalized` (yet). */
  finalizedTransaction(signature: string): Promise<ChainTransaction | null>;
  /** How far a transaction has come, to tell "not finalized yet" from "never seen". */
  status(signature: string): Promise<SignatureStatus>;
  /** A recent blockhash at `finalized`, for the console's transfer to be built on. */
  latestBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: bigint }>;
  /** The block height at `finalized`: past a blockhash's lastValidBlockHeight, it cannot land. */
  finalizedBlockHeight(): Promise<bigint>;
  /** A mint's supply at `finalized`, in base units. */
  tokenSupply(mint: string): Promise<{ amount: bigint; decimals: number }>;
  /**
   * What `owner` holds of `mint` at `finalized`, in base units: its token accounts of that mint
   * under both token programs (Token and Token-2022), summed.
   */
  tokenBalance(owner: string, mint: string): Promise<bigint>;
}

/** Without SOLANA_RPC_URL nothing can be verified; the operator reads this line. */
export const NO_RPC_MESSAGE =
  "No Solana RPC is configured: set SOLANA_RPC_URL (for example https://api.mainnet-beta.solana.com or your RPC provider's URL) in the server's environment and restart it; until then no payment or burn can be recorded";

/**
 * The most of an answer the site reads: a transaction the site checks is well under 100 KB
 * (1,232 bytes on the wire, a few KB of JSON with its balances and logs), and a page of 1,000
 * signatures about 200 KB. A longer answer is cut off and refused (docs/decisions/023).
 */
const RPC_ANSWER_MAX_BYTES = 2 * 1024 * 1024;
/** getSignaturesForAddress's largest page. */
const SIGNATURES_PAGE = 1_000;
/** Past this many pages (100,000 transactions naming one key) the search answers 503. */
const SIGNATURE_PAGES_MAX = 100;

export const U64_MAX = 2n ** 64n - 1n;

const u64 = z
  .union([z.number().int().nonnegative(), z.string().regex(/^\d{1,20}$/)])
  .transform((v) => BigInt(v))
  .refine((v) => v <= U64_MAX, 'more than a u64');
const base58Text = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]*$/);
const commitment = z.enum(['processed', 'confirmed', 'finalized']);

const signaturesSchema = z.array(
  z.object({
    signature: base58Text.min(64).max(88),
    slot: u64,
    err: z.unknown(),
    blockTime: z.number().int().nullish(),
    confirmationStatus: commitment.nullish(),
  }),
);

const tokenBalancesSchema = z
  .array(
    z.object({
      accountIndex: z.number().int().nonnegative(),
      mint: z.string(),
      uiTokenAmount: z.object({ amount: u64, decimals: z.number().int().min(0).max(255) }),
    }),
  )
  .nullish();

const transactionSchema = z
  .object({
    slot: u64,
    blockTime: z.number().int().nullish(),
    meta: z.object({
      err: z.unknown(),
      preBalances: z.array(u64),
      postBalances: z.array(u64),
      preTokenBalances: tokenBalancesSchema,
      postTokenBalances: tokenBalancesSchema,
      loadedAddresses: z
        .object({ writable: z.array(z.string()), readonly: z.array(z.string()) })
        .nullish(),
    }),
    transaction: z.object({
      message: z.object({
        accountKeys: z.array(z.string()),
        instructions: z.array(
          z.object({
            programIdIndex: z.number().int().nonnegative(),
            accounts: z.array(z.number().int().nonnegative()),
            data: base58Text,
          }),
        ),
      }),
    }),
  })
  .nullable();

const statusesSchema = z.object({
  value: z.array(
    z.object({ err: z.unknown(), confirmationStatus: commitment.nullish() }).nullable(),
  ),
});

const blockhashSchema = z.object({
  value: z.object({ blockhash: base58Text.min(32).max(44), lastValidBlockHeight: u64 }),
});

const supplySchema = z.object({
  value: z.object({ amount: u64, decimals: z.number().int().min(0).max(255) }),
});

/**
 * getTokenAccountsByOwner's accounts, each sliced to its first 72 bytes (mint, owner, amount:
 * the base layout both token programs share), so a wallet's answer stays small.
 */
const tokenAccountsSchema = z.object({
  value: z.array(
    z.object({
      account: z.object({
        owner: z.string(),
        // 72 bytes asked; an RPC that ignores dataSlice sends the whole account.
        data: z.tuple([z.string().max(16_384), z.literal('base64')]),
      }),
    }),
  ),
});
const TOKEN_ACCOUNT_HEAD = 72;

/**
 * JSON.parse with the integers a double cannot hold (u64 balances above 2^53) kept exact as
 * strings: strings are matched whole first, so digits inside them are left alone.
 */
function parseJsonKeepingLongIntegers(text: string): unknown {
  // The pass over every string costs about ten times the parse (50 against 6 ms for 2 MB), so
  // it runs only when a run of 16 digits appears at all.
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  return JSON.parse(
    text.replace(/"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{16,}(?![\d.eE])/g, (m) =>
      m.startsWith('"') ? m : `"${m}"`,
    ),
  );
}

/**
 * The site's JSON-RPC client. Every call is bounded in time (`timeoutMs`, the body's read
 * included) and in bytes (RPC_ANSWER_MAX_BYTES: the read is cancelled past it), and every answer
 * is checked against the shape the site reads, so a hostile or broken RPC costs at most that
 * much and answers 503 (`CHAIN_UNAVAILABLE`, or `CHAIN_BAD_ANSWER` for a malformed answer),
 * never a 500.
 */
export function createChainRpc(url: string, timeoutMs: number): ChainRpc {
  let nextId = 1;

  async function readBounded(res: Response, method: string): Promise<string> {
    const tooLong = () =>
      new ChainUnavailable(
        `the Solana RPC answered ${method} with more than ${RPC_ANSWER_MAX_BYTES} bytes`,
        'CHAIN_BAD_ANSWER',
      );
    if (!res.body) throw new ChainUnavailable(`the Solana RPC answered ${method} with no body`);
    // A declared length past the bound is refused before a byte is read.
    if (Number(res.headers.get('content-length') ?? 0) > RPC_ANSWER_MAX_BYTES) {
      await res.body.cancel();
      throw tooLong();
    }
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > RPC_ANSWER_MAX_BYTES) {
        await reader.cancel();
        throw tooLong();
      }
      chunks.push(value);
    }
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
    } catch (error) {
      throw new ChainUnavailable(
        `the Solana RPC answered ${method} with text that is not UTF-8`,
        'CHAIN_BAD_ANSWER',
        { cause: error },
      );
    }
  }

  async function call<T>(method: string, params: unknown[], shape: z.ZodType<T>): Promise<T> {
    let text: string;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) {
        await res.body?.cancel();
        throw new ChainUnavailable(`the Solana RPC failed ${method} (HTTP ${res.status})`);
      }
      text = await readBounded(res, method);
    } catch (error) {
      if (error instanceof ChainUnavailable) throw error;
      const name = (error as Error).name;
      throw new ChainUnavailable(
        name === 'TimeoutError' || name === 'AbortError'
          ? `the Solana RPC did not answer ${method} within ${timeoutMs} ms`
          : `the Solana RPC failed ${method} (${(error as Error).message})`,
        'CHAIN_UNAVAILABLE',
        { cause: error },
      );
    }
    const malformed = (why: string, cause?: unknown) =>
      new ChainUnavailable(
        `the Solana RPC answered ${method} in a shape the site does not read (${why})`,
        'CHAIN_BAD_ANSWER',
        { cause },
      );
    let envelope: unknown;
    try {
      envelope = parseJsonKeepingLongIntegers(text);
    } catch (error) {
      throw malformed('not JSON', error);
    }
    if (typeof envelope !== 'object' || envelope === null) throw malformed('not a JSON-RPC answer');
    if ('error' in envelope && envelope.error != null) {
      const said = (envelope.error as { message?: unknown }).message;
      throw new ChainUnavailable(
        `the Solana RPC failed ${method} (${typeof said === 'string' ? said.slice(0, 200) : 'an error'})`,
      );
    }
    if (!('result' in envelope)) throw malformed('no result');
    const result = shape.safeParse(envelope.result);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw malformed(`${issue?.path.join('.') || 'result'}: ${issue?.message ?? 'invalid'}`);
    }
    return result.data;
  }

  return {
    async signaturesFor(account, { commitment = 'finalized', since } = {}) {
      const all: SignatureInfo[] = [];
      let before: string | undefined;
      // Until an empty page: some providers answer fewer than the limit before the end.
      for (let page = 0; ; page++) {
        if (page === SIGNATURE_PAGES_MAX) {
          throw new ChainUnavailable(
            `more than ${SIGNATURE_PAGES_MAX * SIGNATURES_PAGE} transactions name ${account}; the site does not search further`,
          );
        }
        const found = await call(
          'getSignaturesForAddress',
          [account, { commitment, limit: SIGNATURES_PAGE, ...(before ? { before } : {}) }],
          signaturesSchema,
        );
        for (const s of found) {
          all.push({
            signature: s.signature,
            slot: s.slot,
            blockTime: s.blockTime ?? null,
            err: s.err ?? null,
            confirmationStatus: s.confirmationStatus ?? null,
          });
        }
        const last = found.at(-1);
        if (!last || last.signature === before) break;
        if (since !== undefined && last.blockTime != null && last.blockTime < since) break;
        before = last.signature;
      }
      return since === undefined
        ? all
        : all.filter((s) => s.blockTime === null || s.blockTime >= since);
    },

    async finalizedTransaction(sig) {
      const tx = await call(
        'getTransaction',
        [sig, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }],
        transactionSchema,
      );
      if (tx === null) return null;
      const { message } = tx.transaction;
      const { meta } = tx;
      const loaded = meta.loadedAddresses;
      const accountKeys: string[] = [
        ...message.accountKeys,
        ...(loaded?.writable ?? []),
        ...(loaded?.readonly ?? []),
      ];
      const balances = (list: z.infer<typeof tokenBalancesSchema>): ChainTokenBalance[] =>
        (list ?? []).map((b) => ({
          accountIndex: b.accountIndex,
          mint: b.mint,
          amount: b.uiTokenAmount.amount,
          decimals: b.uiTokenAmount.decimals,
        }));
      let instructions: ChainTransaction['instructions'];
      try {
        instructions = message.instructions.map((i) => ({
          programId: accountKeys[i.programIdIndex] ?? '',
          accounts: i.accounts.map((a) => accountKeys[a] ?? ''),
          data: base58.decode(i.data),
        }));
      } catch (error) {
        throw new ChainUnavailable(
          'the Solana RPC answered getTransaction with instruction data that is not base58',
          'CHAIN_BAD_ANSWER',
          { cause: error },
        );
      }
      return {
        signature: sig,
        slot: tx.slot,
        blockTime: tx.blockTime ?? null,
        err: meta.err ?? null,
        accountKeys,
        preBalances: meta.preBalances,
        postBalances: meta.postBalances,
        preTokenBalances: balances(meta.preTokenBalances),
        postTokenBalances: balances(meta.postTokenBalances),
        instructions,
      };
    },

    async status(sig) {
      const { value } = await call(
        'getSignatureStatuses',
        [[sig], { searchTransactionHistory: true }],
        statusesSchema,
      );
      const found = value[0];
      if (!found) return 'unknown';
      if (found.err != null) return 'failed';
      return found.confirmationStatus ?? 'processed';
    },

    async latestBlockhash() {
      const { value } = await call(
        'getLatestBlockhash',
        [{ commitment: 'finalized' }],
        blockhashSchema,
      );
      return value;
    },

    async finalizedBlockHeight() {
      return call('getBlockHeight', [{ commitment: 'finalized' }], u64);
    },

    async tokenBalance(owner, mint) {
      let total = 0n;
      // Each program read on its own: a holder under Token-2022 is not a zero because its
      // accounts are not the first program's (the mint decides which program holds them).
      for (const programId of [TOKEN_PROGRAM, TOKEN_2022_PROGRAM]) {
        const { value } = await call(
          'getTokenAccountsByOwner',
          [
            owner,
            { programId },
            {
              commitment: 'finalized',
              encoding: 'base64',
              dataSlice: { offset: 0, length: TOKEN_ACCOUNT_HEAD },
            },
          ],
          tokenAccountsSchema,
        );
        for (const { account } of value) {
          if (account.owner !== programId) continue;
          const data = Buffer.from(account.data[0], 'base64');
          if (data.length < TOKEN_ACCOUNT_HEAD) {
            throw new ChainUnavailable(
              `the Solana RPC answered getTokenAccountsByOwner with ${data.length} bytes of a token account, fewer than its ${TOKEN_ACCOUNT_HEAD}`,
              'CHAIN_BAD_ANSWER',
            );
          }
          if (base58.encode(data.subarray(0, 32)) !== mint) continue;
          if (base58.encode(data.subarray(32, 64)) !== owner) continue;
          total += data.readBigUInt64LE(64);
        }
      }
      return total;
    },

    async tokenSupply(mint) {
      const { value } = await call(
        'getTokenSupply',
        [mint, { commitment: 'finalized' }],
        supplySchema,
      );
      return value;
    },
  };
}
