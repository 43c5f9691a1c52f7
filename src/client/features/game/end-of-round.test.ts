import { describe, expect, it } from 'vitest';
import type { RunSummary } from '#shared/game/engine.ts';
import { ApiError } from '#client/lib/api-client.ts';
import type { ToastInput } from '#client/lib/toast-store.ts';
import {
  COIN_SAVE_FALLBACK,
  handleFinishedRound,
  HIDDEN_ROUND_MESSAGE,
  HIDDEN_ROUND_TITLE,
  type EndOfRoundDeps,
} from './end-of-round.ts';
import type { FinishedRound } from './game-session.ts';

const summary: RunSummary = {
  score: 42,
  coins: 3,
  obstaclesPassed: 2,
  steps: 1234,
  level: 5,
  tasksCompleted: 42,
  powerUpsCollected: 0,
  jumps: 40,
  gameTime: 20,
  crashed: true,
  endReason: 'obstacle',
};
const round = (overrides: Partial<FinishedRound> = {}): FinishedRound => ({
  runId: 'run-1',
  summary,
  inputs: [3, 30, 61],
  cutShort: null,
  ...overrides,
});

function fakeDeps(overrides: Partial<EndOfRoundDeps> = {}) {
  const calls = {
    scores: [] as unknown[],
    coins: [] as unknown[],
    toasts: [] as ToastInput[],
    stored: [] as string[],
    forgotten: 0,
    prompts: 0,
    refreshed: 0,
    profileRefreshed: 0,
  };
  const deps: EndOfRoundDeps = {
    username: null,
    storedName: () => null,
    storeName: (name) => void calls.stored.push(name),
    forgetName: () => void (calls.forgotten += 1),
    promptName: async () => {
      calls.prompts += 1;
      return null;
    },
    submitScore: async (body) => void calls.scores.push(body),
    addCoins: async (body) => {
      calls.coins.push(body);
      return { coinsAdded: body.amount, balance: 10 + body.amount };
    },
    toast: (t) => void calls.toasts.push(t),
    settleProgress: async () => ({ refused: false }),
    onScoreSubmitted: () => void (calls.refreshed += 1),
    onCoinsSaved: () => void (calls.profileRefreshed += 1),
    ...overrides,
  };
  return { deps, calls };
}

