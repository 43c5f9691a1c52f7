import { STEPS_PER_SECOND } from '#shared/game/constants.ts';
import { useSyncExternalStore } from 'react';
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
  private snapshot: HudSnapshot;
  private lastPositionAt = -Infinity;
  private readonly listeners = new Set<() => void>();

  constructor(session: GameSession, highScore: number) {
    this.snapshot = HudStore.read(session, highScore);
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
  sync(session: GameSession, nowMs: number, highScore = this.snapshot.highScore): void {
    const prev = this.snapshot;
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
    this.snapshot = HudStore.read(session, highScore);
    for (const listener of this.listeners) listener();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): HudSnapshot => this.snapshot;
}

export function useHud(store: HudStore): HudSnapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

/** Flight time as m:ss. */
export function formatFlightTime(totalSeconds: number): string {
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}
