import { PassThrough } from 'node:stream';
import type { LiveEvent, LiveEventData, LiveEventInput } from '#shared/api/live.ts';
import { LIVE_HEARTBEAT_MS, LIVE_RETRY_MS } from '#shared/api/live.ts';
import type { LiveTransport } from './transport.ts';
import type { Clock } from '../clock.ts';
import { networkWidths } from '../http/client-network.ts';

/** Limits of one node's streams (docs/decisions/021); tests and the benchmark may lower them. */
export interface LiveLimits {
  /** Events kept for `Last-Event-ID` resumption: at most this many ... */
  backlogEvents: number;
  /** ... and none older than this. */
  backlogMs: number;
  /**
   * Streams one network (`clientNetwork`: an IPv4 address or an IPv6 /64) may hold on one node,
   * and `WIDE_NETWORK_SHARE` times that for a /64's /48; the next one is answered 429.
   */
  streamsPerNetwork: number;
  /** Streams one node holds; past it 503, so the client reconnects (maybe to another node). */
  streamsPerNode: number;
  /** Bytes written to a stream and not yet taken by its reader; past it the reader is dropped. */
  maxBufferedBytes: number;
  /** A meme's vote events, and the board's, at most once per this window (the last one wins). */
  coalesceMs: number;
  heartbeatMs: number;
}

const DEFAULT_LIVE_LIMITS: LiveLimits = {
  backlogEvents: 2_000,
  backlogMs: 5 * 60_000,
  streamsPerNetwork: 16,
  streamsPerNode: 10_000,
  maxBufferedBytes: 64 * 1024,
  coalesceMs: 250,
  heartbeatMs: LIVE_HEARTBEAT_MS,
};

export interface LiveLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

interface Stream {
  out: PassThrough;
  /** Every width the stream counts at (`networkWidths`), with that width's limit. */
  networks: { network: string; limit: number }[];
  /**
   * While a resumed stream is still catching up: the backlog position (`Kept.seq`) it writes
   * next, and the id it resumed after. Live events reach it through the backlog meanwhile.
   */
  replay?: { next: number; after: number };
}

interface Kept {
  event: LiveEvent;
  at: number;
  /** The event's place in this node's backlog, counted from 0 as they arrive. */
  seq: number;
}

export type OpenResult =
  { ok: true; stream: PassThrough } | { ok: false; reason: 'network' | 'node' | 'closing' };

