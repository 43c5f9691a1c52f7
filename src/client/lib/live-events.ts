import {
  LIVE_EVENT_TYPES,
  LIVE_EVENTS_PATH,
  type LiveEventData,
  type LiveEventType,
} from '#shared/api/live.ts';

type Handler<T extends LiveEventType> = (data: LiveEventData[T]) => void;

/**
 * The tab's one EventSource on `GET /api/events` (docs/decisions/021), shared by every part that
 * listens. It opens with the first listener (the parts that listen load after the first paint),
 * closes while the tab is hidden and resumes from the last id when it is shown again, and after
 * a refusal (429, 503, a node going away) reconnects with a growing, jittered delay. The browser's
 * own reconnection (the server's `retry:` hint, with `Last-Event-ID`) covers a dropped stream.
 */
const handlers = new Map<LiveEventType, Set<Handler<LiveEventType>>>();
let source: EventSource | null = null;
let lastId: string | null = null;
let failures = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let watchingVisibility = false;

const listenerCount = () => [...handlers.values()].reduce((n, set) => n + set.size, 0);
const pageHidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

function deliver(type: LiveEventType, message: MessageEvent<string>): void {
  if (message.lastEventId) lastId = message.lastEventId;
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    return;
  }
  for (const handler of handlers.get(type) ?? []) handler(data as never);
}

function connect(): void {
  clearTimeout(retryTimer);
  if (source || listenerCount() === 0 || pageHidden() || typeof EventSource === 'undefined') return;
  const url = lastId === null ? LIVE_EVENTS_PATH : `${LIVE_EVENTS_PATH}?lastEventId=${lastId}`;
  const es = new EventSource(url);
  source = es;
  for (const type of LIVE_EVENT_TYPES) {
    es.addEventListener(type, (message) => deliver(type, message as MessageEvent<string>));
  }
  es.onopen = () => {
    failures = 0;
  };
  es.onerror = () => {
    // CONNECTING: the browser retries by itself. CLOSED: it gave up (an error status): back off.
    if (es.readyState !== EventSource.CLOSED) return;
    disconnect();
    const delay = Math.min(60_000, 1_000 * 2 ** failures) * (0.5 + Math.random() / 2);
    failures += 1;
    retryTimer = setTimeout(connect, delay);
  };
}

function disconnect(): void {
  source?.close();
  source = null;
}

function onVisibility(): void {
  if (pageHidden()) {
    disconnect();
    clearTimeout(retryTimer);
  } else {
    connect();
  }
}

/** Calls `handler` with each `type` event until the returned function is called. */
export function onLiveEvent<T extends LiveEventType>(type: T, handler: Handler<T>): () => void {
  let set = handlers.get(type);
  if (!set) handlers.set(type, (set = new Set()));
  set.add(handler as Handler<LiveEventType>);
  if (!watchingVisibility && typeof document !== 'undefined') {
    watchingVisibility = true;
    document.addEventListener('visibilitychange', onVisibility);
  }
  connect();
  return () => {
    set.delete(handler as Handler<LiveEventType>);
    if (listenerCount() === 0) disconnect();
  };
}
