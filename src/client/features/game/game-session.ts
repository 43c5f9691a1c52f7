import {
  createGame,
  step,
  summarize,
  type GameState,
  type RunSummary,
} from '#shared/game/engine.ts';
import { COUNTDOWN_STEP_MS, ROUND_START_DELAY_MS } from '#shared/game/pacing.ts';
import { FrameClock } from './frame-clock.ts';

export type GamePhase = 'ready' | 'countdown' | 'running' | 'over';

/** Spec: countdown 3, 2, 1, GO over three seconds, the round itself about 800 ms later. */
const COUNTDOWN_LABELS = ['3', '2', '1', 'GO'] as const;
/** The server dates a round's start the same way (issue time plus this). */
export const COUNTDOWN_TOTAL_MS = ROUND_START_DELAY_MS;

export type CountdownLabel = (typeof COUNTDOWN_LABELS)[number];

/** What the server handed out for this round; null when it could not be reached. */
export interface RoundTicket {
  runId: string | null;
  seed: number;
}

export interface FinishedRound {
  runId: string | null;
  summary: RunSummary;
  /** Step numbers of the jumps, as POST /api/game-scores expects them. */
  inputs: number[];
  /**
   * Why the round ended before its crash, if it did: the tab was hidden (a paused round looks
   * like a slowed one), or the server refused its progress. Such a round is not submitted.
   */
  cutShort: 'hidden' | 'refused' | null;
}

/**
 * One round at a time: ready, countdown, running, over. It owns the engine state and the jump
 * log; the page feeds it frame timestamps and player input, the renderer reads it.
 */
export class GameSession {
  phase: GamePhase = 'ready';
  /** The displayed game; before a round starts, an empty game that only shows the worker. */
  state: GameState = createGame(0);
  inputs: number[] = [];
  runId: string | null = null;
  /** Milliseconds of countdown shown so far (paused with the tab, like the game). */
  countdownMs = 0;
  private ticket: RoundTicket | null = null;
  private pendingJump = false;
  private readonly clock = new FrameClock();
  private readonly finishedListeners = new Set<(round: FinishedRound) => void>();

  get alpha(): number {
    return this.phase === 'running' ? this.clock.alpha : 1;
  }

  get countdownLabel(): CountdownLabel | null {
    if (this.phase !== 'countdown') return null;
    const index = Math.min(
      COUNTDOWN_LABELS.length - 1,
      Math.floor(this.countdownMs / COUNTDOWN_STEP_MS),
    );
    return COUNTDOWN_LABELS[index]!;
  }

  /** Ready or over: a new round may start. */
  get canStart(): boolean {
    return this.phase === 'ready' || this.phase === 'over';
  }

  onFinished(listener: (round: FinishedRound) => void): () => void {
    this.finishedListeners.add(listener);
    return () => this.finishedListeners.delete(listener);
  }

  /** Starts the countdown; the round runs once the countdown is over and the ticket is in. */
  start(): boolean {
    if (!this.canStart) return false;
    this.phase = 'countdown';
    this.countdownMs = 0;
    this.state = createGame(0);
    this.inputs = [];
    this.runId = null;
    this.ticket = null;
    this.pendingJump = false;
    this.clock.reset();
    return true;
  }

  provideTicket(ticket: RoundTicket): void {
    if (this.phase === 'countdown' && this.ticket === null) this.ticket = ticket;
  }

  /** A jump works only while running; taps within one step make one jump. */
  jump(): boolean {
    if (this.phase !== 'running') return false;
    this.pendingJump = true;
    return true;
  }

  /** The next frame counts no time for the interval the page was hidden. */
  pause(): void {
    this.clock.pause();
  }

  /** Advances by the time since the last frame; answers whether anything changed. */
  frame(nowMs: number): boolean {
    if (this.phase === 'countdown') {
      this.countdownMs += this.clock.elapsed(nowMs);
      if (this.countdownMs >= COUNTDOWN_TOTAL_MS && this.ticket !== null) {
        this.beginRunning(this.ticket, nowMs);
      }
      return true;
    }
    if (this.phase !== 'running') return false;
    const steps = this.clock.stepsFor(this.clock.elapsed(nowMs));
    for (let i = 0; i < steps; i++) {
      this.advance();
      if (this.state.over) {
        this.finish();
        break;
      }
    }
    return steps > 0;
  }

  private beginRunning(ticket: RoundTicket, nowMs: number): void {
    this.state = createGame(ticket.seed);
    this.runId = ticket.runId;
    this.phase = 'running';
    this.pendingJump = false;
    // Game time starts now: the countdown lends the round none of its own.
    this.clock.restart(nowMs);
  }

  private advance(): void {
    const state = this.state;
    const jump = this.pendingJump;
    this.pendingJump = false;
    // Recorded before the step, as the replay applies a jump "at step n" in the step taken then.
    if (jump) this.inputs.push(state.steps);
    step(state, jump);
  }

  /**
   * Ends the countdown or the round at once (the tab was hidden, the server refused the run);
   * a round under way is reported finished with the reason.
   */
  cutShort(reason: 'hidden' | 'refused'): void {
    if (this.phase === 'countdown') {
      this.phase = 'ready';
      this.ticket = null;
      return;
    }
    if (this.phase === 'running') this.finish(reason);
  }

  private finish(cutShort: FinishedRound['cutShort'] = null): void {
    this.phase = 'over';
    const round: FinishedRound = {
      runId: this.runId,
      summary: summarize(this.state),
      inputs: this.inputs,
      cutShort,
    };
    for (const listener of this.finishedListeners) listener(round);
  }
}
