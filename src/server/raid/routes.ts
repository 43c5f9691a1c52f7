import type { FastifyInstance } from 'fastify';
import {
  blocklistExportEndpoint,
  blocklistImportEndpoint,
  challengeEndpoint,
  myStandingEndpoint,
  raidAdminEndpoint,
  raidStatusEndpoint,
  raidSwitchEndpoint,
  raidThresholdsEndpoint,
  type RaidAdmin,
} from '#shared/api/raid.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { noStore } from '../http/no-store.ts';
import { sharedReadHeaders } from '../http/read-cache.ts';
import { operatorOf } from '../console/guard.ts';
import { memberStanding } from '../memes/standing.ts';
import { exportBlocklist, importBlocklist } from '../memes/blocklist.ts';
import { clientNetwork } from '../http/client-network.ts';
import { newChallenge } from './challenge.ts';
import { hourlyActivity, setThresholds, switchRaid } from './service.ts';
import { readRaid, type RaidRow } from './repository.ts';

/** The page's notice: whether raid mode is on. A public read, the same for everybody. */
export async function raidPublicRoutes(app: FastifyInstance): Promise<void> {
  endpointRoute(app, raidStatusEndpoint, async (_request, reply) => {
    const raid = await app.raid.get();
    sharedReadHeaders(reply);
    return { active: raid.active, since: raid.since };
  });
}

/** A member's own standing, and the sign-up challenge (session scope). */
export async function raidSessionRoutes(app: FastifyInstance): Promise<void> {
  endpointRoute(app, myStandingEndpoint, async (request, reply) => {
    reply.header('cache-control', 'private, no-cache');
    const [{ standing, allowance }, raid] = await Promise.all([
      memberStanding(app.deps.db, request.user.id, app.deps.clock.now()),
      app.raid.get(),
    ]);
    return { standing, allowance, raidMode: raid.active };
  });

  endpointRoute(
    app,
    challengeEndpoint,
    async (request) =>
      (await newChallenge(app.deps, clientNetwork(request))) as unknown as Record<string, unknown>,
    { preHandler: noStore },
  );
}

async function adminView(app: FastifyInstance, raid?: RaidRow): Promise<RaidAdmin> {
  const now = app.deps.clock.now();
  const [row, lastHour] = await Promise.all([
    raid ?? readRaid(app.deps.db),
    hourlyActivity(app.deps.db, now),
  ]);
  return {
    active: row.active,
    since: row.since,
    automatic: row.automatic,
    thresholds: row.thresholds,
    lastHour,
  };
}

/**
 * The console's raid page (docs/decisions/027): moderators see it, admins switch it, set its
 * thresholds and import or export the blocklist (each endpoint's `access`); the CLI's raid: and
 * blocklist: commands call the same functions.
 */
export async function raidConsoleRoutes(app: FastifyInstance): Promise<void> {
  endpointRoute(app, raidAdminEndpoint, async () => adminView(app));

  endpointRoute(app, raidSwitchEndpoint, async (request) => {
    const { active, reason } = request.body;
    await switchRaid(app.deps, operatorOf(request), { active, reason }, app.deps.clock.now());
    app.raid.changed();
    return adminView(app);
  });

  endpointRoute(app, raidThresholdsEndpoint, async (request) => {
    const { reason, ...thresholds } = request.body;
    const row = await setThresholds(
      app.deps,
      operatorOf(request),
      thresholds,
      reason,
      app.deps.clock.now(),
    );
    return adminView(app, row);
  });

  endpointRoute(app, blocklistExportEndpoint, async () => exportBlocklist(app.deps.db));

  endpointRoute(app, blocklistImportEndpoint, async (request) =>
    importBlocklist(app.deps.db, operatorOf(request), request.body, app.deps.clock.now()),
  );
}
