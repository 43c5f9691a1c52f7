import type { AddCoinsBody, AddCoinsResponse } from '#shared/api/game.ts';
import { limit, openRun, rejectRun, storedOutcome, verifyOnce } from './runs.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import { HttpError } from '../http-error.ts';
import { applyCredit } from '../shop/ledger.ts';
import { hasOverlappingCreditedRun, markCoinsCredited } from './repository.ts';

// A member's finished run credited to their coin balance, once.

export async function addCoins(
  deps: AppDeps,
  user: SessionUser,
  body: AddCoinsBody,
): Promise<AddCoinsResponse> {
  await limit(deps, 'coins', `user:${user.id}`);
  const run = await openRun(deps, body.runId, user);
  if (run.user_id !== user.id) {
    throw new HttpError(
      403,
      'Coins can only be saved for a game you started while logged in.',
      'RUN_NOT_YOURS',
    );
  }
  if (run.coins_credited_at !== null) {
    throw rejectRun('The coins of this game have already been saved.', 'COINS_ALREADY_SAVED');
  }
  const stored = await storedOutcome(deps, run);
  if (!stored && !body.inputs) {
    throw rejectRun('Send the jumps of this run so its coins can be verified.', 'RUN_NOT_VERIFIED');
  }
  const outcome = stored && !body.inputs ? stored : await verifyOnce(deps, run, body.inputs ?? []);
  if (body.amount > outcome.coins) {
    throw rejectRun(
      `This game collected ${outcome.coins} coin${outcome.coins === 1 ? '' : 's'}, not ${body.amount}.`,
      'COINS_MISMATCH',
    );
  }

  const balance = await deps.db.transaction().execute(async (trx) => {
    // The outcome is stored (verifyOnce): the guarded write checks it again in SQL.
    if (!(await markCoinsCredited(trx, run.id, body.amount, deps.clock.now()))) {
      throw rejectRun('The coins of this game have already been saved.', 'COINS_ALREADY_SAVED');
    }
    // The ledger's unique run id is a second lock on "once per run".
    const credit = await applyCredit(trx, {
      userId: user.id,
      amount: body.amount,
      reason: 'game-run',
      runId: run.id,
      now: deps.clock.now(),
    });
    // Coins pay for time played, and one player plays one game at a time: otherwise parallel
    // runs on one account earn many times what any player could. Checked after the balance's
    // row lock, so of two overlapping runs saved at once the second sees the first.
    const overlaps = await hasOverlappingCreditedRun(trx, user.id, {
      id: run.id,
      issuedAt: run.issued_at,
      steps: outcome.steps,
    });
    if (overlaps) {
      throw rejectRun(
        'Coins are saved for one game at a time, and this game overlaps one already saved.',
        'RUN_OVERLAPS',
      );
    }
    return credit.balance;
  });
  return { coinsAdded: body.amount, balance };
}
