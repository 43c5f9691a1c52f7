import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import type { AppConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { reasonSchema } from '#shared/api/console/common.ts';
import type { SiteConfig } from '#shared/site.ts';
import { isoWeek, utc, type IsoWeek } from '#shared/time.ts';
import type { ObjectStore } from './storage/object-store.ts';
import type { Clock } from './clock.ts';

/**
 * Everything an operator command may use. Each domain's commands declare the part they need
 * (the game's take db, clock and print; the gallery's also the object store), and this is the
 * whole of it, so every command fits the one registry.
 */
export interface CliContext {
  config: AppConfig;
  db: Kysely<Database>;
  /** Built on first use: most commands never touch stored images. */
  readonly objectStore: ObjectStore;
  /** The site's facts (SITE_CONFIG over the defaults), as the server reads them. */
  site: SiteConfig;
  clock: Clock;
  print(line: string): void;
}

/** One operator command; `Needs` is the part of the context it uses (so tests build only that). */
export interface CliCommand<Needs extends Partial<CliContext> = CliContext> {
  usage: string;
  summary: string;
  /**
   * False for a command that must run before there is a database to open (db:roles sets one
   * up): it gets `print` alone, and nothing is opened or migrated for it.
   */
  opensDatabase?: false;
  /** Resolves to the process exit code (0 done, 1 refused or found a problem). */
  run(ctx: Needs, args: string[]): Promise<number>;
}

/** The site's origin as a command names it: PUBLIC_ORIGIN, or the server on this machine. */
export function siteOrigin(config: Pick<AppConfig, 'publicOrigin' | 'port'>): string {
  return config.publicOrigin ?? `http://localhost:${config.port}`;
}

/** Wrong arguments: the CLI prints the message and the command's usage, and exits with 2. */
export class UsageError extends Error {}

/** Exactly the named positional arguments, or a usage error naming what is missing. */
export function positionals(args: string[], names: string[]): string[] {
  const flag = args.find((a) => a.startsWith('-'));
  if (flag !== undefined) throw new UsageError(`Unknown option ${flag}`);
  if (args.length < names.length) {
    throw new UsageError(
      `Missing ${names
        .slice(args.length)
        .map((n) => `<${n}>`)
        .join(' ')}`,
    );
  }
  if (args.length > names.length)
    throw new UsageError(`Unexpected argument "${args[names.length]}"`);
  return args;
}

/**
 * `--name VALUE` options (all strings) and the positional arguments; parseArgs' own errors
 * (unknown option, missing value) become usage errors.
 */
export function parseOptions<K extends string>(
  args: string[],
  names: readonly K[],
): { values: Partial<Record<K, string>>; positionals: string[] } {
  const options = Object.fromEntries(names.map((n) => [n, { type: 'string' as const }]));
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: parsed.values as Partial<Record<K, string>>, positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

const USERNAME_SHAPE = /^[A-Za-z0-9_-]{1,32}$/;

/** A username argument, refused early when it cannot be one. */
export function usernameArg(raw: string): string {
  if (!USERNAME_SHAPE.test(raw)) {
    throw new UsageError(`"${raw}" is not a username (1-32 letters, digits, _ or -)`);
  }
  return raw;
}

/** A decision's reason, checked as the console checks it (reasonSchema), or a usage error. */
export function reasonArg(raw: string | undefined): string {
  const parsed = reasonSchema.safeParse(raw ?? '');
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]!.message);
  return parsed.data;
}

/** A `--name VALUE` option the command cannot do without: its value, or a usage error. */
export function requiredOption<K extends string>(
  values: Partial<Record<K, string>>,
  name: K,
): string {
  const value = values[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/** A `--limit` option's value: a whole number from 1 to `max`, `fallback` when absent. */
export function limitOption(value: string | undefined, fallback: number, max: number): number {
  const limit = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > max) {
    throw new UsageError(`--limit must be a whole number from 1 to ${max}`);
  }
  return limit;
}

/** A leaderboard week: its ISO id, and its start and end (epoch ms, end exclusive). */
export { utc, type IsoWeek };

/** A `--week 2026-W47` option's week, or the week `fallback` names when the option is absent. */
export function weekOption(value: string | undefined, fallback: string): IsoWeek {
  try {
    return isoWeek(value ?? fallback);
  } catch (error) {
    throw new UsageError(`--week: ${(error as Error).message}`);
  }
}
