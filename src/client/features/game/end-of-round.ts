import type { AddCoinsResponse, SubmitScoreBody } from '#shared/api/game.ts';
import { PLAYER_NAME_MAX } from '#shared/api/game.ts';
import { ApiError, errorMessage } from '#client/lib/api-client.ts';
import type { ToastInput } from '#client/lib/toast-store.ts';
import type { FinishedRound } from './game-session.ts';
import type { ProgressOutcome } from './progress-reporter.ts';
import { appealActionFor } from '#client/lib/appeal-store.ts';

export const NAME_PROMPT = 'Enter your name for the leaderboard:';
export const COIN_SAVE_FALLBACK = 'Failed to save collected coins.';
const SCORE_SUBMIT_FAILED = 'Failed to submit score to leaderboard.';
export const HIDDEN_ROUND_TITLE = 'Round ended';
export const HIDDEN_ROUND_MESSAGE =
  'The game was hidden, so the round ended: rounds are played in real time, without pausing.';

export interface EndOfRoundDeps {
  /** The member's username; null for a visitor. */
  username: string | null;
  storedName(): string | null;
  storeName(name: string): void;
  /** Drops the kept name (the server said it belongs to a member), so the next round asks. */
  forgetName(): void;
  /** Asks the visitor; null when they decline. */
  promptName(): Promise<string | null>;
  submitScore(body: SubmitScoreBody): Promise<unknown>;
  addCoins(body: { amount: number; runId: string; inputs: number[] }): Promise<AddCoinsResponse>;
  toast(input: ToastInput): void;
  /** Sends the round's last progress report; says whether the server refused the round. */
  settleProgress(runId: string | null): Promise<ProgressOutcome>;
  onScoreSubmitted(): void;
  onCoinsSaved(): void;
}

/**
 * The name a score goes under: the username, else the name kept in the browser, else ask; trimmed
 * (end-of-round.test.ts; the visitor's name prompt in tests/e2e/game.spec.ts).
 */
async function leaderboardName(deps: EndOfRoundDeps): Promise<string | null> {
  if (deps.username) return deps.username;
  const stored = deps.storedName()?.trim().slice(0, PLAYER_NAME_MAX);
  if (stored) return stored;
  const answer = (await deps.promptName())?.trim().slice(0, PLAYER_NAME_MAX);
  if (!answer) return null;
  deps.storeName(answer);
  return answer;
}

/** Game over: the score goes to the leaderboard, then a member's coins to their account. */
export async function handleFinishedRound(
  round: FinishedRound,
  deps: EndOfRoundDeps,
): Promise<void> {
  const { summary, runId, inputs } = round;
  if (round.cutShort === 'hidden') {
    deps.toast({
      title: HIDDEN_ROUND_TITLE,
      description: HIDDEN_ROUND_MESSAGE,
      variant: 'destructive',
    });
    return;
  }
  // At game over, before asking a visitor's name: the last report is due now, not later.
  const progress = await deps.settleProgress(runId);
  if (progress.refused) {
    // Unranked: no score and no coins; the server says why.
    deps.toast({
      title: SCORE_SUBMIT_FAILED,
      description: progress.message,
      variant: 'destructive',
    });
    return;
  }
  const name = await leaderboardName(deps);
  if (name) {
    try {
      if (!runId) throw new Error('This round was not registered with the server.');
      await deps.submitScore({
        playerName: name,
        score: summary.score,
        level: summary.level,
        tasksCompleted: summary.tasksCompleted,
        powerUpsCollected: summary.powerUpsCollected,
        gameTime: summary.gameTime,
        runId,
        inputs,
      });
      deps.toast({ title: 'Score Submitted!', description: `${name} scored ${summary.score}.` });
      deps.onScoreSubmitted();
    } catch (error) {
      if (!deps.username && error instanceof ApiError && error.code === 'NAME_TAKEN')
        deps.forgetName();
      deps.toast({
        title: SCORE_SUBMIT_FAILED,
        description: errorMessage(error),
        variant: 'destructive',
        action: appealActionFor(error),
      });
    }
  }

  if (deps.username && summary.coins > 0) {
    try {
      if (!runId) throw new Error(COIN_SAVE_FALLBACK);
      const saved = await deps.addCoins({ amount: summary.coins, runId, inputs });
      deps.toast({
        title: 'Coins Earned!',
        description: `${saved.coinsAdded} coin${saved.coinsAdded === 1 ? '' : 's'} saved. Balance: ${saved.balance}.`,
      });
      deps.onCoinsSaved();
    } catch (error) {
      const message = error instanceof ApiError ? error.serverMessage : undefined;
      deps.toast({ description: message ?? COIN_SAVE_FALLBACK, variant: 'destructive' });
    }
  }
}
