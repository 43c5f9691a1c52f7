import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { shortAddress } from '#shared/siws.ts';
import { freePort, REPO_ROOT, serverEnv } from '#test-support/node-process.ts';
import { installPageWallet } from '#test-support/page-wallet-script.ts';
import { sleep } from '#test-support/sleep.ts';
import { TestWallet } from '#test-support/test-wallet.ts';
import { addVirtualAuthenticator, signInViaApi, signUpViaApi, uniqueUsername } from './support';

// "Rehearse a week in ten minutes" (README, issue 42), followed in its order with the README's
// own commands: each shell line of the section is run as written, in processes of their own,
// but for the ports and folders a test must choose (the chain's port and data folder, the site's
// port, a data folder of the journey's own). The wallet is a test wallet registered through the
// Wallet Standard that sends to the local chain's RPC, as a browser wallet pointed at it would.

const PASSWORD = 'grind123';

/** The shell lines of the README's rehearsal, in order. */
function readmeSteps(): string[] {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('### Rehearse a week in ten minutes\n');
  const section = readme.slice(start, readme.indexOf('\n### ', start + 10));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) =>
    m[1]!
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  );
}

interface Running {
  child: ChildProcess;
  output: () => string;
}

const running: ChildProcess[] = [];
let work: string;

test.beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-rehearsal-'));
});
test.afterAll(async () => {
  for (const child of running) {
    // npm starts a shell that starts node: the whole process group goes.
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  }
  await sleep(500);
  fs.rmSync(work, { recursive: true, force: true });
});

