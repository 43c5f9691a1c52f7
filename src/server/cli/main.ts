import type { CliContext } from '../cli-command.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { runCli, type OpenedContext } from './registry.ts';

/**
 * The operator's database and object store, configured exactly as the server configures them.
 * Loaded only for a command that runs (`--help` and a usage mistake read none of it), and the
 * S3, Redis and PostgreSQL bus clients only on a site that uses them: they were a third of a
 * command's start-up (npm run bench:cli, decision 030).
 */
async function open(print: (line: string) => void): Promise<OpenedContext> {
  const [
    { systemClock },
    { loadConfig },
    { openMigratedDatabase },
    { attachLivePublisher },
    { loadOrCreateSecret },
    { loadSiteConfig },
  ] = await Promise.all([
    import('../clock.ts'),
    import('../config.ts'),
    import('../db/migrate.ts'),
    import('../live/record.ts'),
    import('../security/secrets.ts'),
    import('../site/load-site-config.ts'),
  ]);
  const config = loadConfig(process.env);
  const site = loadSiteConfig(config.siteConfigFile, config.solana);
  const db = await openMigratedDatabase(config.database);
  // Hides, deletions and payouts made here reach the open pages over the site's bus; on SQLite
  // without Redis there is no bus to reach them by (createCliPublisher).
  const live =
    config.redisUrl || config.database.kind === 'postgres'
      ? (await import('../live/bus.ts')).createCliPublisher(
          config,
          db,
          loadOrCreateSecret(config.sessionSecret, config.dataDir),
        )
      : undefined;
  if (live) attachLivePublisher(db, live);
  // Local disk unless S3_BUCKET is set, as createObjectStore decides; S3's client only then.
  const { createObjectStore } = config.s3
    ? await import('../storage/create-object-store.ts')
    : { createObjectStore: undefined };
  const { createLocalDiskStore } = await import('../storage/local-disk.ts');
  let store: ObjectStore | undefined;
  const ctx: CliContext = {
    config,
    db,
    get objectStore() {
      if (store) return store;
      const secret = loadOrCreateSecret(config.sessionSecret, config.dataDir);
      store = createObjectStore
        ? createObjectStore(config, secret, systemClock)
        : createLocalDiskStore({ dataDir: config.dataDir, secret, clock: systemClock });
      return store;
    },
    site,
    clock: systemClock,
    print,
  };
  return {
    ctx,
    async close() {
      await live?.flush();
      await store?.close?.();
      await db.destroy();
    },
  };
}

const io = {
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
};

process.exitCode = await runCli(process.argv.slice(2), io, open);
