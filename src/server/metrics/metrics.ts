import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every metric the site exports, by name (docs/observability.md describes each; the Grafana
 * dashboard, docs/grafana-dashboard.json, uses exactly these). Each app has a registry of its
 * own, so apps built side by side (tests) never share a figure.
 */
const METRIC_NAMES = {
  requestDuration: 'grind_http_request_duration_seconds',
  liveStreamsOpen: 'grind_live_streams_open',
  liveStreamsDropped: 'grind_live_streams_dropped_total',
  rateLimitRefusals: 'grind_rate_limit_refusals_total',
  imageQueueJobs: 'grind_image_queue_jobs',
  imageJobs: 'grind_image_jobs_total',
  imageProcessing: 'grind_image_processing_seconds',
  prizeWeeks: 'grind_prize_weeks',
  prizePendingOldest: 'grind_prize_payment_pending_oldest_seconds',
  burns: 'grind_burns',
  dbPoolConnections: 'grind_db_pool_connections',
  dbPoolWaiting: 'grind_db_pool_waiting_requests',
  dbPoolMax: 'grind_db_pool_max_connections',
  scrapeErrors: 'grind_metrics_scrape_errors_total',
} as const;

/** What the image pipeline's job came to (uploads/service.ts). */
const IMAGE_OUTCOMES = [
  'stored',
  'rejected',
  'duplicate',
  'error',
  'queue_full_member',
  'queue_full_node',
] as const;
export type ImageOutcome = (typeof IMAGE_OUTCOMES)[number];

export interface PoolFigures {
  idle: number;
  busy: number;
  waiting: number;
  max: number;
}

/** A figure read when Prometheus scrapes, from the part of the app that holds it. */
interface ScrapeReaders {
  live?: () => { open: number; dropped: number };
  imageQueue?: () => { running: number; waiting: number };
  /** Each prize week by its payment's state, and the age of the oldest open payment. */
  prizeWeeks?: () => Promise<{ weeks: Record<string, number>; oldestPendingMs: number | null }>;
  burns?: () => Promise<Record<string, number>>;
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Request latency by route pattern (never the raw path: ids and names stay out of the labels),
 * method and status class; event streams; rate-limit refusals by limit; the image pipeline;
 * payments and burns by state; the database pool (watchPool). Counters are fed as things happen
 * (one `inc` or `observe`, nothing else); gauges are read from their source at scrape time.
 */
export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  const readers: ScrapeReaders = {};

  const scrapeErrors = new Counter({
    name: METRIC_NAMES.scrapeErrors,
    help: 'Figures that could not be read at a scrape (the database was unavailable), by source',
    labelNames: ['source'] as const,
    registers,
  });
  // Every label a counter is known to take starts at 0, so a rate over it exists from the start.
  for (const source of ['prize', 'burns']) scrapeErrors.inc({ source }, 0);

  const requestDuration = new Histogram({
    name: METRIC_NAMES.requestDuration,
    help: 'Time to answer a request, by route pattern, method and status class (an event stream counts when it closes)',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });

  new Gauge({
    name: METRIC_NAMES.liveStreamsOpen,
    help: 'Event streams (GET /api/events) open on this node',
    registers,
    collect() {
      this.set(readers.live?.().open ?? 0);
    },
  });
  new Counter({
    name: METRIC_NAMES.liveStreamsDropped,
    help: 'Event streams dropped because their reader let 64 KB pile up unread (slow readers)',
    registers,
    collect() {
      this.reset();
      this.inc(readers.live?.().dropped ?? 0);
    },
  });

  const rateLimitRefusals = new Counter({
    name: METRIC_NAMES.rateLimitRefusals,
    help: 'Requests refused (429) by a rate limit, by the limit (the key without its caller) and what it counts (net, user, account, device)',
    labelNames: ['limit', 'scope'] as const,
    registers,
  });

