// bench:game's hands in the page: bundled by game.ts into an init script (page.addInitScript), so
// it runs before the site's own code and nothing of it ships in the site's bundle.
//
// It plays the real game the way a person does: it clicks Start Game and presses Space on the
// focused element. To know when to press, it feeds a second GameSession (the game's own class, in
// this bundle) the same frame timestamps and the same presses: the session is deterministic, so
// it holds what the page's holds, and the autopilot reads it to decide each press.
//
// To time frames it wraps requestAnimationFrame for one callback only: the one the Start Game
// click asks for, the game's frame loop. Run back to back, it holds that callback and calls it
// with timestamps of its own, as fast as the machine allows; paced, it leaves the browser's loop
// alone and only times each call.
import { autopilot } from '#shared/game/autopilot.ts';
import { summarize, type GameState, type RunSummary } from '#shared/game/engine.ts';
import { COUNTDOWN_TOTAL_MS, GameSession } from '#client/features/game/game-session.ts';

export interface DriverRunOptions {
  /** The seed the benchmark's answer to POST /api/game-runs hands the page. */
  seed: number;
  /** The autopilot flies until this step, then stops pressing and the worker falls. */
  targetSteps: number;
}

export interface DriverResult {
  /** Milliseconds per running frame: the game's frame callback (plus rasterising, when flushed). */
  frameMs: number[];
  /** The round as the mirrored session ended it. */
  summary: RunSummary;
  /** The steps at which Space was pressed, as the page's jump log should hold them. */
  inputs: number[];
}

export interface GameBenchDriver {
  /**
   * Plays a round with the game's frame loop held: each frame is `frameIntervalMs` of game time
   * later than the last and follows the previous one at once. `flush` reads a pixel back after
   * each frame, so the browser must rasterise it inside the measurement.
   */
  run(
    options: DriverRunOptions & { frameIntervalMs: number; flush: boolean },
  ): Promise<DriverResult>;
  /** Plays a round in the browser's own requestAnimationFrame loop, every frame presented. */
  runPaced(options: DriverRunOptions): Promise<DriverResult>;
}

declare global {
  interface Window {
    __gameBench?: GameBenchDriver;
  }
}

const realRequest = window.requestAnimationFrame.bind(window);
const realCancel = window.cancelAnimationFrame.bind(window);
const clock = performance.now.bind(performance);
/** The handle of a held frame request; real ones are positive. */
const HELD = -1;

type Mode = 'off' | 'held' | 'paced';

interface Round {
  mirror: GameSession;
  wantsJump: (state: GameState) => boolean;
  targetSteps: number;
  flush: CanvasRenderingContext2D | null;
  frameMs: number[];
  /** Set when the game's frame callback asks for the next frame. */
  requested: boolean;
  failure: Error | null;
  onOver: (() => void) | null;
}

let mode: Mode = 'off';
let gameFrame: FrameRequestCallback | null = null;
let capture: FrameRequestCallback[] | null = null;
let held: FrameRequestCallback | null = null;
let round: Round | null = null;

window.requestAnimationFrame = (callback) => {
  if (capture) {
    capture.push(callback);
    gameFrame = callback;
  }
  if (callback !== gameFrame || mode === 'off') return realRequest(callback);
  if (round) round.requested = true;
  if (mode === 'held') {
    held = callback;
    return HELD;
  }
  return realRequest((timestamp) => playFrame(callback, timestamp, true));
};

window.cancelAnimationFrame = (handle) => {
  if (handle === HELD) held = null;
  else realCancel(handle);
};

function press(): void {
  const target = document.activeElement ?? document.body;
  const init = { key: ' ', code: 'Space', bubbles: true, cancelable: true };
  target.dispatchEvent(new KeyboardEvent('keydown', init));
  target.dispatchEvent(new KeyboardEvent('keyup', init));
}

