import { execFile } from 'node:child_process';
import { REPO_ROOT, serverEnv } from './node-process.ts';

export interface AdminCliResult {
  /** The process's exit code (0 on success). */
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The admin CLI in a process of its own, as `npm run admin -- ...` runs it: the one way tests
 * run it. `env` names the server variables it gets (config.ts, e.g. DATA_DIR); like a node from
 * startNode it gets no others, so a developer's own DATABASE_URL never reaches it.
 */
export function runAdminCli(
  env: Record<string, string | undefined>,
  ...args: string[]
): Promise<AdminCliResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/server/admin/main.ts', ...args],
      { cwd: REPO_ROOT, env: serverEnv(env) },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}