  new Gauge({
    name: METRIC_NAMES.imageQueueJobs,
    help: 'Images in the processing line on this node: running, or waiting for a slot',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const queue = readers.imageQueue?.() ?? { running: 0, waiting: 0 };
      this.set({ state: 'running' }, queue.running);
      this.set({ state: 'waiting' }, queue.waiting);
    },
  });
  const imageJobs = new Counter({
    name: METRIC_NAMES.imageJobs,
    help: 'Uploaded images by what processing came to: stored, rejected (not an image the site takes), duplicate, error, or refused because the line was full (for the member, for the node)',
    labelNames: ['outcome'] as const,
    registers,
  });
  for (const outcome of IMAGE_OUTCOMES) imageJobs.inc({ outcome }, 0);
  const imageProcessing = new Histogram({
    name: METRIC_NAMES.imageProcessing,
    help: 'Time to decode, check and encode one image, its wait in the line excluded',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });

  const prizeWeeks = new Gauge({
    name: METRIC_NAMES.prizeWeeks,
    help: "Prize weeks by their payment's state: approved (waiting to be paid), pending (a payment prepared, not found on chain yet), expired, paid",
    labelNames: ['state'] as const,
    registers,
    collect: () => readPrize(),
  });
  const prizePendingOldest = new Gauge({
    name: METRIC_NAMES.prizePendingOldest,
    help: 'How long the oldest open prize payment has waited for its transaction, in seconds (0 when none is open)',
    registers,
    collect: () => readPrize(),
  });
  // One read of the prize record for both gauges, made by whichever the scrape collects first.
  let prizeRead: Promise<void> | undefined;
  const readPrize = () =>
    (prizeRead ??= (async () => {
      try {
        const figures = await readers.prizeWeeks?.();
        if (!figures) return;
        for (const state of ['approved', 'pending', 'expired', 'paid']) {
          prizeWeeks.set({ state }, figures.weeks[state] ?? 0);
        }
        prizePendingOldest.set((figures.oldestPendingMs ?? 0) / 1000);
      } catch {
        scrapeErrors.inc({ source: 'prize' });
      } finally {
        prizeRead = undefined;
      }
    })());

  new Gauge({
    name: METRIC_NAMES.burns,
    help: 'Token burns by state: recorded (verified on chain), refused (submitted and refused)',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      try {
        const counts = await readers.burns?.();
        if (!counts) return;
        for (const state of ['recorded', 'refused']) this.set({ state }, counts[state] ?? 0);
      } catch {
        scrapeErrors.inc({ source: 'burns' });
      }
    },
  });

  let processWatched = false;
  return {
    registry,
    readers,
    requestDuration,
    rateLimitRefusals,
    imageJobs,
    imageProcessing,
    /** The PostgreSQL pool's figures, read from `read` at each scrape; SQLite has no pool. */
    watchPool(read: () => PoolFigures) {
      new Gauge({
        name: METRIC_NAMES.dbPoolConnections,
        help: 'PostgreSQL connections of this node: idle, or busy with a query or transaction',
        labelNames: ['state'] as const,
        registers,
        collect() {
          const pool = read();
          this.set({ state: 'idle' }, pool.idle);
          this.set({ state: 'busy' }, pool.busy);
        },
      });
      new Gauge({
        name: METRIC_NAMES.dbPoolWaiting,
        help: 'Queries waiting for a free PostgreSQL connection',
        registers,
        collect() {
          this.set(read().waiting);
        },
      });
      new Gauge({
        name: METRIC_NAMES.dbPoolMax,
        help: "The PostgreSQL pool's size",
        registers,
        collect() {
          this.set(read().max);
        },
      });
    },
    /**
     * prom-client's process figures (event-loop delay, heap, RSS, GC, handles), only for an app
     * whose metrics someone can read: they sample the event loop all the time.
     */
    watchProcess() {
      if (processWatched) return;
      processWatched = true;
      collectDefaultMetrics({ register: registry });
    },
  };
}
