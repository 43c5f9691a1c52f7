import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { sleep } from './sleep.ts';

/** The repository root, where the server is run from (as `npm start` does). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Variables the server reads (config.ts). A node gets exactly the ones its caller names, so a
 * developer's own REDIS_URL or DATABASE_URL can never leak into a test's node.
 */
const SERVER_VARIABLES = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_MIGRATION_URL',
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'SESSION_SECRET',
  'PUBLIC_ORIGIN',
  'TRUST_PROXY',
  'REDIS_URL',
  'SITE_CONFIG',
  'SOLANA_RPC_URL',
  'SOLANA_CLUSTER',
  'LOG_LEVEL',
  'CLIENT_DIST_DIR',
  'SCREEN_IMAGES',
  'METRICS_PORT',
  'METRICS_HOST',
  'METRICS_TOKEN',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_SERVICE_NAME',
  'OTEL_TRACES_SAMPLER_ARG',
];

/**
 * A child's environment: the caller's, less every server variable, plus `vars`. A developer's
 * own REDIS_URL or DATABASE_URL never reaches a test's node or CLI.
 */
export function serverEnv(vars: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SERVER_VARIABLES) delete env[name];
  return Object.assign(env, vars);
}

/** A port nobody listens on right now (the kernel's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface NodeProcess {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** The last part of what the process wrote (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGKILL: no drain, no close; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the drain (then SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<number | null>;
}

/**
 * The server's start script in the checkout `cwd`: its bundle's, or, in a benchmark's baseline
 * tree from before the bundle (2026-11-29), its TypeScript entry.
 */
function serverScript(cwd: string): string {
  return fs.existsSync(path.join(cwd, 'scripts/server.mjs'))
    ? 'scripts/server.mjs'
    : 'src/server/main.ts';
}

export interface StartNodeOptions {
  /** Server variables (see config.ts); HOST defaults to 127.0.0.1 and PORT to a free port. */
  env: Record<string, string | undefined>;
  readyTimeoutMs?: number;
  /** The checkout to run (default: this one), e.g. an older commit's for a benchmark's baseline. */
  cwd?: string;
  /** Keep this much of the process's output (characters); 0 sends it nowhere (benchmarks). */
  keepOutput?: number;
  /**
   * The script to run instead of the server, from `cwd` (e.g. a benchmark's bare Fastify
   * baseline): it must listen on HOST:PORT and answer `readyPath` with 200 once ready.
   */
  script?: string;
  /** Answers 200 once the process is ready (default `/readyz`). */
  readyPath?: string;
}

/**
 * Starts one server node as production does, from the server's bundle (`node scripts/server.mjs`,
 * which `npm start` runs once the client is built), and resolves once `/readyz` answers 200, i.e.
 * migrations ran and the database and object store are reachable. The one way tests and
 * benchmarks start a server process and wait for it.
 */
export async function startNode(options: StartNodeOptions): Promise<NodeProcess> {
  const port = options.env.PORT ? Number(options.env.PORT) : await freePort();
  const env = serverEnv({
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // A node runs as production (no NODE_ENV), where images are screened: loading the
    // classifier's model costs each process about 8 s of CPU and runs a worker beside it. Only
    // the suites that test screening ask for it.
    SCREEN_IMAGES: 'false',
    ...options.env,
    PORT: String(port),
  });
  const keep = options.keepOutput ?? 64 * 1024;
  let output = '';
  const cwd = options.cwd ?? REPO_ROOT;
  const script = options.script ?? serverScript(cwd);
  // TypeScript (a benchmark's bare server, an older tree's server) through tsx.
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, script], {
    cwd,
    env,
    stdio: ['ignore', keep > 0 ? 'pipe' : 'ignore', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > keep * 2) output = output.slice(-Math.max(keep, 4096));
  };
  child.stdout?.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))),
  );
  const origin = `http://127.0.0.1:${port}`;

  const node: NodeProcess = {
    origin,
    port,
    child,
    output: () => output.slice(-keep),
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 45_000);
  let gone = false;
  void exited.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone) throw new Error(`${script} exited before it was ready:\n${node.output()}`);
    const ready = await fetch(`${origin}${options.readyPath ?? '/readyz'}`, {
      signal: AbortSignal.timeout(2000),
    }).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) return node;
    await sleep(100);
  }
  await node.kill();
  throw new Error(`${script} was not ready in time:\n${node.output()}`);
}
