/** One event as a test reads it off `GET /api/events`. */
export interface StreamEvent {
  id: number | undefined;
  type: string;
  data: unknown;
}

/**
 * A reader of a real `text/event-stream` over HTTP (fetch), parsed as a browser's EventSource
 * parses it: the tests' one way to listen to the live stream.
 */
export class EventStreamReader {
  readonly events: StreamEvent[] = [];
  /** Comment lines (`:` and what follows it), with the time each arrived. */
  readonly comments: { text: string; at: number }[] = [];
  /** The stream's first line, whatever it is. */
  firstLine: string | undefined;
  retry: number | undefined;
  ended = false;
  private waiters: (() => void)[] = [];
  private constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {}

  static async open(url: string, headers: Record<string, string> = {}): Promise<EventStreamReader> {
    const abort = new AbortController();
    const response = await fetch(url, { headers, signal: abort.signal });
    const reader = new EventStreamReader(response, abort);
    if (response.ok && response.body) void reader.pump(response.body);
    return reader;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value: chunk } = await reader.read();
        if (done) break;
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          this.parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
        this.wake();
      }
    } catch {
      // Aborted by close(), or cut by the server.
    }
    this.ended = true;
    this.wake();
  }

  private parse(block: string): void {
    let id: number | undefined;
    let type = 'message';
    const data: string[] = [];
    let fields = 0;
    const lines = block.split('\n');
    this.firstLine ??= lines[0];
    for (const line of lines) {
      if (line.startsWith(':')) {
        this.comments.push({ text: line.slice(1).trim(), at: Date.now() });
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      fields += 1;
      if (field === 'id') id = Number(value);
      else if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry') this.retry = Number(value);
    }
    if (fields > 0 && data.length > 0) {
      this.events.push({ id, type, data: JSON.parse(data.join('\n')) });
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** The first event (from `from` on) that matches, waiting up to `timeoutMs` for it. */
  async next(
    match: (event: StreamEvent) => boolean,
    timeoutMs = 2_000,
    from = 0,
  ): Promise<StreamEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.slice(from).find(match);
      if (found) return found;
      if (this.ended) throw new Error(`stream ended; events: ${JSON.stringify(this.events)}`);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`no matching event in ${timeoutMs} ms; got ${JSON.stringify(this.events)}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * Resolves true once `condition` holds, checked whenever the stream delivers something; false
   * after `timeoutMs` or when the stream ends without it.
   */
  async until(condition: () => boolean, timeoutMs = 2_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!condition() && !this.ended && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return condition();
  }

  /** Resolves once the server has ended the stream (or after `timeoutMs`, false). */
  waitForEnd(timeoutMs = 5_000): Promise<boolean> {
    return this.until(() => this.ended, timeoutMs);
  }

  get lastId(): number | undefined {
    return this.events.filter((e) => e.id !== undefined).at(-1)?.id;
  }

  close(): void {
    this.abort.abort();
  }
}