const frame = (event: { id?: number; type: string; data: unknown }) =>
  `${event.id === undefined ? '' : `id: ${event.id}\n`}event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;

/**
 * One node's side of the event stream: it publishes this node's events on the bus (coalescing
 * bursts), keeps what the bus delivers in a bounded backlog, and writes it to every open stream.
 * The bus is the only way in, so a node's own events reach its streams exactly as another
 * node's do.
 */
export class LiveHub {
  readonly limits: LiveLimits;
  private readonly streams = new Set<Stream>();
  private readonly perNetwork = new Map<string, number>();
  private readonly backlog: Kept[] = [];
  /** The `seq` the next event received will get. */
  private nextSeq = 0;
  /** The backlog holds every event numbered after this; undefined until the listener is ready. */
  private completeAfter: number | undefined;
  private readonly pending = new Map<
    string,
    { event: LiveEventInput | null; timer: NodeJS.Timeout }
  >();
  private readonly heartbeat: NodeJS.Timeout;
  private closing = false;
  private readonly listeners: ((event: LiveEvent) => void)[] = [];
  private readyOnce = false;
  /** Counters for the benchmark and the logs. */
  readonly stats = { published: 0, delivered: 0, dropped: 0, publishFailures: 0 };

  constructor(
    private readonly transport: LiveTransport,
    private readonly clock: Clock,
    private readonly log: LiveLog,
    limits: Partial<LiveLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIVE_LIMITS, ...limits };
    this.heartbeat = setInterval(() => this.beat(), this.limits.heartbeatMs);
    this.heartbeat.unref();
    transport.listen({
      onEvent: (event) => this.receive(event),
      onReady: (lastId) => this.ready(lastId),
      onError: (error) =>
        this.log.warn({ err: error, bus: transport.kind }, 'live events: listener lost'),
    });
  }

  get transportKind(): LiveTransport['kind'] {
    return this.transport.kind;
  }

  get streamCount(): number {
    return this.streams.size;
  }

  /**
   * Announces a change to every node's streams, after the caller's own work and never failing
   * it: a bus that is down costs the pages their live update (they refetch when it is back),
   * not the vote. Votes of one meme, and the board, are sent at once and then at most once per
   * `coalesceMs`, with the latest figures.
   */
  publish(event: LiveEventInput): void {
    if (this.closing) return;
    const key =
      event.type === 'vote'
        ? `vote:${event.data.id}`
        : event.type === 'leaderboard'
          ? 'board'
          : null;
    if (key === null) return this.send(event);
    const waiting = this.pending.get(key);
    if (waiting) {
      waiting.event = event;
      return;
    }
    this.send(event);
    const flush = () => {
      const entry = this.pending.get(key);
      if (!entry) return;
      if (entry.event === null) return void this.pending.delete(key);
      const latest = entry.event;
      entry.event = null;
      entry.timer = setTimeout(flush, this.limits.coalesceMs);
      this.send(latest);
    };
    this.pending.set(key, { event: null, timer: setTimeout(flush, this.limits.coalesceMs) });
  }

  private send(event: LiveEventInput): void {
    this.stats.published += 1;
    this.transport.publish(event).catch((error: unknown) => {
      this.stats.publishFailures += 1;
      this.log.warn({ err: error, type: event.type }, 'live events: publish failed');
    });
  }

  /**
   * Opens a stream for one caller: the retry hint, then what it missed since `lastEventId` (or
   * a `refetch` event when that is no longer kept), then every event as it comes.
   */
  open(network: string, lastEventId: number | undefined): OpenResult {
    if (this.closing) return { ok: false, reason: 'closing' };
    if (this.streams.size >= this.limits.streamsPerNode) return { ok: false, reason: 'node' };
    const networks = networkWidths(network).map((width) => ({
      network: width.network,
      limit: this.limits.streamsPerNetwork * width.share,
    }));
    const full = networks.some((n) => (this.perNetwork.get(n.network) ?? 0) >= n.limit);
    if (full) return { ok: false, reason: 'network' };
    // Each side of the stream holds a quarter of the bound before it asks a resume to wait
    // (catchUp): about half the bound in all, whatever Node's default (16 KB to 64 KB).
    const out = new PassThrough({ highWaterMark: Math.floor(this.limits.maxBufferedBytes / 4) });
    const stream: Stream = { out, networks };
    this.streams.add(stream);
    for (const { network: width } of networks) {
      this.perNetwork.set(width, (this.perNetwork.get(width) ?? 0) + 1);
    }
    out.once('close', () => this.forget(stream));
    out.write(`retry: ${LIVE_RETRY_MS}\n: connected\n\n`);
    if (lastEventId !== undefined) this.resume(stream, lastEventId);
    return { ok: true, stream: out };
  }

  private resume(stream: Stream, lastId: number): void {
    this.trimBacklog();
    if (this.completeAfter === undefined || Number.isNaN(lastId)) {
      return this.write(stream, frame(refetch('unknown-id')));
    }
    if (lastId < this.completeAfter) {
      return this.write(stream, frame(refetch('too-far-behind')));
    }
    stream.replay = { next: this.backlog[0]?.seq ?? this.nextSeq, after: lastId };
    stream.out.on('drain', () => this.catchUp(stream));
    this.catchUp(stream);
  }

  /**
   * Writes a resuming stream's backlog as its reader takes it: frames go out until the stream
   * asks to wait (`writableNeedDrain`, half the bound held), and go on at `drain`. Nothing is
   * written past what a reader holds, so a resume after a burst of 2,000 events neither trips
   * the slow-reader bound nor copies the backlog into the stream's buffers. Caught up, the
   * stream takes live events again; one whose place left the backlog while it waited is told
   * to refetch.
   */
  private catchUp(stream: Stream): void {
    const { replay, out } = stream;
    if (!replay || out.destroyed || out.writableEnded) return;
    const first = this.backlog[0]?.seq ?? this.nextSeq;
    if (replay.next < first) {
      stream.replay = undefined;
      return this.write(stream, frame(refetch('too-far-behind')));
    }
    for (let i = replay.next - first; i < this.backlog.length; i++) {
      // Also when called for a new event while waiting for `drain`: nothing more until then.
      if (out.writableNeedDrain) return;
      const { event } = this.backlog[i]!;
      replay.next += 1;
      if (event.id > replay.after) out.write(frame(event));
    }
    stream.replay = undefined;
  }

  private forget(stream: Stream): void {
    if (!this.streams.delete(stream)) return;
    for (const { network } of stream.networks) {
      const held = (this.perNetwork.get(network) ?? 1) - 1;
      if (held <= 0) this.perNetwork.delete(network);
      else this.perNetwork.set(network, held);
    }
  }

  private ready(lastId: number): void {
    const reconnected = this.readyOnce;
    this.readyOnce = true;
    const highest = this.backlog.at(-1)?.event.id ?? 0;
    // After a reconnection what came in between is lost: only ids from here on are complete.
    if (reconnected) this.backlog.length = 0;
    this.completeAfter = Number.isNaN(lastId)
      ? highest
      : Math.max(lastId, reconnected ? highest : 0);
    if (reconnected) {
      this.log.info(
        { bus: this.transport.kind },
        'live events: listener back, streams told to refetch',
      );
      const text = frame(refetch('listener-reconnected'));
      for (const stream of this.streams) {
        stream.replay = undefined;
        this.write(stream, text);
      }
    }
  }

  /**
   * Calls `listener` with every event the bus delivers, from any node: a node's caches of what
   * another node changed are dropped this way (a page's refetch then reads the change).
   */
  onEvent(listener: (event: LiveEvent) => void): void {
    this.listeners.push(listener);
  }

  private receive(event: LiveEvent): void {
    for (const listener of this.listeners) listener(event);
    this.backlog.push({ event, at: this.clock.now(), seq: this.nextSeq++ });
    if (this.backlog.length > this.limits.backlogEvents) {
      this.completeAfter = Math.max(this.completeAfter ?? 0, this.backlog.shift()!.event.id);
    }
    const text = frame(event);
    for (const stream of this.streams) {
      // A resuming stream takes it from the backlog, in its turn.
      if (stream.replay) this.catchUp(stream);
      else this.write(stream, text);
    }
    this.stats.delivered += this.streams.size;
  }

  private trimBacklog(): void {
    const oldest = this.clock.now() - this.limits.backlogMs;
    while (this.backlog.length > 0 && this.backlog[0]!.at < oldest) {
      this.completeAfter = Math.max(this.completeAfter ?? 0, this.backlog.shift()!.event.id);
    }
  }

  /** Writes, or drops a reader that has let `maxBufferedBytes` pile up unread. */
  private write(stream: Stream, text: string): void {
    if (stream.out.writableLength + stream.out.readableLength > this.limits.maxBufferedBytes) {
      this.stats.dropped += 1;
      this.forget(stream);
      stream.out.destroy();
      return;
    }
    stream.out.write(text);
  }

  private beat(): void {
    this.trimBacklog();
    for (const stream of this.streams) this.write(stream, ':\n\n');
  }

  /** Ends every stream (SIGTERM: the clients reconnect, to another node behind the balancer). */
  endStreams(): void {
    this.closing = true;
    for (const stream of this.streams) stream.out.end();
    this.streams.clear();
    this.perNetwork.clear();
  }

  async close(): Promise<void> {
    this.endStreams();
    clearInterval(this.heartbeat);
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    await this.transport.close();
  }
}

function refetch(reason: LiveEventData['refetch']['reason']) {
  return { type: 'refetch', data: { reason } };
}
