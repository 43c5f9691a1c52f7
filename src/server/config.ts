import path from 'node:path';
import { z } from 'zod';

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
  TRUST_PROXY: booleanFlag,
  REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
      .optional(),
  ),
  SITE_CONFIG: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CLIENT_DIST_DIR: optionalString,
});

export type Env = z.input<typeof envSchema>;

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
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  s3: S3Config | undefined;
  /** Undefined means: generate one and keep it in the data folder (see secrets.ts). */
  sessionSecret: string | undefined;
  publicOrigin: string | undefined;
  trustProxy: boolean;
  redisUrl: string | undefined;
  siteConfigFile: string | undefined;
  logLevel: string;
  /** Where the built client lives; undefined serves no static files (API-only tests). */
  clientDistDir: string | undefined;
}

export class ConfigError extends Error {}

/** Turns the environment into a typed config; a bad value throws one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid ${variable}: ${issue.message} (got ${JSON.stringify(env[variable] ?? '')})`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.S3_BUCKET === undefined && (e.S3_ENDPOINT ?? e.S3_ACCESS_KEY_ID) !== undefined) {
    throw new ConfigError('Invalid S3_BUCKET: required when other S3_* variables are set');
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
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
    trustProxy: e.TRUST_PROXY,
    redisUrl: e.REDIS_URL,
    siteConfigFile: e.SITE_CONFIG,
    logLevel: e.LOG_LEVEL,
    clientDistDir: path.resolve(e.CLIENT_DIST_DIR ?? 'dist/client'),
  };
}
