/**
 * `npm run chain:local`: a Solana chain on this machine for rehearsing a week (README, "Rehearse a
 * week in ten minutes"): LiteSVM behind a JSON-RPC server on 127.0.0.1:8899 (scripts/local-chain),
 * a treasury with 1,000 SOL, and the site's token (SITE_CONFIG's contract address) minted with
 * its whole supply in the treasury. Its state is saved in the data folder after every change and
 * picked up by the next start.
 *
 *   npm run chain:local [-- --port 8899] [--data ./data/chain-local] [--fresh]
 *   npm run chain:local -- airdrop <address> <sol>    SOL to any wallet (the payer's, say)
 *   npm run chain:local -- burn <tokens>               the treasury burns tokens of the site's mint
 *
 * The two commands talk to the running chain at SOLANA_RPC_URL (default 127.0.0.1:8899) and print
 * the transaction's signature; `burn` signs with the treasury key in the data folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getBurnCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Blockhash,
} from '@solana/kit';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { LOCALNET_RPC_URL } from '#shared/solana-cluster.ts';
import { loadSiteConfig } from '#server/site/load-site-config.ts';
import { SvmRpc, type ChainState } from './local-chain/svm-rpc.ts';
import { writeMint, writeTokenAccount } from './local-chain/token-accounts.ts';

const LAMPORTS_PER_SOL = 10n ** 9n;
const TREASURY_SOL = 1_000n;
const DECIMALS = 6;

const USAGE = [
  'Usage: npm run chain:local [-- --port 8899] [--data ./data/chain-local] [--fresh]',
  '       npm run chain:local -- airdrop <address> <sol>',
  '       npm run chain:local -- burn <tokens>',
].join('\n');

class Refusal extends Error {}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: {
        port: { type: 'string', default: '8899' },
        data: { type: 'string', default: './data/chain-local' },
        fresh: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
})();

const dataDir = path.resolve(values.data);
const treasuryFile = path.join(dataDir, 'treasury.json');
const stateFile = path.join(dataDir, 'state.json');
const rpcUrl = process.env.SOLANA_RPC_URL || LOCALNET_RPC_URL;

/** The treasury's key, in solana-keygen's format (64 bytes: secret, then public), made once. */
function treasuryKey(): Uint8Array {
  if (fs.existsSync(treasuryFile)) {
    return Uint8Array.from(JSON.parse(fs.readFileSync(treasuryFile, 'utf8')) as number[]);
  }
  const { secretKey, publicKey } = ed25519.keygen();
  const pair = new Uint8Array([...secretKey, ...publicKey]);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(treasuryFile, JSON.stringify([...pair]), { mode: 0o600 });
  return pair;
}

/** One JSON-RPC call to the running chain. */
async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  let res: Response;
  try {
    res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
  } catch {
    throw new Refusal(`No chain answers at ${rpcUrl}: start it with npm run chain:local first.`);
  }
  const answer = (await res.json()) as { result?: T; error?: { message: string } };
  if (answer.error) throw new Refusal(`${method}: ${answer.error.message}`);
  return answer.result as T;
}

/** A number of `decimals` places at most ("0.5" SOL, "1000" tokens) in base units, above 0. */
function baseUnits(text: string | undefined, decimals: number, what: string): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text ?? '');
  const units = match
    ? BigInt(match[1]!) * 10n ** BigInt(decimals) +
      BigInt((match[2] ?? '').padEnd(decimals, '0').slice(0, decimals) || '0')
    : 0n;
  if (units === 0n) {
    throw new Refusal(`${what} must be a number above 0 (got ${JSON.stringify(text ?? '')})`);
  }
  return units;
}

async function airdrop(to: string | undefined, sol: string | undefined): Promise<void> {
  if (to === undefined) throw new Refusal(USAGE);
  const amount = baseUnits(sol, 9, '<sol>');
  const signature = await rpc<string>('requestAirdrop', [to, Number(amount)]);
  console.log(signature);
}

