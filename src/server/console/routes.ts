import type { FastifyInstance } from 'fastify';
import {
  appealDecisionEndpoint,
  memeDecisionEndpoint,
  reportsEndpoint,
} from '#shared/api/console/queue.ts';
import {
  authenticationEndpoint,
  authenticationOptionsEndpoint,
  listPasskeysEndpoint,
  operatorMeEndpoint,
  registrationEndpoint,
  registrationOptionsEndpoint,
  removePasskeyEndpoint,
  renamePasskeyEndpoint,
} from '#shared/api/console/passkeys.ts';
import type { SiteConfig } from '#shared/site.ts';
import { logDayStart, logEndpoint } from '#shared/api/console/log.ts';
import {
  endSessionsEndpoint,
  liftEndpoint,
  memberEndpoint,
  membersEndpoint,
  suspendEndpoint,
} from '#shared/api/console/members.ts';
import { overviewEndpoint } from '#shared/api/console/overview.ts';
import {
  approveRunEndpoint,
  disqualifyRunEndpoint,
  prizeWeekEndpoint,
  replayOpenedEndpoint,
  replayWatchedEndpoint,
  withdrawApprovalEndpoint,
} from '#shared/api/console/prize-week.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { notFound } from '../http-error.ts';
import { decide } from '../memes/moderation.ts';
import { standingsByName, standingsOf } from '../memes/standing.ts';
import { heldQueue } from '../memes/held.ts';
import { operatorOf } from './guard.ts';
import { decisionKinds, listDecisions } from '../db/operator-log.ts';
import { decideAppeal, openAppeals } from '../suspensions/appeals.ts';
import { openReportCount, reportQueue } from '../memes/report-queue.ts';
import { overview } from './overview.ts';
import { prizeWeek } from './prize-week.ts';
import {
  approveRun,
  closedWeek,
  disqualifyRun,
  recordReplayOpened,
  recordWatch,
  withdrawApproval,
} from '../prize/review.ts';
import { findMembers, memberByName, memberDetail } from './members.ts';
import { endSessions, lift, suspend } from '../suspensions/suspensions.ts';
import {
  authenticate,
  authenticationOptions,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  relyingParty,
  removePasskey,
  renamePasskey,
} from './passkeys.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The console's own routes: who is operating, their passkeys, the log, the queue, members, prize
 * week. In the console's scope, where endpointRoute installs the guard each endpoint's `access`
 * names (and the write limit on a write).
 */
