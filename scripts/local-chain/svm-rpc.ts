import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base58 } from '@scure/base';
import {
  address,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  getTransactionEncoder,
  lamports,
  type Address,
  type EncodedAccount,
  type Transaction,
} from '@solana/kit';
import { LiteSVM, TransactionMetadata } from 'litesvm';

/**
 * A Solana runtime (LiteSVM) behind a JSON-RPC server: the one implementation behind the tests'
 * chain (tests/support/test-chain.ts) and `npm run chain:local` (scripts/chain-local.ts).
 * Transactions really execute; an RPC client (the site's server, a wallet pointed at a custom
 * RPC, @solana/kit) reads them the way it reads a cluster. One block per slot, every transaction
 * in a slot of its own, finalized at once unless `finalizeNew` says otherwise.
 */

const TOKEN_PROGRAMS = [
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
];

const MEMO_PROGRAMS = [
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
];

const LOCAL_GENESIS_HASH = base58.encode(createHash('sha256').update('chain:local').digest());

/** What a signature costs, as on every cluster today. */
const LAMPORTS_PER_SIGNATURE = 5_000;

/**
 * The smallest program the runtime loads: an ELF (ET_DYN, EM_BPF) whose .text is
 * `mov64 r0, 0; exit`, so every call succeeds.
 */
function acceptingProgram(): Uint8Array {
  const text = [0xb7, 0, 0, 0, 0, 0, 0, 0, 0x95, 0, 0, 0, 0, 0, 0, 0];
  const names = Buffer.from('\0.text\0.shstrtab\0', 'latin1');
  const [textAt, namesAt, sectionsAt] = [0x40, 0x50, 0x68];
  const elf = Buffer.alloc(sectionsAt + 64 * 3);
  elf.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0], 0);
  elf.writeUInt16LE(3, 16); // ET_DYN
  elf.writeUInt16LE(247, 18); // EM_BPF
  elf.writeUInt32LE(1, 20);
  elf.writeBigUInt64LE(BigInt(textAt), 24); // entry point
  elf.writeBigUInt64LE(BigInt(sectionsAt), 40);
  elf.writeUInt16LE(64, 52);
  elf.writeUInt16LE(56, 54);
  elf.writeUInt16LE(64, 58);
  elf.writeUInt16LE(3, 60); // null, .text, .shstrtab
  elf.writeUInt16LE(2, 62);
  elf.set(text, textAt);
  names.copy(elf, namesAt);
  const section = (
    i: number,
    name: number,
    type: number,
    flags: number,
    at: number,
    size: number,
  ) => {
    const o = sectionsAt + 64 * i;
    elf.writeUInt32LE(name, o);
    elf.writeUInt32LE(type, o + 4);
    elf.writeBigUInt64LE(BigInt(flags), o + 8);
    elf.writeBigUInt64LE(BigInt(type === 1 ? at : 0), o + 16);
    elf.writeBigUInt64LE(BigInt(at), o + 24);
    elf.writeBigUInt64LE(BigInt(size), o + 32);
    elf.writeBigUInt64LE(type === 1 ? 8n : 1n, o + 48);
  };
  section(1, 1, 1, 6, textAt, text.length); // PROGBITS, ALLOC | EXECINSTR
  section(2, 7, 3, 0, namesAt, names.length); // STRTAB
  return new Uint8Array(elf);
}

interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: { amount: string; decimals: number; uiAmount: null; uiAmountString: string };
}

/** One transaction as LiteSVM executed it, with what an RPC node reports about it. */
export interface Landed {
  signature: string;
  slot: number;
  blockTime: number;
  err: unknown;
  finalized: boolean;
  accountKeys: string[];
  header: {
    numRequiredSignatures: number;
    numReadonlySignedAccounts: number;
    numReadonlyUnsignedAccounts: number;
  };
  recentBlockhash: string;
  instructions: { programIdIndex: number; accounts: number[]; data: string }[];
  version: 'legacy' | 0;
  signatures: string[];
  preBalances: number[];
  postBalances: number[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  logs: string[];
}

/** An account as the chain's saved state holds it (data in base64). */
interface SavedAccount {
  address: string;
  lamports: string;
  owner: string;
  executable: boolean;
  data: string;
}

/** Everything needed to bring a chain back after a restart (scripts/chain-local.ts saves it). */
export interface ChainState {
  slot: string;
  accounts: SavedAccount[];
  landed: Landed[];
  airdrops: { signature: string; slot: number }[];
}

/** A JSON-RPC error with its code, answered as `{ error }`. */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const INVALID_PARAMS = -32602;

export class SvmRpc {
  readonly svm = new LiteSVM();
  protected readonly landed = new Map<string, Landed>();
  protected readonly order: string[] = [];
  private readonly airdrops = new Map<string, number>();
  /** Every address an account was written to or a transaction named: what a saved state holds. */
  private readonly touched = new Set<string>();
  private server: Server | undefined;
  /** The next transactions land below `finalized` until this is set back to true. */
  finalizeNew = true;
  /** Every RPC method called, in order (a test can see that nothing was asked). */
  readonly calls: string[] = [];
  /** The most signatures one getSignaturesForAddress answers, whatever the limit asked. */
  signaturesPerPage = 1_000;
  /** Called after every change of state (a transaction, an airdrop, an account written). */
  onChange: (() => void) | undefined;
  url = '';

