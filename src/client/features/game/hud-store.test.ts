import { describe, expect, it } from 'vitest';
import { STEP_MS } from '#shared/game/constants.ts';
import { GameSession } from './game-session.ts';
import { formatFlightTime, HudStore } from './hud-store.ts';

describe('HudStore', () => {
  it('publishes a new snapshot only when something visible changed', () => {
    const session = new GameSession();
    const hud = new HudStore(session, 12);
    let emitted = 0;
    hud.subscribe(() => (emitted += 1));
    const first = hud.getSnapshot();
    expect(first).toMatchObject({
      phase: 'ready',
      score: 0,
      speed: 2,
      highScore: 12,
      workerY: 185,
    });
    hud.sync(session, 0);
    expect(emitted).toBe(0);
    expect(hud.getSnapshot()).toBe(first);

    session.start();
    hud.sync(session, 0);
    expect(hud.getSnapshot()).toMatchObject({ phase: 'countdown', countdown: '3' });
    expect(emitted).toBe(1);
  });

  it("refreshes the worker's position at most ten times a second while flying", () => {
    const session = new GameSession();
    const hud = new HudStore(session, 0);
    session.start();
    session.provideTicket({ runId: null, seed: 1 });
    let now = 0;
    while (session.phase === 'countdown') session.frame((now += 100));
    let emitted = 0;
    hud.subscribe(() => (emitted += 1));
    const start = now;
    // Ten frames, about 167 ms: the worker moves every step; score changes once (at step 10).
    for (let i = 0; i < 10; i++) {
      session.frame((now += STEP_MS));
      hud.sync(session, now);
    }
    expect(now - start).toBeLessThan(200);
    expect(emitted).toBeLessThanOrEqual(4);
    expect(hud.getSnapshot().phase).toBe('running');
  });

  it('formats flight time as m:ss', () => {
    expect(formatFlightTime(0)).toBe('0:00');
    expect(formatFlightTime(9)).toBe('0:09');
    expect(formatFlightTime(75)).toBe('1:15');
    expect(formatFlightTime(600)).toBe('10:00');
  });
});
