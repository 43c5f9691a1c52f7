import type { LeaderboardEntry, SubmitScoreBody } from '#shared/api/game.ts';
import { POWER_UPS_COLLECTED, STEPS_PER_SECOND } from '#shared/game/constants.ts';
import { levelForScore } from '#shared/game/engine.ts';
import { weekStartUtc } from '#shared/time.ts';
import { caller, limit, openRun, rejectRun, verifyOnce } from './runs.ts';
import { toEntry } from './board.ts';
import { recordLiveEvent } from '../live/record.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import { findProfile, isLookAlikeOfMember } from '../accounts/repository.ts';
import { insertScore, markScoreSubmitted } from './repository.ts';

// A finished run entered on the week's board.

export async function submitScore(
  deps: AppDeps,
  user: SessionUser | null,
  body: SubmitScoreBody,
  network: string,
): Promise<LeaderboardEntry> {
  await limit(deps, 'scores', caller(user, network));
  const run = await openRun(deps, body.runId, user);
  if (run.score_submitted_at !== null) {
    throw rejectRun('This game run has already been submitted.', 'RUN_USED');
  }
  const outcome = await verifyOnce(deps, run, body.inputs);
  const gameTime = Math.floor(outcome.steps / STEPS_PER_SECOND);
  const claimed = [
    body.score === outcome.score,
    body.level === levelForScore(outcome.score),
    body.tasksCompleted === outcome.score,
    body.powerUpsCollected === POWER_UPS_COLLECTED,
    body.gameTime === gameTime,
  ];
  if (claimed.includes(false)) {
    throw rejectRun(
      `The submitted figures do not match the replay of this run (score ${outcome.score}, ${gameTime} s).`,
      'SCORE_MISMATCH',
    );
  }

  // The entry belongs to whoever the run was issued to, else to the member submitting it.
  const ownerId = run.user_id ?? user?.id ?? null;
  let playerName = body.playerName;
  if (ownerId !== null) {
    const username =
      ownerId === user?.id ? user.username : (await findProfile(deps.db, ownerId))?.username;
    if (username === undefined)
      throw rejectRun('This game run belongs to a closed account.', 'RUN_NOT_YOURS');
    playerName = username;
  } else if (await isLookAlikeOfMember(deps.db, playerName)) {
    // The prize is paid to a name: a visitor may not play under a member's.
    throw rejectRun(
      `The name "${playerName}" belongs to a registered member. Log in as them or choose another name.`,
      'NAME_TAKEN',
    );
  }

  const now = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    // The outcome is stored (verifyOnce), and only the same jump log gets this far.
    if (!(await markScoreSubmitted(trx, run.id, now))) {
      throw rejectRun('This game run has already been submitted.', 'RUN_USED');
    }
    return insertScore(trx, {
      runId: run.id,
      userId: ownerId,
      playerKey: ownerId !== null ? `u:${ownerId}` : `n:${playerName.toLowerCase()}`,
      playerName,
      score: outcome.score,
      level: levelForScore(outcome.score),
      tasksCompleted: outcome.score,
      powerUpsCollected: POWER_UPS_COLLECTED,
      gameTime,
      weekStart: weekStartUtc(now),
      createdAt: now,
    });
  });
  recordLiveEvent(deps.db, {
    type: 'leaderboard',
    data: { week: new Date(weekStartUtc(now)).toISOString() },
  });
  return toEntry({
    id,
    player_name: playerName,
    score: outcome.score,
    level: levelForScore(outcome.score),
    tasks_completed: outcome.score,
    created_at: now,
  });
}