describe('handleFinishedRound', () => {
  it("submits a member's score under their username, then saves their coins", async () => {
    const { deps, calls } = fakeDeps({ username: 'grinder', storedName: () => 'Other' });
    await handleFinishedRound(round(), deps);
    expect(calls.prompts).toBe(0);
    expect(calls.scores).toEqual([
      {
        playerName: 'grinder',
        score: 42,
        level: 5,
        tasksCompleted: 42,
        powerUpsCollected: 0,
        gameTime: 20,
        runId: 'run-1',
        inputs: [3, 30, 61],
      },
    ]);
    expect(calls.coins).toEqual([{ amount: 3, runId: 'run-1', inputs: [3, 30, 61] }]);
    expect(calls.toasts.map((t) => t.title)).toEqual(['Score Submitted!', 'Coins Earned!']);
    expect(calls.refreshed).toBe(1);
    expect(calls.profileRefreshed).toBe(1);
  });

  it("uses a visitor's stored name, trimmed, and never saves a visitor's coins", async () => {
    const { deps, calls } = fakeDeps({ storedName: () => '  Walker  ' });
    await handleFinishedRound(round(), deps);
    expect(calls.prompts).toBe(0);
    expect(calls.scores).toMatchObject([{ playerName: 'Walker' }]);
    expect(calls.coins).toEqual([]);
  });

  it('asks a visitor without a stored name, keeps the answer and sends nothing without one', async () => {
    const answered = fakeDeps({ promptName: async () => '  Newbie ' });
    await handleFinishedRound(round(), answered.deps);
    expect(answered.calls.scores).toMatchObject([{ playerName: 'Newbie' }]);
    expect(answered.calls.stored).toEqual(['Newbie']);

    for (const answer of [null, '', '    ']) {
      let asked = 0;
      const declined = fakeDeps({
        promptName: async () => {
          asked += 1;
          return answer;
        },
      });
      await handleFinishedRound(round(), declined.deps);
      expect(asked).toBe(1);
      expect(declined.calls.scores).toEqual([]);
      expect(declined.calls.stored).toEqual([]);
      expect(declined.calls.toasts).toEqual([]);
    }
  });

  it('shows the failure toasts with the server message, and still tries the coins', async () => {
    const { deps, calls } = fakeDeps({
      username: 'grinder',
      submitScore: async () => {
        throw new ApiError(422, '{"message":"This game run has already been submitted."}', '');
      },
      addCoins: async () => {
        throw new ApiError(422, '{"message":"This game collected 2 coins, not 3."}', '');
      },
    });
    await handleFinishedRound(round(), deps);
    expect(calls.toasts).toEqual([
      {
        title: 'Failed to submit score to leaderboard.',
        description: 'This game run has already been submitted.',
        variant: 'destructive',
      },
      { description: 'This game collected 2 coins, not 3.', variant: 'destructive' },
    ]);
    expect(calls.refreshed).toBe(0);
  });

  it("forgets a kept name that turns out to be a member's, so the next round asks", async () => {
    const taken = new ApiError(
      422,
      '{"message":"The name belongs to a member.","code":"NAME_TAKEN"}',
      '',
    );
    const visitor = fakeDeps({
      storedName: () => 'grinder',
      submitScore: async () => {
        throw taken;
      },
    });
    await handleFinishedRound(round(), visitor.deps);
    expect(visitor.calls.forgotten).toBe(1);
    expect(visitor.calls.toasts[0]).toMatchObject({ description: 'The name belongs to a member.' });

    const otherFailure = fakeDeps({
      storedName: () => 'walker',
      submitScore: async () => {
        throw new ApiError(
          422,
          '{"message":"This game run has expired.","code":"RUN_EXPIRED"}',
          '',
        );
      },
    });
    await handleFinishedRound(round(), otherFailure.deps);
    expect(otherFailure.calls.forgotten).toBe(0);
  });

  it('falls back to the spec wording when the coin save fails without a message', async () => {
    const { deps, calls } = fakeDeps({
      username: 'grinder',
      addCoins: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await handleFinishedRound(round(), deps);
    expect(calls.toasts.at(-1)).toEqual({
      description: COIN_SAVE_FALLBACK,
      variant: 'destructive',
    });
  });

  it('skips the coins when there are none, and reports a round the server never registered', async () => {
    const none = fakeDeps({ username: 'grinder' });
    await handleFinishedRound(round({ summary: { ...summary, coins: 0 } }), none.deps);
    expect(none.calls.coins).toEqual([]);

    const offline = fakeDeps({ username: 'grinder' });
    await handleFinishedRound(round({ runId: null }), offline.deps);
    expect(offline.calls.scores).toEqual([]);
    expect(offline.calls.coins).toEqual([]);
    expect(offline.calls.toasts.map((t) => t.title ?? t.description)).toEqual([
      'Failed to submit score to leaderboard.',
      COIN_SAVE_FALLBACK,
    ]);
  });

  it('submits nothing for a round ended by hiding the tab, and says why', async () => {
    const { deps, calls } = fakeDeps({ username: 'member' });
    await handleFinishedRound(round({ cutShort: 'hidden' }), deps);
    expect(calls.scores).toEqual([]);
    expect(calls.coins).toEqual([]);
    expect(calls.toasts).toEqual([
      { title: HIDDEN_ROUND_TITLE, description: HIDDEN_ROUND_MESSAGE, variant: 'destructive' },
    ]);
  });

  it('submits nothing for a round whose progress the server refused, with its message', async () => {
    const { deps, calls } = fakeDeps({
      username: 'member',
      settleProgress: async () => ({ refused: true, message: 'This round is unranked: slow.' }),
    });
    await handleFinishedRound(round(), deps);
    expect(calls.scores).toEqual([]);
    expect(calls.coins).toEqual([]);
    expect(calls.prompts).toBe(0);
    expect(calls.toasts).toEqual([
      {
        title: 'Failed to submit score to leaderboard.',
        description: 'This round is unranked: slow.',
        variant: 'destructive',
      },
    ]);
  });
});
