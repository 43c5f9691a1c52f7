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
  type Transaction,
} from '@solana/kit';
import { LiteSVM, TransactionMetadata } from 'litesvm';

const TOKEN_PROGRAMS = [
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
];

const MEMO_PROGRAMS = [
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
];

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
interface Landed {
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

/**
 * A Solana runtime in the test process (LiteSVM) behind a small JSON-RPC server: transactions
 * built with @solana/kit and the program clients really execute, and the server under test reads
 * them through SOLANA_RPC_URL the way it reads a real RPC. A test can hold a transaction below
 * `finalized`, take the RPC down (HTTP 503) or make it slow.
 */
export class TestChain {
  readonly svm = new LiteSVM();
  private readonly landed = new Map<string, Landed>();
  private readonly order: string[] = [];
  private server: Server | undefined;
  /** `down`: every call answers HTTP 503; `slow`: every call waits `slowMs` first. */
  mode: 'up' | 'down' | 'slow' = 'up';
  slowMs = 5_000;
  /** The next transactions land below `finalized` until this is set back to true. */
  finalizeNew = true;
  /** Every RPC method called, in order (a test can see that nothing was asked). */
  readonly calls: string[] = [];
  /** The most signatures one getSignaturesForAddress answers, whatever the limit asked. */
  signaturesPerPage = 1_000;
  /**
   * A hostile or broken RPC: when it gives an answer for a method, that text is sent as the HTTP
   * body in place of the real answer (`{ bytes }`: that many bytes of a JSON string, streamed).
   */
  craft:
    ((method: string, params: unknown[]) => string | { bytes: number } | undefined) | undefined;
  url = '';

  constructor(private readonly blockTime: () => number = () => Date.now()) {
    // LiteSVM 1.4 loads the token programs but not the memo program, and npm carries no build
    // of it: both memo addresses run a two-instruction program that accepts every memo.
    for (const memo of MEMO_PROGRAMS) this.svm.addProgram(address(memo), acceptingProgram());
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  airdrop(to: Address | string, amount: bigint): void {
    this.svm.airdrop(address(to), lamports(amount));
  }

  balance(of: Address | string): bigint {
    return this.svm.getBalance(address(of)) ?? 0n;
  }

  /** Executes a signed transaction and records it; its signature (landed even when it failed). */
  send(tx: Transaction): string {
    return this.sendWire(new Uint8Array(getTransactionEncoder().encode(tx)));
  }

  /** Moves the chain on `blocks` blocks (a blockhash lives for 150). */
  advance(blocks: number): void {
    this.svm.warpToSlot(this.svm.getClock().slot + BigInt(blocks));
  }

  /** Finalizes a transaction held below `finalized`. */
  finalize(signature: string): void {
    this.landed.get(signature)!.finalized = true;
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
    // Each transaction in its own slot, as on a real cluster.
    this.svm.warpToSlot(clock.slot + 1n);
    return signature;
  }

  private tokenBalances(keys: string[]): TokenBalance[] {
    return keys.flatMap((key, accountIndex) => {
      const account = this.svm.getAccount(address(key));
      if (!account.exists || !TOKEN_PROGRAMS.includes(account.programAddress)) return [];
      const data = account.data;
      if (data.length < 165) return [];
      const mint = base58.encode(data.slice(0, 32));
      const mintAccount = this.svm.getAccount(address(mint));
      const decimals = mintAccount.exists ? mintAccount.data[44]! : 0;
      const amount = new DataView(data.buffer, data.byteOffset).getBigUint64(64, true).toString();
      return [
        {
          accountIndex,
          mint,
          owner: base58.encode(data.slice(32, 64)),
          programId: account.programAddress,
          uiTokenAmount: { amount, decimals, uiAmount: null, uiAmountString: amount },
        },
      ];
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      id: number;
      method: string;
      params?: unknown[];
    };
    this.calls.push(body.method);
    if (this.mode === 'down') {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
      return;
    }
    if (this.mode === 'slow') await new Promise((r) => setTimeout(r, this.slowMs));
    if (res.destroyed) return;
    const crafted = this.craft?.(body.method, body.params ?? []);
    if (crafted !== undefined) {
      res.on('error', () => {});
      if (typeof crafted === 'string') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(crafted);
        return;
      }
      // No content-length: the client learns the size only by reading.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      res.write(`{"jsonrpc":"2.0","id":${body.id},"result":"`);
      for (let sent = 0; sent < crafted.bytes && !res.destroyed; sent += chunk.length) {
        if (!res.write(chunk)) {
          await new Promise<void>((resolve) => {
            const go = () => {
              res.off('drain', go).off('close', go);
              resolve();
            };
            res.on('drain', go).on('close', go);
          });
        }
      }
      if (!res.destroyed) res.end('"}');
      return;
    }
    let answer: { result: unknown } | { error: { code: number; message: string } };
    try {
      answer = { result: this.rpcAnswer(body.method, body.params ?? []) };
    } catch (error) {
      answer = { error: { code: -32602, message: (error as Error).message } };
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

  /** The result an honest RPC gives (a crafted answer can start from it). */
  rpcAnswer(method: string, params: unknown[]): unknown {
    const config = (params[1] ?? {}) as Record<string, unknown>;
    const slot = Number(this.svm.getClock().slot);
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
        if (config.encoding !== 'json') throw new Error('the test RPC answers encoding json only');
        return {
          slot: tx.slot,
          blockTime: tx.blockTime,
          version: tx.version,
          meta: {
            err: tx.err,
            status: tx.err === null ? { Ok: null } : { Err: tx.err },
            fee: 5000,
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
          context: { slot },
          value: signatures.map((s) => {
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
          context: { slot },
          value: { blockhash: this.svm.latestBlockhash(), lastValidBlockHeight: slot + 150 },
        };
      case 'getBalance':
        return { context: { slot }, value: Number(this.balance(params[0] as string)) };
      case 'sendTransaction': {
        const wire = new Uint8Array(getBase64Encoder().encode(params[0] as string));
        const signature = this.sendWire(wire);
        const tx = this.landed.get(signature)!;
        if (tx.err !== null)
          throw new Error(`Transaction simulation failed: ${JSON.stringify(tx.err)}`);
        return signature;
      }
      case 'getTokenSupply': {
        const mint = this.svm.getAccount(address(params[0] as string));
        if (!mint.exists || mint.data.length < 82) throw new Error('not a mint');
        const view = new DataView(mint.data.buffer, mint.data.byteOffset);
        const amount = view.getBigUint64(36, true).toString();
        const decimals = mint.data[44]!;
        return {
          context: { slot },
          value: { amount, decimals, uiAmount: null, uiAmountString: amount },
        };
      }
      // One block per slot: the block height is the slot, at every commitment.
      case 'getSlot':
      case 'getBlockHeight':
        return slot;
      default:
        throw new Error(`the test RPC does not answer ${method}`);
    }
  }
}
