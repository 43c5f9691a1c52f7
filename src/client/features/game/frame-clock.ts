import { STEP_MS } from '#shared/game/constants.ts';

/**
 * A longer gap between frames (a breakpoint, a frozen tab) counts as this much. A round is
 * paced in real time (docs/decisions/012), so time a busy phone loses in a stall must be caught
 * up, not dropped: dropped time adds up over a long round until it falls behind. A stall of up
 * to a second is caught up in the next frame; a longer one is lost and counts against the round.
 */
export const MAX_FRAME_MS = 1000;
/** At most a second of steps in one frame: a step costs microseconds, so no spiral follows. */
export const MAX_STEPS_PER_FRAME = Math.ceil(MAX_FRAME_MS / STEP_MS);

/**
 * Turns display-frame timestamps into whole simulation steps ("Fix Your Timestep"): the game
 * advances 60 steps per second on a 60, 120 or 144 Hz screen alike, and the left-over fraction
 * of a step tells the renderer how far to interpolate.
 */
export class FrameClock {
  private last: number | null = null;
  private accumulator = 0;

  constructor(
    private readonly stepMs = STEP_MS,
    private readonly maxStepsPerFrame = MAX_STEPS_PER_FRAME,
  ) {}

  /** Milliseconds since the previous frame (0 for the first frame after a pause), capped. */
  elapsed(nowMs: number): number {
    const last = this.last;
    this.last = nowMs;
    if (last === null) return 0;
    return Math.min(MAX_FRAME_MS, Math.max(0, nowMs - last));
  }

  /** Adds a frame's elapsed time and answers how many steps to run now. */
  stepsFor(elapsedMs: number): number {
    this.accumulator += elapsedMs;
    let steps = 0;
    while (this.accumulator >= this.stepMs && steps < this.maxStepsPerFrame) {
      this.accumulator -= this.stepMs;
      steps += 1;
    }
    // Still a step or more behind after the cap: forget it rather than run fast later.
    if (this.accumulator >= this.stepMs) this.accumulator %= this.stepMs;
    return steps;
  }

  /** How far the display is between the last step and the next, in [0, 1). */
  get alpha(): number {
    return this.accumulator / this.stepMs;
  }

  /** The next frame starts a fresh interval (after the tab was hidden, say). */
  pause(): void {
    this.last = null;
  }

  /** Starts counting from `nowMs` with nothing accumulated. */
  restart(nowMs: number): void {
    this.last = nowMs;
    this.accumulator = 0;
  }

  reset(): void {
    this.last = null;
    this.accumulator = 0;
  }
}
