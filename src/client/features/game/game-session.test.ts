import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autopilotInputs } from '#shared/game/autopilot.ts';
import { STEP_MS } from '#shared/game/constants.ts';
import { simulate } from '#shared/game/simulate.ts';
import { COUNTDOWN_TOTAL_MS, GameSession, type FinishedRound } from './game-session.ts';

/** Feeds frames at `intervalMs` until the countdown is over and the round has begun. */
function startRound(
  session: GameSession,
  seed: number,
  intervalMs: number,
  runId: string | null = 'run',
) {
  let now = 1000;
  session.start();
  session.provideTicket({ runId, seed });
  session.frame(now);
  while (session.phase === 'countdown') session.frame((now += intervalMs));
  return now;
}

describe('GameSession', () => {
  it('counts down 3, 2, 1, GO and runs about 800 ms after GO', () => {
    const session = new GameSession();
    expect(session.canStart).toBe(true);
    session.start();
    expect(session.start()).toBe(false);
    const labels: string[] = [];
    let now = 0;
    session.frame(now);
    session.provideTicket({ runId: 'r', seed: 1 });
    while (session.phase === 'countdown') {
      labels.push(session.countdownLabel!);
      session.frame((now += 100));
    }
    expect([...new Set(labels)]).toEqual(['3', '2', '1', 'GO']);
    expect(labels.filter((l) => l === 'GO')).toHaveLength(8);
    expect(now).toBe(COUNTDOWN_TOTAL_MS);
    expect(session.phase).toBe('running');
  });

  it('waits at GO until the server has handed out the run', () => {
    const session = new GameSession();
    session.start();
    let now = 0;
    session.frame(now);
    for (let i = 0; i < 100; i++) session.frame((now += 100));
    expect(session.phase).toBe('countdown');
    expect(session.countdownLabel).toBe('GO');
    session.provideTicket({ runId: 'late', seed: 7 });
    session.frame(now + 16);
    expect(session.phase).toBe('running');
    expect(session.runId).toBe('late');
  });

  it('ignores jumps unless running, and taps within one step make one jump', () => {
    const session = new GameSession();
    expect(session.jump()).toBe(false);
    session.start();
    expect(session.jump()).toBe(false);
    const now = startRound(session, 3, 50);
    expect(session.jump()).toBe(true);
    session.jump();
    session.jump();
    session.frame(now + STEP_MS);
    expect(session.inputs).toEqual([0]);
    expect(session.state.jumps).toBe(1);
  });

  it('records a log that the server replays to the same result, at any frame rate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.constantFrom(1000 / 30, 1000 / 60, 1000 / 120, 1000 / 144, 7, 33),
        (seed, intervalMs) => {
          const plan = autopilotInputs(seed, 400);
          const session = new GameSession();
          const finished: FinishedRound[] = [];
          session.onFinished((round) => finished.push(round));
          let now = startRound(session, seed, intervalMs);
          let next = 0;
          while (session.phase === 'running') {
            // A person presses between frames; the press lands on the next step.
            if (plan[next] === session.state.steps) {
              session.jump();
              next += 1;
            }
            // One step per frame at most here, so each planned press meets its own step.
            session.frame((now += Math.min(intervalMs, STEP_MS)));
          }
          expect(finished).toHaveLength(1);
          const round = finished[0]!;
          expect(round.inputs).toEqual(plan);
          const replay = simulate(seed, round.inputs);
          expect(replay.ok && replay.score).toBe(round.summary.score);
          expect(replay.ok && replay.coins).toBe(round.summary.coins);
          expect(replay.ok && replay.steps).toBe(round.summary.steps);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('keeps a press made before a frame that takes no step for the next step', () => {
    const session = new GameSession();
    let now = startRound(session, 11, STEP_MS);
    session.frame((now += STEP_MS));
    expect(session.state.steps).toBe(1);
    session.jump();
    // A short frame (a 144 Hz screen's, say): not enough time for another step yet.
    session.frame((now += STEP_MS * 0.4));
    expect(session.state.steps).toBe(1);
    expect(session.inputs).toEqual([]);
    session.frame(now + STEP_MS * 0.8);
    expect(session.state.steps).toBe(2);
    expect(session.inputs).toEqual([1]);
  });

  it('stands still while paused and interpolates only while running', () => {
    const session = new GameSession();
    expect(session.alpha).toBe(1);
    let now = startRound(session, 5, 100);
    session.frame((now += STEP_MS * 3.5));
    const steps = session.state.steps;
    expect(session.alpha).toBeCloseTo(0.5);
    session.pause();
    session.frame((now += 60_000));
    expect(session.state.steps).toBe(steps);
    session.frame(now + STEP_MS);
    expect(session.state.steps).toBe(steps + 1);
  });
});
