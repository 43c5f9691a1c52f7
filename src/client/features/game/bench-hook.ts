import type { CharacterKey } from '#shared/characters.ts';
import { summarize, type RunSummary } from '#shared/game/engine.ts';
import type { GameSession } from './game-session.ts';
import type { HudStore } from './hud-store.ts';

/**
 * What the hook drives: the parts of the game controller it uses. Named here, not imported, so
 * the controller (which installs the hook) and the hook do not import each other.
 */
export interface BenchedGame {
  readonly session: GameSession;
  readonly hud: HudStore;
  character: CharacterKey;
  draw(timeMs: number): void;
  ensureLoop(): void;
  observeFrameCost(listener: ((ms: number) => void) | null): void;
}

export interface BenchResult {
  /** Milliseconds per frame: simulation plus drawing (plus rasterising, when flushed). */
  frameMs: number[];
  summary: RunSummary;
}

export interface GameBenchHook {
  /**
   * Plays a recorded jump log through the real session and renderer as fast as the machine
   * allows, one display frame of `frameIntervalMs` of game time per iteration. `flush` reads a
   * pixel back after each frame so the browser must rasterise it inside the measurement.
   */
  run(options: {
    seed: number;
    inputs: readonly number[];
    frameIntervalMs: number;
    character?: CharacterKey;
    flush?: boolean;
    /** Stops (leaving the picture on screen) once this many steps have run. */
    untilStep?: number;
  }): BenchResult;
  /**
   * Plays the jump log through the page's own requestAnimationFrame loop, so every frame is
   * presented as in real play (a two-minute log takes two minutes); resolves with the cost of
   * each running frame: simulation, drawing and the HUD update.
   */
  runPaced(options: {
    seed: number;
    inputs: readonly number[];
    character?: CharacterKey;
  }): Promise<BenchResult>;
}

declare global {
  interface Window {
    /** Set before the page loads (e.g. by Playwright's addInitScript) to get the hook. */
    __GRIND_BENCH__?: boolean;
    __grindBench?: GameBenchHook;
  }
}

/** Jumps exactly at the logged steps, however the frames fall. */
function jumpScript(inputs: readonly number[]): (steps: number) => boolean {
  let next = 0;
  return (steps) => {
    while (next < inputs.length && inputs[next]! < steps) next += 1;
    return inputs[next] === steps;
  };
}

/** The benchmark's entry into the game; absent unless the page was opened asking for it. */
export function installBenchHook(game: BenchedGame, canvas: HTMLCanvasElement): () => void {
  if (window.__GRIND_BENCH__ !== true) return () => {};
  const ctx = canvas.getContext('2d')!;
  const session = game.session;
  window.__grindBench = {
    run({ seed, inputs, frameIntervalMs, character, flush = false, untilStep = Infinity }) {
      const script = jumpScript(inputs);
      if (!session.start(script)) throw new Error('a round is already on');
      if (character) game.character = character;
      session.provideTicket({ runId: null, seed });
      let now = 0;
      while (session.phase === 'countdown') session.frame((now += 250));
      const frameMs: number[] = [];
      while (session.phase === 'running' && session.state.steps < untilStep) {
        now += frameIntervalMs;
        const started = performance.now();
        session.frame(now);
        game.draw(now);
        if (flush) ctx.getImageData(0, 0, 1, 1);
        frameMs.push(performance.now() - started);
      }
      game.hud.sync(session, now);
      return { frameMs, summary: summarize(session.state) };
    },

    runPaced({ seed, inputs, character }) {
      return new Promise((resolve, reject) => {
        if (!session.start(jumpScript(inputs))) {
          reject(new Error('a round is already on'));
          return;
        }
        if (character) game.character = character;
        const frameMs: number[] = [];
        game.observeFrameCost((ms) => frameMs.push(ms));
        const stop = session.onFinished(() => {
          stop();
          // The finishing frame reports its cost after this listener; let it land first.
          queueMicrotask(() => {
            game.observeFrameCost(null);
            resolve({ frameMs, summary: summarize(session.state) });
          });
        });
        session.provideTicket({ runId: null, seed });
        game.ensureLoop();
      });
    },
  };
  return () => {
    delete window.__grindBench;
  };
}