async function burn(tokens: string | undefined): Promise<void> {
  const amount = baseUnits(tokens, DECIMALS, '<tokens>');
  if (!fs.existsSync(treasuryFile)) {
    throw new Refusal(`No treasury key in ${dataDir}: burn from the folder chain:local runs with.`);
  }
  const treasury = await createKeyPairSignerFromBytes(treasuryKey());
  const mint = siteMint();
  const { value: accounts } = await rpc<{ value: { pubkey: string }[] }>(
    'getTokenAccountsByOwner',
    [treasury.address, { mint }, { encoding: 'base64' }],
  );
  const account = accounts[0]?.pubkey;
  if (account === undefined) throw new Refusal(`The treasury holds no ${mint} on ${rpcUrl}.`);
  const { value: lifetime } = await rpc<{
    value: { blockhash: string; lastValidBlockHeight: number };
  }>('getLatestBlockhash', []);
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(treasury, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        {
          blockhash: lifetime.blockhash as Blockhash,
          lastValidBlockHeight: BigInt(lifetime.lastValidBlockHeight),
        },
        m,
      ),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getBurnCheckedInstruction({
            account: address(account),
            mint: address(mint),
            authority: treasury,
            amount,
            decimals: DECIMALS,
          }),
        ],
        m,
      ),
  );
  const tx = await signTransactionMessageWithSigners(message);
  console.log(
    await rpc<string>('sendTransaction', [
      getBase64EncodedWireTransaction(tx),
      { encoding: 'base64' },
    ]),
  );
}

/** The site's token: SITE_CONFIG's contract address, as the site reads it. */
function siteMint(): string {
  const site = loadSiteConfig(process.env.SITE_CONFIG, { cluster: 'localnet', rpcUrl });
  if (site.contractAddress === '') {
    throw new Refusal(
      'The site has no contract address (pre-launch): set contractAddress in SITE_CONFIG to rehearse burns.',
    );
  }
  return site.contractAddress;
}

function readState(): ChainState | undefined {
  if (values.fresh || !fs.existsSync(stateFile)) return undefined;
  return JSON.parse(fs.readFileSync(stateFile, 'utf8')) as ChainState;
}

/** Saves the state after each change, whole and at once (a crash leaves the last one). */
function saveState(chain: SvmRpc): void {
  const temporary = `${stateFile}.${process.pid}`;
  fs.writeFileSync(temporary, JSON.stringify(chain.state()));
  fs.renameSync(temporary, stateFile);
}

async function serve(): Promise<void> {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Refusal(USAGE);
  const mint = siteMint();
  fs.mkdirSync(dataDir, { recursive: true });
  const treasury = await createKeyPairSignerFromBytes(treasuryKey());
  const chain = new SvmRpc();
  const saved = readState();
  if (saved) {
    chain.restore(saved);
  } else {
    chain.airdrop(treasury.address, TREASURY_SOL * LAMPORTS_PER_SOL);
    const supply = BigInt(
      loadSiteConfig(process.env.SITE_CONFIG, { cluster: 'localnet', rpcUrl }).tokenomics
        .totalSupply,
    );
    const amount = supply * 10n ** BigInt(DECIMALS);
    writeMint(chain, address(mint), { supply: amount, decimals: DECIMALS });
    const holding = base58.encode(ed25519.keygen().publicKey);
    writeTokenAccount(chain, address(holding), {
      mint: address(mint),
      owner: treasury.address,
      amount,
      program: TOKEN_PROGRAM_ADDRESS,
    });
    saveState(chain);
  }
  chain.onChange = () => saveState(chain);
  let url: string;
  try {
    url = await chain.start(port, '127.0.0.1');
  } catch (error) {
    throw new Refusal(
      `Cannot listen on 127.0.0.1:${port} (${(error as NodeJS.ErrnoException).code}): another chain (or solana-test-validator) may be running; --port picks another.`,
    );
  }
  const sol = Number(chain.balance(treasury.address)) / Number(LAMPORTS_PER_SOL);
  const inside = path.relative(process.cwd(), dataDir);
  const relative = inside === '' ? '.' : inside.startsWith('..') ? dataDir : inside;
  console.log(`Local chain (LiteSVM) on ${url}`);
  console.log(`  treasury  ${treasury.address}: ${sol} SOL (its key: ${relative}/treasury.json)`);
  console.log(`  token     ${mint} (the site's contract address), its supply in the treasury`);
  console.log(
    saved
      ? `  state     picked up from ${relative} (${saved.landed.length} transaction(s)); saved after every change (--fresh starts over)`
      : `  state     saved in ${relative} after every change; a restart picks it up (--fresh starts over)`,
  );
  console.log(`Start the site with SOLANA_CLUSTER=localnet SOLANA_RPC_URL=${url}`);
  const stop = () => void chain.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

const [command, ...args] = positionals;
try {
  if (values.help) console.log(USAGE);
  else if (command === undefined) await serve();
  else if (command === 'airdrop' && args.length === 2) await airdrop(args[0], args[1]);
  else if (command === 'burn' && args.length === 1) await burn(args[0]);
  else {
    console.error(USAGE);
    process.exitCode = 2;
  }
} catch (error) {
  if (!(error instanceof Refusal)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
