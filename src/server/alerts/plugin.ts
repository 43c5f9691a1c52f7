import type { FastifyInstance } from 'fastify';
import { alertChannels, pruneAlerts } from './outbox.ts';
import { deliverers, sendDueAlerts } from './sender.ts';

/** How often the outbox is looked at: an alert goes out within this, a retry when it is due. */
const ALERT_POLL_MS = 5_000;

/**
 * The outbox's sender on this node: a timer, stopped when the app closes. Every node sends; a
 * row is marked sent after delivery, so two nodes may each send one alert once (at least once,
 * never lost). Nothing runs when no channel is configured.
 */
export async function alertSender(app: FastifyInstance): Promise<void> {
  const { config, db, clock } = app.deps;
  app.maintenance.add('alerts', (now) => pruneAlerts(db, now));
  if (alertChannels(config.alerts).length === 0) return;
  const send = deliverers(config.alerts);
  let running: Promise<unknown> | null = null;
  const tick = () => {
    running ??= sendDueAlerts(db, send, () => clock.now())
      .catch((err: unknown) => app.log.warn({ err }, 'alerts not sent'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, ALERT_POLL_MS);
  timer.unref();
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await running;
  });
}
