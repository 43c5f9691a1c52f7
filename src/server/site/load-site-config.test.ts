import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { explorerTokenUrl, explorerTxUrl } from '#shared/explorer-links.ts';
import { defaultSite } from '#shared/site.ts';
import { ConfigError } from '../config.ts';
import { loadSiteConfig } from './load-site-config.ts';
import { errorThrownBy } from '#test-support/thrown.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-site-config-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, text);
  return target;
}

const MAINNET = { cluster: 'mainnet-beta', rpcUrl: undefined } as const;

const failureOf = (target: string) =>
  errorThrownBy(() => loadSiteConfig(target, MAINNET), ConfigError).message;

describe('loadSiteConfig', () => {
  it('gives the defaults when no file is named', () => {
    expect(loadSiteConfig(undefined, MAINNET)).toBe(defaultSite);
  });

  it('merges the file over the defaults', () => {
    const site = loadSiteConfig(
      file('ok.json', JSON.stringify({ brand: 'Night Shift', contractAddress: '' })),
      MAINNET,
    );
    expect(site.brand).toBe('Night Shift');
    expect(site.contractAddress).toBe('');
    expect(site.ticker).toBe(defaultSite.ticker);
  });

  it('stops with one line naming the file and every bad field', () => {
    const target = file(
      'bad.json',
      JSON.stringify({ brand: '', links: { x: 'javascript:alert(1)' } }),
    );
    const message = failureOf(target);
    expect(message).not.toContain('\n');
    expect(message).toBe(
      `Invalid SITE_CONFIG (${target}): brand: Too small: expected string to have >=1 characters; links.x: must be an http(s) URL`,
    );
  });

  it('stops with one line on broken JSON and on a missing file', () => {
    const broken = failureOf(file('broken.json', '{ "brand": "x",\n }'));
    expect(broken).toMatch(/^Invalid SITE_CONFIG \(.*broken\.json\): not valid JSON \(/);
    expect(broken).not.toContain('\n');
    expect(failureOf(path.join(dir, 'missing.json'))).toMatch(
      /^Invalid SITE_CONFIG \(.*missing\.json\): cannot read the file \(ENOENT\)$/,
    );
  });

  it('takes the cluster from the environment: links follow it, and a file cannot set it', () => {
    const devnet = loadSiteConfig(undefined, {
      cluster: 'devnet',
      rpcUrl: 'https://rpc.example/?api-key=secret',
    });
    expect(devnet.solana).toEqual({ cluster: 'devnet', localRpcUrl: null });
    expect(explorerTxUrl(devnet, 'SIG')).toBe('https://solscan.io/tx/SIG?cluster=devnet');
    expect(explorerTokenUrl(devnet)).toBe(
      `https://solscan.io/token/${defaultSite.contractAddress}?cluster=devnet`,
    );
    // A record keeps the cluster it was verified on, whatever the site is set to now.
    expect(explorerTxUrl(devnet, 'SIG', 'mainnet-beta')).toBe('https://solscan.io/tx/SIG');

    const local = loadSiteConfig(undefined, {
      cluster: 'localnet',
      rpcUrl: 'http://127.0.0.1:8899',
    });
    expect(explorerTxUrl(local, 'SIG')).toBe(
      'https://explorer.solana.com/tx/SIG?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899',
    );
    expect(explorerTokenUrl(local)).toBe(
      `https://explorer.solana.com/address/${defaultSite.contractAddress}?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899`,
    );
    expect(JSON.stringify(devnet)).not.toContain('secret');

    expect(
      failureOf(file('cluster.json', JSON.stringify({ solana: { cluster: 'devnet' } }))),
    ).toMatch(/: solana: set SOLANA_CLUSTER in the environment, not SITE_CONFIG$/);
  });
});
