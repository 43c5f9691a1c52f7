import { execFile } from 'node:child_process';
import type { CliContext } from '#server/cli-command.ts';
import { runCli } from '#server/cli/registry.ts';
import type { AppConfig } from '#server/config.ts';
import { defaultSite, type SiteConfig } from '#shared/site.ts';
import { REPO_ROOT, serverEnv } from './node-process.ts';
import type { TestApp } from './test-app.ts';

export interface AdminCliResult {
  /** The process's exit code (0 on success). */
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The admin CLI in a process of its own, exactly as `npm run admin -- ...` runs it (the server's
 * bundle, scripts/admin.mjs; decision 030): the one way tests run it. The bundle is built before
 * the tests start (tests/support/server-bundle.ts; Playwright's server builds it as it starts), so
 * no command's stderr holds the build's notice. `env` names the server variables it gets
 * (config.ts, e.g. DATA_DIR); like a node from startNode it gets no others, so a developer's own
 * DATABASE_URL never reaches it.
 */
export function runAdminCli(
  env: Record<string, string | undefined>,
  ...args: string[]
): Promise<AdminCliResult> {
  return new Promise<AdminCliResult>((resolve, reject) => {
    execFile(
      process.execPath,
      ['scripts/admin.mjs', ...args],
      { cwd: REPO_ROOT, env: serverEnv(env) },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}

export interface InProcessAdminResult {
  code: number;
  out: string[];
  err: string[];
  /** How many times the command opened its context (0 for a usage error or --help). */
  opened: number;
  /** Everything printed, out then err. */
  text: string;
}

/**
 * The admin CLI's commands in the test process, on a test app's database, clock and object
 * store (the site's defaults unless `site` is given): for tests of a command's rules, where
 * runAdminCli's process would cost a second per call.
 */
export async function runAdminIn(
  t: TestApp,
  argv: string[],
  overrides: { config?: Partial<AppConfig>; site?: SiteConfig } = {},
): Promise<InProcessAdminResult> {
  const out: string[] = [];
  const err: string[] = [];
  let opened = 0;
  const code = await runCli(
    argv,
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    async (print) => {
      opened += 1;
      const ctx: CliContext = {
        config: { ...t.config, ...overrides.config },
        db: t.app.deps.db,
        objectStore: t.app.deps.objectStore!,
        site: overrides.site ?? defaultSite,
        clock: t.clock,
        print,
      };
      return { ctx, close: async () => {} };
    },
  );
  return { code, out, err, opened, text: [...out, ...err].join('\n') };
}
