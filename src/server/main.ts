import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { MigrationError } from './db/migrate.ts';
import { listenForMetrics } from './plugins/metrics.ts';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const app = await buildApp(config);
  // Before the site's port: a metrics port that cannot be had stops start-up, not the scrapes.
  const metricsServer = await listenForMetrics(app);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining requests');
    Promise.all([app.close(), metricsServer?.close()]).then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof MigrationError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
