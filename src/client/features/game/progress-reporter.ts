import type { ProgressBody } from '#shared/api/game.ts';
import { REPORT_INTERVAL_MS } from '#shared/game/pacing.ts';
import { ApiError } from '#client/lib/api-client.ts';

/** How a round's reporting ended: accepted, or refused by the server with its message. */
export type ProgressOutcome = { refused: false } | { refused: true; message: string };

export interface ReporterDeps {
  send(body: ProgressBody): Promise<{ step: number }>;
  /** The session's step reached and its jump log (read, never changed). */
  read(): { step: number; inputs: readonly number[] };
  /** Called once when the server refuses a report: the round is unranked. */
  onRefused(message: string): void;
}

/**
 * Reports a running round's progress to the server (docs/decisions/012): once a second, the
 * step reached and the jumps since the last report the server acknowledged, one request at a
 * time (a slow connection bunches reports rather than reorders them). A report that fails on
 * the network is covered by the next; a 4xx refusal ends the round.
 */
export class ProgressReporter {
  private acked = 0;
  private lastSentMs = -Infinity;
  private inFlight: Promise<void> | null = null;
  private refusal: string | null = null;

  constructor(private readonly deps: ReporterDeps) {}

  get refused(): boolean {
    return this.refusal !== null;
  }

  /** The round began at `nowMs`: the first report is due a second later. */
  begin(nowMs: number): void {
    this.lastSentMs = nowMs;
  }

  /** Called every frame while the round runs; sends a report when one is due. */
  tick(nowMs: number): void {
    if (this.inFlight || this.refusal !== null) return;
    if (nowMs - this.lastSentMs < REPORT_INTERVAL_MS) return;
    this.lastSentMs = nowMs;
    this.report();
  }

  /** At game over: waits for the report in flight, then sends the last one. */
  async finish(): Promise<ProgressOutcome> {
    for (let attempt = 0; attempt < 3 && this.refusal === null; attempt++) {
      await this.inFlight;
      const { step } = this.deps.read();
      if (this.acked >= step || this.refusal !== null) break;
      await this.report();
    }
    return this.refusal === null ? { refused: false } : { refused: true, message: this.refusal };
  }

  private report(): Promise<void> {
    const { step, inputs } = this.deps.read();
    const from = this.acked;
    const jumps = inputs.filter((s) => s >= from);
    const request = this.deps
      .send({ step, jumps })
      .then(
        (answer) => {
          this.acked = Math.max(this.acked, answer.step);
        },
        (error: unknown) => {
          // The network, a 5xx or a 409 (another report at once): the next report covers it.
          if (!(error instanceof ApiError) || error.status >= 500 || error.status === 409) return;
          if (error.status === 429) return;
          if (this.refusal !== null) return;
          this.refusal = error.serverMessage ?? error.message;
          this.deps.onRefused(this.refusal);
        },
      )
      .finally(() => {
        this.inFlight = null;
      });
    this.inFlight = request;
    return request;
  }
}
