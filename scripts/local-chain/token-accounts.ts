import {
  AccountState,
  getMintEncoder,
  getTokenEncoder,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { lamports, type Address } from '@solana/kit';
import type { SvmRpc } from './svm-rpc.ts';

/**
 * Token accounts written straight into a chain's runtime (base layouts, no extensions): a mint
 * at an address chosen beforehand (the site's contract address) needs no key of its own. The
 * tests' mints (tests/support/chain-transactions.ts) and `npm run chain:local`'s use these.
 */

function write(chain: SvmRpc, at: Address, program: Address, data: Uint8Array): void {
  chain.setAccount({
    address: at,
    data,
    executable: false,
    lamports: lamports(chain.svm.minimumBalanceForRentExemption(BigInt(data.length))),
    programAddress: program,
    space: BigInt(data.length),
  });
}

/** A mint of `program` (SPL Token by default) at `mint`, with no authority left. */
export function writeMint(
  chain: SvmRpc,
  mint: Address,
  options: { supply: bigint; decimals: number; program?: Address },
): void {
  const data = getMintEncoder().encode({
    mintAuthority: null,
    supply: options.supply,
    decimals: options.decimals,
    isInitialized: true,
    freezeAuthority: null,
  });
  write(chain, mint, options.program ?? TOKEN_PROGRAM_ADDRESS, new Uint8Array(data));
}

/** A token account at `at` of `owner`, holding `amount` of `mint`. */
export function writeTokenAccount(
  chain: SvmRpc,
  at: Address,
  options: { mint: Address; owner: Address; amount: bigint; program?: Address },
): void {
  const data = getTokenEncoder().encode({
    mint: options.mint,
    owner: options.owner,
    amount: options.amount,
    delegate: null,
    state: AccountState.Initialized,
    isNative: null,
    delegatedAmount: 0n,
    closeAuthority: null,
  });
  write(chain, at, options.program ?? TOKEN_PROGRAM_ADDRESS, new Uint8Array(data));
}