export async function consoleRoutes(
  app: FastifyInstance,
  { site }: { site: SiteConfig },
): Promise<void> {
  endpointRoute(app, operatorMeEndpoint, async (request) => {
    const operator = operatorOf(request);
    const { rp, problem } = relyingParty(request);
    return {
      username: operator.name,
      role: operator.role,
      passkeys: (await listPasskeys(app.deps, operator.id)).length,
      passkeyFresh: operator.passkeyFresh,
      rpId: rp?.id ?? null,
      hostProblem: problem,
    };
  });

  endpointRoute(
    app,
    registrationOptionsEndpoint,
    async (request) =>
      (await registrationOptions(request, operatorOf(request), request.body.password)) as never,
  );

  endpointRoute(app, registrationEndpoint, async (request) => ({
    passkey: await registerPasskey(
      request,
      operatorOf(request),
      request.body.response,
      request.body.name ?? null,
    ),
  }));

  endpointRoute(
    app,
    authenticationOptionsEndpoint,
    async (request) => (await authenticationOptions(request, operatorOf(request))) as never,
  );

  endpointRoute(app, authenticationEndpoint, async (request) => {
    await authenticate(request, operatorOf(request), request.body.response);
    return { ok: true as const };
  });

  endpointRoute(app, listPasskeysEndpoint, async (request) => ({
    passkeys: await listPasskeys(app.deps, operatorOf(request).id),
  }));

  endpointRoute(app, removePasskeyEndpoint, async (request) => {
    await removePasskey(app.deps, operatorOf(request), request.params.id, request.sessionIdHash!);
    return { ok: true as const };
  });

  endpointRoute(app, renamePasskeyEndpoint, async (request) => ({
    passkey: await renamePasskey(
      app.deps,
      operatorOf(request),
      request.params.id,
      request.body.name,
    ),
  }));

  endpointRoute(app, logEndpoint, async (request) => {
    const { operator, kind, from, to, before, limit } = request.query;
    // One row past the page says whether there is a next one.
    const [rows, kinds] = await Promise.all([
      listDecisions(app.deps.db, {
        operator: operator || undefined,
        kind: kind || undefined,
        from: from === undefined ? undefined : logDayStart(from),
        to: to === undefined ? undefined : logDayStart(to) + DAY_MS,
        before,
        limit: limit + 1,
      }),
      decisionKinds(app.deps.db),
    ]);
    const entries = rows.slice(0, limit);
    return { entries, kinds, next: rows.length > limit ? entries.at(-1)!.id : null };
  });

  endpointRoute(app, reportsEndpoint, async (request) => {
    const [reported, held, appeals, openReports] = await Promise.all([
      reportQueue(app.deps.db, request.query),
      // Memes the image classifier held wait first, blurred (docs/decisions/027).
      request.query.status === 'open' ? heldQueue(app.deps.db, request.query.limit) : [],
      openAppeals(app.deps.db, request.query.limit, app.deps.clock.now()),
      openReportCount(app.deps.db),
    ]);
    const heldIds = new Set(held.map((e) => e.meme.id));
    const entries = [
      ...held.map((e) => {
        const reports = reported.find((r) => r.meme.id === e.meme.id);
        return reports ? { ...reports, meme: e.meme } : e;
      }),
      ...reported.filter((e) => !heldIds.has(e.meme.id)),
    ].slice(0, request.query.limit);
    const standings = await standingsByName(
      app.deps.db,
      [...entries.map((e) => e.meme.uploader), ...appeals.map((a) => a.member)],
      app.deps.clock.now(),
    );
    return { entries, appeals, openReports, standings };
  });

  endpointRoute(app, appealDecisionEndpoint, async (request) => {
    const appeal = await decideAppeal(
      app.deps.db,
      operatorOf(request),
      request.params.id,
      request.body.decision,
      request.body.reason,
      app.deps.clock.now(),
    );
    // The member's session reads say a decision waits (auth/me): read afresh. A few a week.
    app.deps.sessions.clear();
    return { appeal };
  });

  endpointRoute(app, memeDecisionEndpoint, async (request) => {
    const { deps } = app;
    const result = await decide(
      deps.db,
      request.params.id,
      request.body.decision,
      deps.clock.now(),
      {
        operator: operatorOf(request),
        reason: request.body.reason,
      },
    );
    if (!result) throw notFound('No such meme.');
    for (const key of result.orphanKeys) await deps.objectStore!.deleteObject(key);
    return { decisionId: result.decisionId, settledReports: result.settledReports };
  });

  endpointRoute(app, membersEndpoint, async (request) => {
    const members = await findMembers(app.deps.db, request.query.q);
    const standings = await standingsOf(
      app.deps.db,
      members.map((m) => m.id),
      app.deps.clock.now(),
    );
    return {
      members,
      standings: Object.fromEntries(
        members.flatMap((m) => {
          const standing = standings.get(m.id);
          return standing ? [[m.username, standing]] : [];
        }),
      ),
    };
  });

  endpointRoute(app, memberEndpoint, async (request) => {
    const now = app.deps.clock.now();
    const detail = await memberDetail(app.deps.db, request.params.username, now);
    const standing = (await standingsOf(app.deps.db, [detail.member.id], now)).get(
      detail.member.id,
    );
    return { ...detail, ...(standing && { standing }) };
  });

  endpointRoute(app, suspendEndpoint, async (request) => {
    const { db, clock } = app.deps;
    const member = await memberByName(db, request.params.username);
    const s = await suspend(
      db,
      operatorOf(request),
      member,
      request.body.length,
      request.body.reason,
      clock.now(),
      { cleanUp: request.body.cleanUp ?? false },
    );
    return {
      cleanedUp: s.cleaned && {
        memes: s.cleaned.memes,
        votes: s.cleaned.votes,
        reports: s.cleaned.reports,
      },
      suspension: {
        id: s.id,
        reason: s.reason,
        startsAt: s.starts_at,
        endsAt: s.ends_at,
        liftedAt: null,
        active: true,
      },
    };
  });

  endpointRoute(app, liftEndpoint, async (request) => {
    const { db, clock } = app.deps;
    const member = await memberByName(db, request.params.username);
    return lift(db, operatorOf(request), member, request.body.reason, clock.now(), {
      restore: request.body.restore ?? false,
    });
  });

  endpointRoute(app, endSessionsEndpoint, async (request) => {
    const { clock } = app.deps;
    const member = await memberByName(app.deps.db, request.params.username);
    const ended = await endSessions(
      app.deps,
      operatorOf(request),
      member,
      request.body.reason,
      clock.now(),
    );
    return { ended };
  });

  endpointRoute(app, overviewEndpoint, async () => {
    const [{ days, series }, openReports] = await Promise.all([
      overview(app.deps.db, app.deps.clock.now()),
      openReportCount(app.deps.db),
    ]);
    return { days, series, openReports };
  });

  // The Prize week (issue 32): admins only. The rules are prize/review.ts's, as the CLI's.

  endpointRoute(app, prizeWeekEndpoint, async (request) =>
    prizeWeek(app.deps.db, operatorOf(request).id, app.deps.clock.now()),
  );

  endpointRoute(app, replayOpenedEndpoint, async (request) => {
    await recordReplayOpened(
      app.deps.db,
      operatorOf(request),
      request.params.runId,
      app.deps.clock.now(),
    );
    return { ok: true as const };
  });

  endpointRoute(app, replayWatchedEndpoint, async (request) => {
    await recordWatch(app.deps.db, operatorOf(request), request.params.runId, app.deps.clock.now());
    return { ok: true as const };
  });

  endpointRoute(app, approveRunEndpoint, async (request) => {
    const now = app.deps.clock.now();
    const approval = await approveRun(
      app.deps.db,
      site,
      operatorOf(request),
      closedWeek(now),
      request.params.runId,
      request.body.confirmWallet,
      now,
    );
    return {
      message: `Approved run ${approval.entry.run_id}: ${approval.entry.player_name}, ${approval.week.id}. Pay ${site.weeklyChallenge.prize} to ${approval.wallet}.`,
    };
  });

  endpointRoute(app, withdrawApprovalEndpoint, async (request) => {
    const now = app.deps.clock.now();
    await withdrawApproval(
      app.deps.db,
      operatorOf(request),
      closedWeek(now),
      request.body.reason,
      now,
    );
    return { ok: true as const };
  });

  endpointRoute(app, disqualifyRunEndpoint, async (request) => {
    const { withdrew } = await disqualifyRun(
      app.deps.db,
      operatorOf(request),
      request.params.runId,
      request.body.reason,
      app.deps.clock.now(),
    );
    return { withdrewApproval: withdrew };
  });
}
