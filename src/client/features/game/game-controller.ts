import { DEFAULT_CHARACTER_KEY, type CharacterKey } from '#shared/characters.ts';
import { GameRenderer } from '#client/lib/game-renderer.ts';
import { reportProgress } from './game-api.ts';
import { GameSession } from './game-session.ts';
import { HudStore } from './hud-store.ts';
import { ProgressReporter, type ProgressOutcome } from './progress-reporter.ts';

/**
 * Ties the session to the screen outside React: the requestAnimationFrame loop (only while a
 * round is on, never while the tab is hidden), the renderer and the HUD store. React only
 * mounts the canvas and reads the HUD.
 */
export class GameController {
  readonly session = new GameSession();
  readonly hud: HudStore;
  /** The skin drawn for the worker; set from the member's profile when a round starts. */
  character: CharacterKey = DEFAULT_CHARACTER_KEY;
  private renderer: GameRenderer | null = null;
  private handle = 0;
  private reporter: ProgressReporter | null = null;
  private reporterRunId: string | null = null;

  constructor(highScore: number) {
    this.hud = new HudStore(this.session, highScore);
  }

  /**
   * At game over: the round's last progress report, once the one in flight is answered.
   * Resolves at once for a round the server never issued.
   */
  settleProgress(runId: string | null): Promise<ProgressOutcome> {
    if (!runId || this.reporterRunId !== runId || !this.reporter) {
      return Promise.resolve({ refused: false });
    }
    return this.reporter.finish();
  }

  /** While a registered round runs, its reports go out once a second from the frame loop. */
  private reportProgress(now: number): void {
    const session = this.session;
    if (session.phase !== 'running' || !session.runId) return;
    if (this.reporterRunId !== session.runId) {
      const runId = session.runId;
      this.reporterRunId = runId;
      this.reporter = new ProgressReporter({
        send: (body) => reportProgress(runId, body),
        read: () => ({ step: session.state.steps, inputs: session.inputs }),
        // The round ends at once; the end-of-round handling shows the server's message.
        onRefused: () => {
          if (session.runId !== runId) return;
          session.cutShort('refused');
          this.hud.sync(session, performance.now());
        },
      });
      this.reporter.begin(now);
    }
    this.reporter?.tick(now);
  }

  private get active(): boolean {
    return this.session.phase === 'countdown' || this.session.phase === 'running';
  }

  private readonly tick = (now: number) => {
    this.handle = 0;
    this.session.frame(now);
    this.reportProgress(now);
    this.draw(now);
    this.hud.sync(this.session, now);
    if (this.active) this.ensureLoop();
  };

  ensureLoop(): void {
    if (this.handle === 0 && !document.hidden) this.handle = requestAnimationFrame(this.tick);
  }

  draw(timeMs: number): void {
    this.renderer?.draw({
      state: this.session.state,
      alpha: this.session.alpha,
      character: this.character,
      timeMs,
    });
  }

  /** Mounts on a canvas; returns the clean-up. */
  attach(canvas: HTMLCanvasElement): () => void {
    const renderer = new GameRenderer(canvas);
    this.renderer = renderer;
    const redraw = () => {
      if (renderer.resize() && this.handle === 0) this.draw(performance.now());
    };
    this.draw(performance.now());
    const observer = new ResizeObserver(redraw);
    observer.observe(canvas);
    // Zooming changes devicePixelRatio, which a ResizeObserver on CSS pixels may not report.
    window.addEventListener('resize', redraw);
    const onVisibility = () => {
      if (document.hidden) {
        cancelAnimationFrame(this.handle);
        this.handle = 0;
        // A paused round is what a slowed one looks like, so hiding the tab ends it at once.
        if (this.active) {
          this.session.cutShort('hidden');
          this.hud.sync(this.session, performance.now());
        }
      } else if (this.active) {
        this.ensureLoop();
      }
      // Either way the next frame measures from itself: hidden time is not game time.
      this.session.pause();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', redraw);
      document.removeEventListener('visibilitychange', onVisibility);
      cancelAnimationFrame(this.handle);
      this.handle = 0;
      this.renderer = null;
    };
  }

  setCharacter(key: CharacterKey): void {
    this.character = key;
  }

  /** Redraws the still picture (e.g. after the skin changed) when no loop is running. */
  refresh(): void {
    if (this.handle === 0) this.draw(performance.now());
  }
}
