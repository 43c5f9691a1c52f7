import { execFileSync } from 'node:child_process';
import { REPO_ROOT } from './node-process.ts';

/**
 * Vitest's global setup: the server's bundle (scripts/bundle.mjs) built once, when a source is
 * newer than it, before any suite starts a node or the CLI from it; otherwise the suites that
 * start at once would each build it, and the first command's stderr would hold the notice.
 */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/bundle.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
}