  constructor(private readonly blockTime: () => number = () => Date.now()) {
    // LiteSVM 1.4 loads the token programs but not the memo program, and npm carries no build
    // of it: both memo addresses run a two-instruction program that accepts every memo.
    for (const memo of MEMO_PROGRAMS) this.svm.addProgram(address(memo), acceptingProgram());
  }

  /** Listens on `port` (0: any free one) of `host`; resolves to the RPC's URL. */
  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, resolve);
    });
    this.url = `http://${host}:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** Gives `to` lamports out of nothing; the airdrop's signature. */
  airdrop(to: Address | string, amount: bigint): string {
    const result = this.svm.airdrop(address(to), lamports(amount));
    if (!(result instanceof TransactionMetadata)) {
      throw new Error(`the airdrop to ${to} failed${result ? `: ${String(result.err())}` : ''}`);
    }
    const signature = base58.encode(result.signature());
    this.airdrops.set(signature, Number(this.svm.getClock().slot));
    this.touched.add(String(to));
    this.changed();
    return signature;
  }

  balance(of: Address | string): bigint {
    return this.svm.getBalance(address(of)) ?? 0n;
  }

  /** Writes an account straight into the runtime (a mint, a token account). */
  setAccount(account: EncodedAccount): void {
    this.svm.setAccount(account);
    this.touched.add(account.address);
    this.changed();
  }

  /** Executes a signed transaction and records it; its signature (landed even when it failed). */
  send(tx: Transaction): string {
    return this.sendWire(new Uint8Array(getTransactionEncoder().encode(tx)));
  }

  /** Moves the chain on `blocks` blocks (a blockhash lives for 150). */
  advance(blocks: number): void {
    this.svm.warpToSlot(this.svm.getClock().slot + BigInt(blocks));
    this.changed();
  }

  /** Finalizes a transaction held below `finalized`. */
  finalize(signature: string): void {
    this.landed.get(signature)!.finalized = true;
    this.changed();
  }

  /** What a restart needs: the slot, every account the chain touched, every transaction. */
  state(): ChainState {
    const accounts: SavedAccount[] = [];
    for (const at of this.touched) {
      const account = this.svm.getAccount(address(at));
      if (!account.exists || account.executable) continue;
      accounts.push({
        address: at,
        lamports: String(account.lamports),
        owner: account.programAddress,
        executable: false,
        data: Buffer.from(account.data).toString('base64'),
      });
    }
    return {
      slot: String(this.svm.getClock().slot),
      accounts,
      landed: this.order.map((s) => this.landed.get(s)!),
      airdrops: [...this.airdrops].map(([signature, slot]) => ({ signature, slot })),
    };
  }

  /** Brings a saved state back (into a fresh chain). */
  restore(state: ChainState): void {
    for (const saved of state.accounts) {
      const data = new Uint8Array(Buffer.from(saved.data, 'base64'));
      this.svm.setAccount({
        address: address(saved.address),
        data,
        executable: false,
        lamports: lamports(BigInt(saved.lamports)),
        programAddress: address(saved.owner),
        space: BigInt(data.length),
      });
      this.touched.add(saved.address);
    }
    for (const tx of state.landed) {
      this.landed.set(tx.signature, tx);
      this.order.push(tx.signature);
    }
    for (const { signature, slot } of state.airdrops) this.airdrops.set(signature, slot);
    this.svm.warpToSlot(BigInt(state.slot));
  }

  private changed(): void {
    this.onChange?.();
  }

  private sendWire(wire: Uint8Array): string {
    const decoded = getTransactionDecoder().decode(wire);
    const message = getCompiledTransactionMessageDecoder().decode(decoded.messageBytes);
    const accountKeys = message.staticAccounts.map(String);
    const signature = base58.encode(Object.values(decoded.signatures)[0]!);
    const preBalances = accountKeys.map((k) => Number(this.balance(k)));
    const preTokenBalances = this.tokenBalances(accountKeys);
    const result = this.svm.sendTransaction(decoded);
    const failed = !(result instanceof TransactionMetadata);
    const meta = failed ? result.meta() : result;
    const clock = this.svm.getClock();
    this.landed.set(signature, {
      signature,
      slot: Number(clock.slot),
      blockTime: Math.floor(this.blockTime() / 1000),
      err: failed ? { InstructionError: [0, String(result.err())] } : null,
      finalized: this.finalizeNew,
      accountKeys,
      header: {
        numRequiredSignatures: message.header.numSignerAccounts,
        numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
      },
      recentBlockhash: message.lifetimeToken,
      instructions: ('instructions' in message ? message.instructions : []).map((i) => ({
        programIdIndex: i.programAddressIndex,
        accounts: [...(i.accountIndices ?? [])],
        data: base58.encode(new Uint8Array(i.data ?? new Uint8Array())),
      })),
      version: message.version === 'legacy' ? 'legacy' : 0,
      signatures: Object.values(decoded.signatures).map((s) => base58.encode(s!)),
      preBalances,
      postBalances: accountKeys.map((k) => Number(this.balance(k))),
      preTokenBalances,
      postTokenBalances: this.tokenBalances(accountKeys),
      logs: meta.logs(),
    });
    this.order.push(signature);
    for (const key of accountKeys) this.touched.add(key);
    // Each transaction in its own slot, as on a real cluster.
    this.svm.warpToSlot(clock.slot + 1n);
    this.changed();
    return signature;
  }

  /** The token account at `at` (SPL Token or Token-2022 base layout), or undefined. */
  private tokenAccount(at: string) {
    const account = this.svm.getAccount(address(at));
    if (!account.exists || !TOKEN_PROGRAMS.includes(account.programAddress)) return undefined;
    const data = account.data;
    if (data.length < 165) return undefined;
    const mint = base58.encode(data.slice(0, 32));
    const mintAccount = this.svm.getAccount(address(mint));
    return {
      mint,
      owner: base58.encode(data.slice(32, 64)),
      programId: account.programAddress as string,
      decimals: mintAccount.exists ? mintAccount.data[44]! : 0,
      amount: new DataView(data.buffer, data.byteOffset).getBigUint64(64, true).toString(),
    };
  }

  private tokenBalances(keys: string[]): TokenBalance[] {
    return keys.flatMap((key, accountIndex) => {
      const token = this.tokenAccount(key);
      if (!token) return [];
      const { mint, owner, programId, decimals, amount } = token;
      return [
        {
          accountIndex,
          mint,
          owner,
          programId,
          uiTokenAmount: { amount, decimals, uiAmount: null, uiAmountString: amount },
        },
      ];
    });
  }

  /**
   * A test's chance to answer a call itself (an RPC that is down, slow or hostile): true when it
   * did. The tests' chain overrides it; the local chain answers every call honestly.
   */
  protected async intercept(
    _method: string,
    _id: unknown,
    _params: unknown[],
    _res: ServerResponse,
  ): Promise<boolean> {
    return false;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    // A browser's wallet pointed at this RPC asks across origins first.
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', 'content-type, solana-client');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    let body: { id: unknown; method: string; params?: unknown[] };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
    } catch {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32700, message: 'Parse error' },
          }),
        );
      return;
    }
    this.calls.push(body.method);
    if (await this.intercept(body.method, body.id, body.params ?? [], res)) return;
    let answer: { result: unknown } | { error: { code: number; message: string } };
    try {
      answer = { result: this.rpcAnswer(body.method, body.params ?? []) };
    } catch (error) {
      answer = {
        error: {
          code: error instanceof RpcError ? error.code : INVALID_PARAMS,
          message: (error as Error).message,
        },
      };
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id: body.id, ...answer }));
  }

  private visible(tx: Landed | undefined, commitment: unknown): tx is Landed {
    // A real RPC's default commitment is finalized, and @solana/kit leaves it out when asked for.
    return (
      tx !== undefined && (tx.finalized || (commitment !== undefined && commitment !== 'finalized'))
    );
  }

  /** A transaction sent over RPC: base64, or base58 (the RPC's default encoding). */
  private wireOf(text: unknown, config: Record<string, unknown>): Uint8Array {
    if (typeof text !== 'string') throw new Error('the transaction must be a string');
    return config.encoding === 'base64'
      ? new Uint8Array(getBase64Encoder().encode(text))
      : base58.decode(text);
  }

  /** An account in the RPC's shape (`base64` data, or jsonParsed for a token account). */
  private accountView(at: string, encoding: unknown) {
    const account = this.svm.getAccount(address(at));
    if (!account.exists) return null;
    const token = encoding === 'jsonParsed' ? this.tokenAccount(at) : undefined;
    const data = token
      ? {
          program: token.programId === TOKEN_PROGRAMS[0] ? 'spl-token' : 'spl-token-2022',
          parsed: {
            type: 'account',
            info: {
              isNative: false,
              mint: token.mint,
              owner: token.owner,
              state: 'initialized',
              tokenAmount: this.uiAmount(token.amount, token.decimals),
            },
          },
          space: account.data.length,
        }
      : [Buffer.from(account.data).toString('base64'), 'base64'];
    return {
      lamports: Number(account.lamports),
      owner: account.programAddress,
      data,
      executable: account.executable,
      rentEpoch: 0,
      space: account.data.length,
    };
  }

  private uiAmount(amount: string, decimals: number) {
    const whole = Number(amount) / 10 ** decimals;
    return { amount, decimals, uiAmount: whole, uiAmountString: String(whole) };
  }

  /** The result an honest RPC gives (a crafted answer can start from it). */
  rpcAnswer(method: string, params: unknown[]): unknown {
    const config = (params[1] ?? {}) as Record<string, unknown>;
    const slot = Number(this.svm.getClock().slot);
    const context = { slot, apiVersion: '2.2.0' };
    switch (method) {
      case 'getSignaturesForAddress': {
        const account = params[0] as string;
        const naming = this.order
          .map((s) => this.landed.get(s)!)
          .filter((tx) => this.visible(tx, config.commitment) && tx.accountKeys.includes(account))
          .reverse();
        const from =
          typeof config.before === 'string'
            ? naming.findIndex((tx) => tx.signature === config.before) + 1
            : 0;
        return naming
          .slice(from)
          .slice(0, Math.min(Number(config.limit ?? 1000), this.signaturesPerPage))
          .map((tx) => ({
            signature: tx.signature,
            slot: tx.slot,
            err: tx.err,
            memo: null,
            blockTime: tx.blockTime,
            confirmationStatus: tx.finalized ? 'finalized' : 'confirmed',
          }));
      }
      case 'getTransaction': {
        const tx = this.landed.get(params[0] as string);
        if (!this.visible(tx, config.commitment)) return null;
        if (config.encoding !== 'json' && config.encoding !== 'jsonParsed') {
          throw new Error('this RPC answers getTransaction in encoding json only');
        }
        return {
          slot: tx.slot,
          blockTime: tx.blockTime,
          version: tx.version,
          meta: {
            err: tx.err,
            status: tx.err === null ? { Ok: null } : { Err: tx.err },
            fee: LAMPORTS_PER_SIGNATURE * tx.signatures.length,
            preBalances: tx.preBalances,
            postBalances: tx.postBalances,
            preTokenBalances: tx.preTokenBalances,
            postTokenBalances: tx.postTokenBalances,
            innerInstructions: [],
            logMessages: tx.logs,
            rewards: [],
            loadedAddresses: { writable: [], readonly: [] },
            computeUnitsConsumed: 0,
          },
          transaction: {
            signatures: tx.signatures,
            message: {
              header: tx.header,
              accountKeys: tx.accountKeys,
              recentBlockhash: tx.recentBlockhash,
              instructions: tx.instructions.map((i) => ({ ...i, stackHeight: null })),
            },
          },
        };
      }
      case 'getSignatureStatuses': {
        const signatures = params[0] as string[];
        return {
          context,
          value: signatures.map((s) => {
            const airdropSlot = this.airdrops.get(s);
            if (airdropSlot !== undefined) {
              const done = { Ok: null };
              return {
                slot: airdropSlot,
                confirmations: null,
                err: null,
                status: done,
                confirmationStatus: 'finalized',
              };
            }
            const tx = this.landed.get(s);
            if (!tx) return null;
            return {
              slot: tx.slot,
              confirmations: tx.finalized ? null : 1,
              err: tx.err,
              status: tx.err === null ? { Ok: null } : { Err: tx.err },
              confirmationStatus: tx.finalized ? 'finalized' : 'confirmed',
            };
          }),
        };
      }
      case 'getLatestBlockhash':
        return {
          context,
          value: { blockhash: this.svm.latestBlockhash(), lastValidBlockHeight: slot + 150 },
        };
      case 'isBlockhashValid':
        return { context, value: params[0] === this.svm.latestBlockhash() };
      case 'getBalance':
        return { context, value: Number(this.balance(params[0] as string)) };
      case 'getAccountInfo':
        return { context, value: this.accountView(params[0] as string, config.encoding) };
      case 'getMultipleAccounts':
        return {
          context,
          value: (params[0] as string[]).map((at) => this.accountView(at, config.encoding)),
        };
      case 'getTokenAccountsByOwner': {
        const owner = params[0] as string;
        const filter = (params[1] ?? {}) as { mint?: string; programId?: string };
        const encoding = ((params[2] ?? {}) as Record<string, unknown>).encoding;
        const programs = filter.programId ? [filter.programId] : TOKEN_PROGRAMS;
        const value = programs.flatMap((program) =>
          this.svm
            .getProgramAccounts(address(program))
            .map((account) => ({
              at: account.address as string,
              token: this.tokenAccount(account.address),
            }))
            .filter(
              ({ token }) =>
                token !== undefined &&
                token.owner === owner &&
                (filter.mint === undefined || token.mint === filter.mint),
            )
            .map(({ at }) => ({ pubkey: at, account: this.accountView(at, encoding) })),
        );
        return { context, value };
      }
      case 'getTokenAccountBalance': {
        const token = this.tokenAccount(params[0] as string);
        if (!token) throw new RpcError(INVALID_PARAMS, 'not a token account');
        return { context, value: this.uiAmount(token.amount, token.decimals) };
      }
      case 'sendTransaction': {
        const signature = this.sendWire(this.wireOf(params[0], config));
        const tx = this.landed.get(signature)!;
        if (tx.err !== null) {
          throw new RpcError(-32002, `Transaction simulation failed: ${JSON.stringify(tx.err)}`);
        }
        return signature;
      }
      case 'simulateTransaction': {
        const decoded = getTransactionDecoder().decode(this.wireOf(params[0], config));
        // The RPC's default: wallets simulate before they sign.
        const verify = config.sigVerify === true;
        this.svm.withSigverify(verify);
        try {
          const result = this.svm.simulateTransaction(decoded);
          const failed = !('postAccounts' in result);
          const meta = result.meta();
          return {
            context,
            value: {
              err: failed ? { InstructionError: [0, String(result.err())] } : null,
              logs: meta.logs(),
              accounts: null,
              unitsConsumed: Number(meta.computeUnitsConsumed()),
              returnData: null,
            },
          };
        } finally {
          this.svm.withSigverify(true);
        }
      }
      case 'requestAirdrop':
        return this.airdrop(params[0] as string, BigInt(params[1] as number));
      case 'getMinimumBalanceForRentExemption':
        return Number(this.svm.minimumBalanceForRentExemption(BigInt(params[0] as number)));
      case 'getFeeForMessage': {
        const message = Buffer.from(params[0] as string, 'base64');
        // A versioned message starts with 0x80 | version; the header's first byte follows.
        const signers = message[0]! & 0x80 ? message[1]! : message[0]!;
        return { context, value: LAMPORTS_PER_SIGNATURE * signers };
      }
      case 'getTokenSupply': {
        const mint = this.svm.getAccount(address(params[0] as string));
        if (!mint.exists || mint.data.length < 82) throw new RpcError(INVALID_PARAMS, 'not a mint');
        const view = new DataView(mint.data.buffer, mint.data.byteOffset);
        const amount = view.getBigUint64(36, true).toString();
        const decimals = mint.data[44]!;
        return {
          context,
          value: { amount, decimals, uiAmount: null, uiAmountString: amount },
        };
      }
      case 'getVersion':
        return { 'solana-core': '2.2.0', 'feature-set': 0 };
      case 'getHealth':
        return 'ok';
      case 'getGenesisHash':
        // No real cluster's: wallets that tell clusters apart by it see a local one.
        return LOCAL_GENESIS_HASH;
      case 'getEpochInfo':
        return {
          absoluteSlot: slot,
          blockHeight: slot,
          epoch: 0,
          slotIndex: slot,
          slotsInEpoch: 432_000,
          transactionCount: this.order.length,
        };
      case 'getRecentPrioritizationFees':
        return [];
      // One block per slot: the block height is the slot, at every commitment.
      case 'getSlot':
      case 'getBlockHeight':
        return slot;
      default:
        throw new RpcError(-32601, `Method not found: this RPC does not answer ${method}`);
    }
  }
}
