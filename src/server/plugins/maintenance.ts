import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;

/** A clean-up a domain runs every ten minutes (expired rows, forgotten files). */
export type MaintenanceTask = (now: number) => Promise<unknown>;

interface Maintenance {
  /** Adds a task under a name (the name is logged when the task fails). */
  add(name: string, task: MaintenanceTask): void;
  /** Runs every task once now; resolves when all are done (for tests and the timer). */
  runAll(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    maintenance: Maintenance;
  }
}

/** The one scheduler for every domain's pruning: one timer, stopped when the app closes. */
export const maintenance = fp(
  async (app: FastifyInstance) => {
    const tasks = new Map<string, MaintenanceTask>();
    const runAll = async () => {
      const now = app.deps.clock.now();
      await Promise.all(
        [...tasks].map(([name, task]) =>
          task(now).catch((err: unknown) =>
            app.log.warn({ err, task: name }, 'maintenance failed'),
          ),
        ),
      );
    };
    app.decorate('maintenance', {
      add(name, task) {
        if (tasks.has(name)) throw new Error(`Two maintenance tasks are named ${name}`);
        tasks.set(name, task);
      },
      runAll,
    } satisfies Maintenance);
    const timer = setInterval(() => void runAll(), MAINTENANCE_INTERVAL_MS);
    timer.unref();
    app.addHook('preClose', async () => clearInterval(timer));
  },
  { name: 'maintenance', dependencies: ['database'] },
);
