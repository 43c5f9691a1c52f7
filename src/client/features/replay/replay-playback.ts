import { STEP_MS } from '#shared/game/constants.ts';
import { createGame, step, type GameState } from '#shared/game/engine.ts';


/**
 * A recorded run played back with the game's own engine: from its seed, jumping at the logged
 * steps, it passes through exactly the states the player saw. Seeking back replays from the
 * start (a 15-minute run is 54,000 steps, a few milliseconds); seeking forward steps on.
 */
export class ReplayPlayback {
  state: GameState;
  private next = 0;
  private accumulator = 0;

  constructor(
    readonly seed: number,
    readonly inputs: readonly number[],
    /** The run's length in steps (its end: a crash or the time limit). */
    readonly steps: number,
  ) {
    this.state = createGame(seed);
  }

  get step(): number {
    return this.state.steps;
  }

  get ended(): boolean {
    return this.state.over || this.state.steps >= this.steps;
  }

  /** Fraction of a step since the last, for drawing between steps. */
  get alpha(): number {
    return this.ended ? 1 : this.accumulator / STEP_MS;
  }

  /** Advances one step; false at the end. */
  stepOnce(): boolean {
    if (this.ended) return false;
    const jump = this.inputs[this.next] === this.state.steps;
    if (jump) this.next += 1;
    step(this.state, jump);
    return true;
  }

  /** Advances by `elapsedMs` of real time at `speed`; answers how many steps ran. */
  advance(elapsedMs: number, speed: number): number {
    this.accumulator += Math.max(0, elapsedMs) * speed;
    let ran = 0;
    while (this.accumulator >= STEP_MS && this.stepOnce()) {
      this.accumulator -= STEP_MS;
      ran += 1;
    }
    if (this.ended) this.accumulator = 0;
    return ran;
  }

  /** Goes to the state after `target` steps (clamped to the run). */
  seek(target: number): void {
    const to = Math.max(0, Math.min(this.steps, Math.floor(target)));
    if (to < this.state.steps) {
      this.state = createGame(this.seed);
      this.next = 0;
    }
    while (this.state.steps < to && this.stepOnce());
    this.accumulator = 0;
  }
}
