import type { CharacterKey } from '#shared/characters.ts';
import { summarize, type RunSummary } from '#shared/game/engine.ts';
import type { GameController } from './game-controller.ts';

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
}

declare global {
  interface Window {
    /** Set before the page loads (e.g. by Playwright's addInitScript) to get the hook. */
    __GRIND_BENCH__?: boolean;
    __grindBench?: GameBenchHook;
  }
}

/** The benchmark's entry into the game; absent unless the page was opened asking for it. */
export function installBenchHook(game: GameController, canvas: HTMLCanvasElement): () => void {
  if (window.__GRIND_BENCH__ !== true) return () => {};
  const ctx = canvas.getContext('2d')!;
  window.__grindBench = {
    run({ seed, inputs, frameIntervalMs, character, flush = false, untilStep = Infinity }) {
      let next = 0;
      const script = (steps: number) => {
        while (next < inputs.length && inputs[next]! < steps) next += 1;
        return inputs[next] === steps;
      };
      const session = game.session;
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
  };
  return () => {
    delete window.__grindBench;
  };
}
