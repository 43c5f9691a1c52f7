import { systemClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { openMigratedDatabase } from '../db/migrate.ts';
import { createCliPublisher } from '../live/bus.ts';
import { attachLivePublisher } from '../live/record.ts';
import { loadOrCreateSecret } from '../security/secrets.ts';
import { loadSiteConfig } from '../site/load-site-config.ts';
import { createObjectStore } from '../storage/create-object-store.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import type { AdminContext } from '../cli/command.ts';
import { runAdmin, type OpenedContext } from './registry.ts';

/** The operator's database and object store, configured exactly as the server configures them. */
async function open(print: (line: string) => void): Promise<OpenedContext> {
  const config = loadConfig(process.env);
  const site = loadSiteConfig(config.siteConfigFile, config.solana);
  const db = await openMigratedDatabase(config.database);
  // Hides, deletions and payouts made here reach the open pages over the site's bus.
  const live = createCliPublisher(
    config,
    db,
    loadOrCreateSecret(config.sessionSecret, config.dataDir),
  );
  if (live) attachLivePublisher(db, live);
  let store: ObjectStore | undefined;
  const ctx: AdminContext = {
    config,
    db,
    get objectStore() {
      store ??= createObjectStore(
        config,
        loadOrCreateSecret(config.sessionSecret, config.dataDir),
        systemClock,
      );
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

process.exitCode = await runAdmin(process.argv.slice(2), io, open);