/** One frame of the game: press if the autopilot would, then the game's own callback, timed. */
function playFrame(callback: FrameRequestCallback, timestamp: number, pressAllowed: boolean) {
  const r = round!;
  const mirror = r.mirror;
  const running = mirror.phase === 'running';
  if (pressAllowed && running && mirror.state.steps < r.targetSteps && r.wantsJump(mirror.state)) {
    press();
    mirror.jump();
  }
  mirror.frame(timestamp);
  r.requested = false;
  const started = clock();
  callback(timestamp);
  r.flush?.getImageData(0, 0, 1, 1);
  const ms = clock() - started;
  if (running) r.frameMs.push(ms);
  // The page's loop goes on exactly while its round does: otherwise the two sessions parted.
  const over = mirror.phase === 'over';
  if (r.requested === over && r.failure === null) {
    r.failure = new Error(
      over
        ? `the page's round went on after step ${mirror.state.steps}, where the mirrored one ended`
        : `the page's round ended before the mirrored one (step ${mirror.state.steps})`,
    );
  }
  if (over || r.failure) r.onOver?.();
}

const status = () => document.querySelector('[data-testid="game-status"]')?.textContent;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Clicks Start Game and notes which animation-frame callback the click asked for. */
function begin(next: Mode, options: DriverRunOptions, flush: boolean): Round {
  const button = [...document.querySelectorAll<HTMLButtonElement>('#game button')].find((b) =>
    b.textContent?.includes('Start Game'),
  );
  if (!button || button.disabled) throw new Error('no Start Game button to press');
  const canvas = document.querySelector<HTMLCanvasElement>('#game canvas');
  if (!canvas) throw new Error('no game canvas');
  const mirror = new GameSession();
  mirror.start();
  // The benchmark answers POST /api/game-runs with this seed; the page must have it by the end
  // of the countdown (run() waits for it, a paced countdown takes real seconds).
  mirror.provideTicket({ runId: null, seed: options.seed });
  round = {
    mirror,
    wantsJump: autopilot(options.seed),
    targetSteps: options.targetSteps,
    flush: flush ? canvas.getContext('2d') : null,
    frameMs: [],
    requested: false,
    failure: null,
    onOver: null,
  };
  mode = next;
  held = null;
  capture = [];
  button.click();
  const asked = capture.length;
  capture = null;
  if (asked !== 1) {
    mode = 'off';
    throw new Error(`Start Game asked for ${asked} animation frames, not the game's one`);
  }
  return round;
}

function end(r: Round): DriverResult {
  mode = 'off';
  round = null;
  if (r.failure) throw r.failure;
  return { frameMs: r.frameMs, summary: summarize(r.mirror.state), inputs: [...r.mirror.inputs] };
}

/** Calls the game's held frame callback at `timestamp`. */
function fire(r: Round, timestamp: number, pressAllowed = true): void {
  const callback = held;
  if (!callback) throw new Error("the game's frame loop stopped");
  held = null;
  playFrame(callback, timestamp, pressAllowed);
  if (r.failure) throw r.failure;
}

window.__gameBench = {
  async run({ frameIntervalMs, flush, ...options }) {
    const r = begin('held', options, flush);
    try {
      const mirror = r.mirror;
      // Game time of its own, in quarter seconds up to the frame that would end the countdown:
      // the same schedule whenever it runs, so every round is the same round.
      let now = 250;
      fire(r, now);
      while (mirror.countdownMs + 250 < COUNTDOWN_TOTAL_MS) fire(r, (now += 250));
      // The frame that ends it, again at the same time until the page shows the round running
      // (its ticket may still be on the way): a frame that adds no time changes nothing else.
      now += 250;
      const deadline = clock() + 30_000;
      for (;;) {
        fire(r, now, false);
        await pause(10);
        if (status() === 'Flying') break;
        if (clock() > deadline) throw new Error('the round did not start after the countdown');
      }
      if (mirror.phase !== 'running') throw new Error('the mirrored round did not start');
      // Those repeated frames ran no step; the round's frames start now.
      r.frameMs.length = 0;
      while (mirror.phase === 'running') fire(r, (now += frameIntervalMs));
    } catch (error) {
      mode = 'off';
      round = null;
      throw error;
    }
    return end(r);
  },

  runPaced(options) {
    return new Promise((resolve, reject) => {
      const r = begin('paced', options, false);
      r.onOver = () => {
        r.onOver = null;
        try {
          resolve(end(r));
        } catch (error) {
          reject(error as Error);
        }
      };
    });
  },
};
