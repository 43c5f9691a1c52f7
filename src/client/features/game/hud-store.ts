import { STEPS_PER_SECOND } from '#shared/game/constants.ts';
import { useSyncExternalStore } from 'react';
import { createStore, type Store } from '#client/lib/store.ts';
import type { CountdownLabel, GamePhase, GameSession } from './game-session.ts';

/** What the stats and tiles show; a new object only when something visible changed. */
export interface HudSnapshot {
  phase: GamePhase;
  countdown: CountdownLabel | null;
  score: number;
  speed: number;
  coins: number;
  obstaclesPassed: number;
  /** Worker's top edge, whole pixels of the 400 px playfield. */
  workerY: number;
  flightSeconds: number;
  highScore: number;
}

/** The worker's position changes every step; the tile needs it ten times a second at most. */
const POSITION_REFRESH_MS = 100;

export class HudStore {
  private readonly store: Store<HudSnapshot>;
  private lastPositionAt = -Infinity;

  constructor(session: GameSession, highScore: number) {
    this.store = createStore(HudStore.read(session, highScore));
  }

  private static read(session: GameSession, highScore: number): HudSnapshot {
    const state = session.state;
    return {
      phase: session.phase,
      countdown: session.countdownLabel,
      score: state.score,
      speed: state.speed,
      coins: state.coins,
      obstaclesPassed: state.obstaclesPassed,
      workerY: Math.round(state.worker.y),
      flightSeconds: Math.floor(state.steps / STEPS_PER_SECOND),
      highScore,
    };
  }

  /** Called after every frame; allocates nothing unless something visible changed. */
  sync(session: GameSession, nowMs: number, highScore = this.store.get().highScore): void {
    const prev = this.store.get();
    const state = session.state;
    const discreteChanged =
      session.phase !== prev.phase ||
      session.countdownLabel !== prev.countdown ||
      state.score !== prev.score ||
      state.coins !== prev.coins ||
      state.obstaclesPassed !== prev.obstaclesPassed ||
      Math.floor(state.steps / STEPS_PER_SECOND) !== prev.flightSeconds ||
      highScore !== prev.highScore;
    const positionDue =
      Math.round(state.worker.y) !== prev.workerY &&
      (nowMs - this.lastPositionAt >= POSITION_REFRESH_MS || session.phase !== 'running');
    if (!discreteChanged && !positionDue) return;
    this.lastPositionAt = nowMs;
    this.store.set(HudStore.read(session, highScore));
  }

  readonly getSnapshot = (): HudSnapshot => this.store.get();
  readonly subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);
}

export function useHud(hud: HudStore): HudSnapshot {
  return useSyncExternalStore(hud.subscribe, hud.getSnapshot, hud.getSnapshot);
}

/** Flight time as m:ss. */
export function formatFlightTime(totalSeconds: number): string {
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}
