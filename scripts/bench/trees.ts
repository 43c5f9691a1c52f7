// The two trees a benchmark compares in one run (bench:page, bench:load): this working tree and
// an earlier commit, each built for production the way it builds itself into a temporary
// folder, ready to be served by startNode({ cwd: tree.checkout, env: { CLIENT_DIST_DIR } }).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '#test-support/node-process.ts';
import { buildSite } from '../build-site.ts';

export interface BuiltTree {
  /** 'this tree' or 'baseline'. */
  name: string;
  /** The commit, as `git log --oneline` shows it. */
  label: string;
  /** Where the server is run from. */
  checkout: string;
  /** The built client (CLIENT_DIST_DIR); the page renderer is beside it. */
  distDir: string;
}

export function describeRef(ref: string): string {
  return execFileSync('git', ['log', '-1', '--format=%h %s', ref], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  })
    .trim()
    .slice(0, 90);
}

function run(command: string, argv: string[], cwd: string) {
  execFileSync(command, argv, {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

/** This working tree built into `work`/current; it is served from the repository itself. */
export async function buildThisTree(work: string): Promise<BuiltTree> {
  console.log('Building this tree (production)...');
  const built = await buildSite({
    clientOutDir: path.join(work, 'current', 'client'),
    manifest: true,
    sourcemap: false,
    logLevel: 'silent',
  });
  return {
    name: 'this tree',
    label: `working tree on ${describeRef('HEAD')}`,
    checkout: REPO_ROOT,
    distDir: built.clientOutDir,
  };
}

/**
 * The commit `ref` unpacked into `work`/baseline (`git archive`: nothing is added to the
 * repository's own worktrees) and built there for production the way that commit builds. It
 * runs on this tree's node_modules, linked in: a baseline whose lock file differs is measured
 * with ours.
 */
export function buildBaselineTree(ref: string, work: string): BuiltTree {
  const label = describeRef(ref);
  console.log(`Building the baseline ${label} (production)...`);
  const dir = path.join(work, 'baseline');
  fs.mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', ref], {
    cwd: REPO_ROOT,
    maxBuffer: 512 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  if (fs.existsSync(path.join(dir, 'scripts/build-site.ts'))) {
    run(process.execPath, ['--import', 'tsx', 'scripts/build-site.ts', '--manifest'], dir);
  } else {
    const vite = path.join(REPO_ROOT, 'node_modules/vite/bin/vite.js');
    run(process.execPath, [vite, 'build', '--manifest', '--logLevel', 'warn'], dir);
  }
  return { name: 'baseline', label, checkout: dir, distDir: path.join(dir, 'dist/client') };
}
