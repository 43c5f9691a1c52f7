import type { ServerResponse } from 'node:http';
import { AccountState, getTokenEncoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { address, lamports, type Address } from '@solana/kit';
import { SvmRpc } from '../../scripts/local-chain/svm-rpc.ts';

/**
 * A Solana runtime in the test process (LiteSVM) behind a small JSON-RPC server, the same one
 * `npm run chain:local` serves (scripts/local-chain/svm-rpc.ts): transactions built with
 * @solana/kit and the program clients really execute, and the server under test reads them
 * through SOLANA_RPC_URL the way it reads a real RPC. A test can also hold a transaction below
 * `finalized` (`finalizeNew`), take the RPC down (HTTP 503), make it slow, or answer for it.
 */
export class TestChain extends SvmRpc {
  /** `down`: every call answers HTTP 503; `slow`: every call waits `slowMs` first. */
  mode: 'up' | 'down' | 'slow' = 'up';
  slowMs = 5_000;
  /**
   * A hostile or broken RPC: when it gives an answer for a method, that text is sent as the HTTP
   * body in place of the real answer (`{ bytes }`: that many bytes of a JSON string, streamed).
   */
  craft:
    ((method: string, params: unknown[]) => string | { bytes: number } | undefined) | undefined;

  protected override async intercept(
    method: string,
    id: unknown,
    params: unknown[],
    res: ServerResponse,
  ): Promise<boolean> {
    if (this.mode === 'down') {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
      return true;
    }
    if (this.mode === 'slow') await new Promise((r) => setTimeout(r, this.slowMs));
    if (res.destroyed) return true;
    const crafted = this.craft?.(method, params);
    if (crafted === undefined) return false;
    res.on('error', () => {});
    if (typeof crafted === 'string') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(crafted);
      return true;
    }
    // No content-length: the client learns the size only by reading.
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":"`);
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
    return true;
  }

  /**
   * Writes a token account straight into the runtime: `owner` holds `amount` of `mint` in the
   * account at `at`, owned by `program` (the first token program unless given).
   */
  holdTokens(
    mint: Address,
    owner: string,
    amount: bigint,
    at: Address,
    program: Address = TOKEN_PROGRAM_ADDRESS,
  ): void {
    const data = new Uint8Array(
      getTokenEncoder().encode({
        mint,
        owner: address(owner),
        amount,
        delegate: null,
        state: AccountState.Initialized,
        isNative: null,
        delegatedAmount: 0n,
        closeAuthority: null,
      }),
    );
    this.svm.setAccount({
      address: at,
      data,
      executable: false,
      lamports: lamports(this.svm.minimumBalanceForRentExemption(BigInt(data.length))),
      programAddress: program,
      space: BigInt(data.length),
    });
  }
}
