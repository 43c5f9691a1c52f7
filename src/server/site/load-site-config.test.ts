import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

const failureOf = (target: string) =>
  errorThrownBy(() => loadSiteConfig(target), ConfigError).message;

describe('loadSiteConfig', () => {
  it('gives the defaults when no file is named', () => {
    expect(loadSiteConfig(undefined)).toBe(defaultSite);
  });

  it('merges the file over the defaults', () => {
    const site = loadSiteConfig(
      file('ok.json', JSON.stringify({ brand: 'Night Shift', contractAddress: '' })),
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
});
