import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { LIVE_HEARTBEAT_MS } from '#shared/api/live.ts';
import { SOLANA_CLUSTERS, type SolanaCluster } from '#shared/solana-cluster.ts';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  DATABASE_MIGRATION_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  S3_BUCKET: optionalString,
  S3_ENDPOINT: optionalString.pipe(z.url().optional()),
  S3_REGION: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: booleanFlag,
  SESSION_SECRET: optionalString.pipe(
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  PUBLIC_ORIGIN: optionalString.pipe(
    z
      .url()
      .transform((u) => new URL(u).origin)
      .optional(),
  ),
  TRUST_PROXY: optionalString,
  REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
      .optional(),
  ),
  SITE_CONFIG: optionalString,
  SOLANA_RPC_URL: optionalString.pipe(
    z
      .string()
      .regex(/^https?:\/\//, 'must start with https:// or http://')
      .optional(),
  ),
  SOLANA_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  SOLANA_CLUSTER: optionalString.pipe(
    z
      .enum(SOLANA_CLUSTERS, { error: `must be one of ${SOLANA_CLUSTERS.join(', ')}` })
      .default('mainnet-beta'),
  ),
  PRIZE_TREASURY: optionalString.pipe(
    z
      .string()
      .regex(
        /^[1-9A-HJ-NP-Za-km-z]{32,44}(\s*,\s*[1-9A-HJ-NP-Za-km-z]{32,44})*$/,
        'must be Solana addresses separated by commas',
      )
      .optional(),
  ),
  LIVE_HEARTBEAT_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(LIVE_HEARTBEAT_MS)
    .default(LIVE_HEARTBEAT_MS),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CLIENT_DIST_DIR: optionalString,
  // Raid day (docs/decisions/027-raid-day.md): moderators' alerts and the image classifier.
  DISCORD_WEBHOOK_URL: optionalString.pipe(
    z.string().regex(/^https?:\/\//, 'must start with https:// or http://').optional(),
  ),
  TELEGRAM_BOT_TOKEN: optionalString.pipe(
    z.string().regex(/^\d+:[A-Za-z0-9_-]{20,}$/, 'must be a bot token (digits:letters)').optional(),
  ),
  TELEGRAM_CHAT_ID: optionalString.pipe(
    z.string().regex(/^-?\d+$|^@\w{4,}$/, 'must be a chat id or @channel').optional(),
  ),
  TELEGRAM_API_URL: optionalString.pipe(
    z
      .string()
      .regex(/^https?:\/\//, 'must start with https:// or http://')
      .default('https://api.telegram.org'),
  ),
  ALERT_SMTP_URL: optionalString.pipe(
    z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  ),
  ALERT_EMAIL_FROM: optionalString.pipe(z.email().optional()),
  ALERT_EMAIL_TO: optionalString.pipe(
    z
      .string()
      .refine(
        (list) => list.split(',').every((a) => z.email().safeParse(a.trim()).success),
        'must be email addresses separated by commas',
      )
      .optional(),
  ),
  ALERT_QUEUE_SIZE: z.coerce.number().int().min(1).max(100_000).default(25),
  SCREEN_IMAGES: z.enum(['true', 'false', '1', '0', '']).optional(),
  SCREEN_HOLD_THRESHOLD: z.coerce.number().min(0).max(1).default(0.7),
  METRICS_PORT: optionalString.pipe(
    z
      .string()
      .regex(/^\d{1,5}$/, 'must be a port number, 1-65535')
      .transform(Number)
      .pipe(z.number().min(1).max(65535, 'must be a port number, 1-65535'))
      .optional(),
  ),
  METRICS_HOST: z
    .string()
    .trim()
    .refine((h) => isIP(h) !== 0 || h === 'localhost', 'must be an IP address or localhost')
    .default('127.0.0.1'),
  METRICS_TOKEN: optionalString.pipe(
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString.pipe(
    z
      .string()
      .regex(/^https?:\/\//, 'must start with https:// or http://')
      .optional(),
  ),
  OTEL_EXPORTER_OTLP_HEADERS: optionalString.pipe(
    z
      .string()
      .regex(/^[^=,\s]+=[^,]*(,[^=,\s]+=[^,]*)*$/, 'must be name=value pairs separated by commas')
      .optional(),
  ),
  OTEL_SERVICE_NAME: z.string().trim().min(1).default('daily-grind'),
  OTEL_TRACES_SAMPLER_ARG: optionalString.pipe(
    z
      .string()
      .regex(/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/, 'must be a share of requests, 0 to 1')
      .transform(Number)
      .default(1),
  ),
});

/** Where moderators are alerted (alerts/outbox.ts); a channel left out is not used. */
export interface AlertsConfig {
  discord: { webhookUrl: string } | undefined;
  telegram: { apiUrl: string; botToken: string; chatId: string } | undefined;
  email: { smtpUrl: string; from: string; to: string[] } | undefined;
  /** Open reports past this many: the moderators are told (once until it falls back). */
  queueSize: number;
}

export interface S3Config {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
}

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /**
   * PostgreSQL: `url` is the app role's connection; `migrationUrl`, when set, the role that owns
   * the tables and runs the migrations (db/roles.ts).
   */
  database:
    { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; migrationUrl?: string };
  s3: S3Config | undefined;
  /** Undefined means: generate one and keep it in the data folder (see secrets.ts). */
  sessionSecret: string | undefined;
  publicOrigin: string | undefined;
  /**
   * Which peers may report the client's address in X-Forwarded-For: none (false), the nearest
   * N hops, or the listed addresses/CIDRs. Never "every hop": a proxy appends to what the client
   * sent, so trusting all of it lets the client choose its own address (see parseTrustProxy).
   */
  trustProxy: TrustProxy;
  redisUrl: string | undefined;
  siteConfigFile: string | undefined;
  /**
   * The Solana RPC that payments and burns are verified through (chain/rpc.ts); without a URL
   * nothing is recorded as paid or burned. `treasury`: the payers a prize may come from (any
   * when empty). `cluster`: the chain that RPC serves (SOLANA_CLUSTER), which the console asks
   * wallets for, explorer links name and every recorded payment and burn keeps.
   */
  solana: {
    cluster: SolanaCluster;
    rpcUrl: string | undefined;
    timeoutMs: number;
    treasury: string[];
  };
  /**
   * `GET /api/events` (docs/decisions/021): a comment line every `heartbeatMs` on each stream,
   * at most 15 s; lower for a proxy that closes quieter connections sooner.
   */
  live: { heartbeatMs: number };
  /**
   * `GET /metrics` (docs/observability.md): on a port of its own (`port`, listening on `host`,
   * 127.0.0.1 unless told), and on the main port only to a caller with `token`. Neither set:
   * no metrics are served.
   */
  metrics: { port: number | undefined; host: string; token: string | undefined };
  /**
   * OpenTelemetry traces sent over OTLP/HTTP to `endpoint` (tracing/tracing.ts); undefined: off,
   * and none of its modules is loaded. `sampleRatio`: the share of requests traced.
   */
  tracing:
    | {
        endpoint: string;
        headers: Record<string, string>;
        serviceName: string;
        sampleRatio: number;
      }
    | undefined;
  alerts: AlertsConfig;
  /**
   * The NSFW classifier on uploads (uploads/screening.ts): `enabled` (SCREEN_IMAGES, on unless
   * false), and the score from which a meme is held for review.
   */
  screening: { enabled: boolean; holdThreshold: number };
  logLevel: string;
  /** Where the built client lives; undefined serves no static files (API-only tests). */
  clientDistDir: string | undefined;
}

export class ConfigError extends Error {}

export type TrustProxy = false | number | string[];

/** proxy-addr's names for address ranges (Fastify hands TRUST_PROXY lists to proxy-addr). */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const max = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

/**
 * TRUST_PROXY: unset/false/0 trusts nobody; a whole number N trusts the nearest N proxies (the
 * client is the Nth address from the right of X-Forwarded-For); a comma-separated list trusts
 * those proxy addresses/CIDRs. `true` means one hop: the one reverse proxy docs/deployment.md
 * sets up, which appends the address it saw to whatever the client sent, so only the last
 * entry is not the client's own word (docs/decisions/010-hostile-audit-fixes.md).
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10)
      throw new ConfigError(
        `Invalid TRUST_PROXY: at most 10 proxy hops (got ${JSON.stringify(raw)})`,
      );
    return hops;
  }
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.find((e) => !isAddressOrCidr(e));
  if (bad !== undefined) {
    throw new ConfigError(
      `Invalid TRUST_PROXY: expected false, true (one proxy), a hop count, or proxy addresses/CIDRs separated by commas (got ${JSON.stringify(raw)})`,
    );
  }
  return entries;
}

/** OTEL_EXPORTER_OTLP_HEADERS (`name=value,...`, values percent-encoded) as headers. */
function otlpHeaders(raw: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of raw?.split(',') ?? []) {
    const at = pair.indexOf('=');
    try {
      headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw new ConfigError(
        `Invalid OTEL_EXPORTER_OTLP_HEADERS: the value of ${pair.slice(0, at).trim()} is not percent-encoded text`,
      );
    }
  }
  return headers;
}

/** Turns the environment into a typed config; a bad value throws one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    throw new ConfigError(
      `Invalid ${variable}: ${issue.message} (got ${JSON.stringify(env[variable] ?? '')})`,
    );
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.S3_BUCKET === undefined && (e.S3_ENDPOINT ?? e.S3_ACCESS_KEY_ID) !== undefined) {
    throw new ConfigError('Invalid S3_BUCKET: required when other S3_* variables are set');
  }
  if (e.DATABASE_MIGRATION_URL !== undefined && e.DATABASE_URL === undefined) {
    throw new ConfigError('Invalid DATABASE_URL: required when DATABASE_MIGRATION_URL is set');
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) {
    throw new ConfigError(
      'Invalid METRICS_PORT: must differ from PORT (the metrics port is private)',
    );
  }
  if ((e.TELEGRAM_BOT_TOKEN === undefined) !== (e.TELEGRAM_CHAT_ID === undefined)) {
    throw new ConfigError(
      `Invalid ${e.TELEGRAM_BOT_TOKEN === undefined ? 'TELEGRAM_BOT_TOKEN' : 'TELEGRAM_CHAT_ID'}: TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID go together`,
    );
  }
  if (e.ALERT_SMTP_URL !== undefined && (!e.ALERT_EMAIL_FROM || !e.ALERT_EMAIL_TO)) {
    throw new ConfigError(
      `Invalid ${e.ALERT_EMAIL_FROM ? 'ALERT_EMAIL_TO' : 'ALERT_EMAIL_FROM'}: required when ALERT_SMTP_URL is set`,
    );
  }
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (trustProxy !== false && e.PUBLIC_ORIGIN === undefined) {
    // Behind a proxy the Host and X-Forwarded-* headers are the client's word: pages, wallet
    // messages and Origin checks take the site's origin from PUBLIC_ORIGIN alone.
    throw new ConfigError(
      'Invalid PUBLIC_ORIGIN: required when TRUST_PROXY is set (the https origin the proxy serves)',
    );
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: e.DATABASE_URL
      ? {
          kind: 'postgres',
          url: e.DATABASE_URL,
          ...(e.DATABASE_MIGRATION_URL && { migrationUrl: e.DATABASE_MIGRATION_URL }),
        }
      : { kind: 'sqlite', file: path.join(dataDir, 'app.db') },
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION ?? 'us-east-1',
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    sessionSecret: e.SESSION_SECRET,
    publicOrigin: e.PUBLIC_ORIGIN,
    trustProxy,
    redisUrl: e.REDIS_URL,
    siteConfigFile: e.SITE_CONFIG,
    solana: {
      cluster: e.SOLANA_CLUSTER,
      rpcUrl: e.SOLANA_RPC_URL,
      timeoutMs: e.SOLANA_RPC_TIMEOUT_MS,
      treasury: e.PRIZE_TREASURY ? e.PRIZE_TREASURY.split(',').map((a) => a.trim()) : [],
    },
    live: { heartbeatMs: e.LIVE_HEARTBEAT_MS },
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    tracing: e.OTEL_EXPORTER_OTLP_ENDPOINT
      ? {
          endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
          headers: otlpHeaders(e.OTEL_EXPORTER_OTLP_HEADERS),
          serviceName: e.OTEL_SERVICE_NAME,
          sampleRatio: e.OTEL_TRACES_SAMPLER_ARG,
        }
      : undefined,
    alerts: {
      discord: e.DISCORD_WEBHOOK_URL ? { webhookUrl: e.DISCORD_WEBHOOK_URL } : undefined,
      telegram:
        e.TELEGRAM_BOT_TOKEN && e.TELEGRAM_CHAT_ID
          ? { apiUrl: e.TELEGRAM_API_URL, botToken: e.TELEGRAM_BOT_TOKEN, chatId: e.TELEGRAM_CHAT_ID }
          : undefined,
      email:
        e.ALERT_SMTP_URL && e.ALERT_EMAIL_FROM && e.ALERT_EMAIL_TO
          ? {
              smtpUrl: e.ALERT_SMTP_URL,
              from: e.ALERT_EMAIL_FROM,
              to: e.ALERT_EMAIL_TO.split(',').map((a) => a.trim()),
            }
          : undefined,
      queueSize: e.ALERT_QUEUE_SIZE,
    },
    screening: {
      // On unless turned off; off by default under NODE_ENV=test, where suites that do not test
      // it would pay a classification per upload (the suites that do turn it on).
      enabled:
        e.SCREEN_IMAGES === undefined || e.SCREEN_IMAGES === ''
          ? e.NODE_ENV !== 'test'
          : e.SCREEN_IMAGES === 'true' || e.SCREEN_IMAGES === '1',
      holdThreshold: e.SCREEN_HOLD_THRESHOLD,
    },
    logLevel: e.LOG_LEVEL,
    clientDistDir: path.resolve(e.CLIENT_DIST_DIR ?? 'dist/client'),
  };
}