/** `npm ...` as a line of the README, in a process group of its own. */
function npm(args: string[], env: Record<string, string>): Running {
  const child = spawn('npm', args, {
    cwd: REPO_ROOT,
    env: serverEnv(env),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function finished(run: Running): Promise<string> {
  const code = await new Promise<number | null>((resolve) => run.child.on('exit', resolve));
  expect(code, run.output()).toBe(0);
  return run.output();
}

async function until(what: string, check: () => Promise<boolean> | boolean, run: Running) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (run.child.exitCode !== null) throw new Error(`${what} exited:\n${run.output()}`);
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`${what} not ready:\n${run.output()}`);
}

test('an operator rehearses a week from the README: local chain, closed week, passkey, watch, approve, pay, burn', async ({
  browser,
}, testInfo) => {
  // Two processes start (the chain and the site) and a dozen commands run, each a Node start.
  test.setTimeout(300_000);
  const steps = readmeSteps();
  expect(steps).toEqual([
    'npm run chain:local',
    'export SOLANA_CLUSTER=localnet SOLANA_RPC_URL=http://127.0.0.1:8899 DATA_DIR=./data/rehearsal',
    'npm start',
    'export SOLANA_CLUSTER=localnet SOLANA_RPC_URL=http://127.0.0.1:8899 DATA_DIR=./data/rehearsal',
    'npm run admin -- rehearsal:week',
    'npm run admin -- users:role <you> admin',
    'npm run chain:local -- airdrop <your wallet> 5',
    'npm run chain:local -- burn 1000000',
    'npm run admin -- rehearsal:clear',
  ]);

  const chainPort = await freePort();
  const chainUrl = `http://127.0.0.1:${chainPort}`;
  const chainData = path.join(work, 'chain-local');
  const sitePort = await freePort();
  const site = `http://localhost:${sitePort}`;
  const you = uniqueUsername('operator');
  const wallet = new TestWallet();
  const env: Record<string, string> = { LOG_LEVEL: 'warn' };
  const outputs: string[] = [];

  /** One README line: `export` sets the shell's variables, the rest run as npm commands. */
  async function step(line: string): Promise<void> {
    if (line.startsWith('export ')) {
      for (const pair of line.slice(7).split(' ')) {
        const [name, value] = pair.split('=') as [string, string];
        // The test's own chain URL and data folder in place of the README's defaults.
        env[name] =
          { SOLANA_RPC_URL: chainUrl, DATA_DIR: path.join(work, 'rehearsal') }[name] ?? value;
      }
      return;
    }
    const args = line
      .replace('<you>', you)
      .replace('<your wallet>', wallet.address)
      .split(' ')
      .slice(1);
    if (args[1] === 'chain:local') {
      const chainArgs = args.includes('--') ? args : [...args, '--'];
      chainArgs.push('--data', chainData);
      if (args.length === 2) {
        // The chain itself, left running.
        const chain = npm([...chainArgs, '--port', String(chainPort)], {});
        running.push(chain.child);
        await until('npm run chain:local', () => chain.output().includes('Local chain'), chain);
        expect(chain.output()).toContain(`Local chain (LiteSVM) on ${chainUrl}`);
        return;
      }
      outputs.push(await finished(npm(chainArgs, { SOLANA_RPC_URL: chainUrl })));
      return;
    }
    if (args[0] === 'start') {
      const server = npm(args, { ...env, PORT: String(sitePort), HOST: '127.0.0.1' });
      running.push(server.child);
      await until(
        'npm start',
        () =>
          fetch(`http://127.0.0.1:${sitePort}/readyz`).then(
            (res) => res.ok,
            () => false,
          ),
        server,
      );
      return;
    }
    outputs.push(await finished(npm(args, env)));
  }
  const last = () => outputs.at(-1)!;
  /** What a chain:local command printed last: the transaction's signature. */
  const signature = () => last().trim().split('\n').at(-1)!;

  // 1-2: the local chain, and the site on it.
  await step(steps[0]!);
  await step(steps[1]!);
  await step(steps[2]!);
  const visitor = await browser.newPage({ baseURL: site });
  await visitor.goto('/#giveaway');
  const giveaway = visitor.locator('section#giveaway');
  await expect(giveaway.getByTestId('no-winners')).toBeVisible({ timeout: 30_000 });
  await expect(giveaway.getByTestId('cluster-badge')).toHaveText('Local chain: not real money');
  const panel = visitor.getByTestId('burn-panel');
  await expect(panel.locator('dd')).toHaveText(['1000M', '0', '0']);

  // 3: last week's board, and the operator made an admin after signing up.
  await step(steps[3]!);
  await step(steps[4]!);
  expect(last()).toMatch(/Rehearsal of \d{4}-W\d\d on the local chain: 3 demo members/);
  const winner = /Demo_Ada .* wallet (\w+) /.exec(last())![1]!;
  const context = await browser.newContext({ baseURL: site });
  const page = await context.newPage();
  await signUpViaApi(page, you, PASSWORD);
  await step(steps[5]!);
  await signInViaApi(page, you, PASSWORD);

  // 4: the operator's wallet gets test SOL; it lists the local chain. A second wallet with the
  // same key lists mainnet only, as Phantom would.
  await step(steps[6]!);
  expect(signature()).toMatch(/^\w{64,88}$/);
  await installPageWallet(page, wallet, 'Grind Test Wallet', chainUrl, {
    chains: ['solana:localnet'],
    others: [{ name: 'Mainnet Only Wallet', chains: ['solana:mainnet'] }],
  });

  // 5: passkey, watch, approve, pay.
  await addVirtualAuthenticator(page);
  await page.goto('/admin');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByTestId('cluster-badge')).toHaveText('Local chain: not real money');
  await page.getByRole('link', { name: 'Prize week' }).click();
  const card = page.getByTestId('prize-run').filter({ hasText: 'Demo_Ada' });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await card.getByRole('button', { name: 'Watch the replay' }).click();
  await card.getByLabel('Speed').selectOption('4');
  await expect(card.getByTestId('watch-state')).toHaveText('Replay watched to its end.', {
    timeout: 30_000,
  });
  await card.getByRole('button', { name: 'Approve' }).click();
  const state = page.getByTestId('payment-state');
  await expect(state).toContainText(`To pay: 1 SOL to ${shortAddress(winner)}`);

  await page.getByRole('button', { name: 'Connect Mainnet Only Wallet' }).click();
  await expect(page.getByTestId('wrong-chain')).toContainText(
    'Mainnet Only Wallet does not offer solana:localnet: this site pays on the local chain.',
  );
  await page.getByRole('button', { name: 'Choose another wallet' }).click();
  await page.getByRole('button', { name: 'Connect Grind Test Wallet' }).click();
  await page
    .getByRole('button', { name: `Pay 1 SOL from ${shortAddress(wallet.address)}` })
    .click();
  await expect(state).toContainText(
    `Paid 1 SOL to ${shortAddress(winner)}, verified on chain at finalized`,
    { timeout: 30_000 },
  );
  // The transaction on Solana Explorer, reading the local chain through its custom-RPC view.
  const custom = `?cluster=custom&customUrl=${encodeURIComponent(chainUrl)}`;
  const link = state.getByRole('link', { name: 'View the transaction' });
  expect(await link.getAttribute('href')).toMatch(
    new RegExp(`^https://explorer\\.solana\\.com/tx/\\w+${custom.replace(/[.?]/g, '\\$&')}$`),
  );
  await page.screenshot({ path: testInfo.outputPath('rehearsal-paid.png'), fullPage: true });

  // 6: a burn from the treasury, recorded on the Burns page.
  await step(steps[7]!);
  const burn = signature();
  await page.getByRole('link', { name: 'Burns' }).click();
  await page.getByLabel('Burn transaction signature').fill(burn);
  await page.getByRole('button', { name: 'Record the burn' }).click();
  await expect(page.getByTestId('burns-total')).toHaveText('Total burned: 1,000,000 tokens');

  // 7: the visitor's page changed in place: the winner, verified, and the burn.
  const listed = giveaway.getByTestId('winners').getByRole('listitem');
  await expect(listed).toContainText('Demo_Ada', { timeout: 15_000 });
  await expect(listed.getByTestId('winner-verified')).toContainText('Verified on chain');
  await expect(panel.locator('dd')).toHaveText(['999M', '1,000,000', '1,000,000']);
  await visitor.screenshot({ path: testInfo.outputPath('rehearsal-winners.png'), fullPage: true });
  await step(steps[8]!);
  expect(last()).toContain('Removed 3 demo members, 3 runs and 3 board entries.');
  await visitor.close();
  await context.close();
});
