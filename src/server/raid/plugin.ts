import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { checkRaidTrigger, RaidState } from './service.ts';

/** How often the thresholds are compared with the last hour: an alert within a minute of a raid. */
const RAID_CHECK_MS = 15_000;

/**
 * Raid mode on this node: `app.raid` (the switch through the read cache) and the automatic
 * trigger's timer, stopped when the app closes. Every node checks; the switch's row lock makes
 * one of them enter or leave and log it.
 */
export const raidMode = fp(
  async (app: FastifyInstance) => {
    const { deps } = app;
    app.decorate('raid', new RaidState(deps.db, deps.clock));
    let running: Promise<unknown> | null = null;
    const timer = setInterval(() => {
      running ??= checkRaidTrigger(deps, deps.clock.now())
        .then((change) => {
          if (change) app.raid.changed();
        })
        .catch((err: unknown) => app.log.warn({ err }, 'raid trigger failed'))
        .finally(() => {
          running = null;
        });
    }, RAID_CHECK_MS);
    timer.unref();
    app.addHook('preClose', async () => {
      clearInterval(timer);
      await running;
    });
  },
  { name: 'raid-mode', dependencies: ['database'] },
);
