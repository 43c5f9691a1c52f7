/**
 * The public event stream, `GET /api/events` (Server-Sent Events, docs/decisions/021): what each
 * event carries. Plain types and constants, no zod: the client's stream module is loaded after
 * the first paint and parses nothing it does not need (it refetches through the ordinary reads).
 * Nothing per member travels here: `myVote` and the like stay in the ordinary reads.
 */
export const LIVE_EVENTS_PATH = '/api/events';

/** The `retry:` hint sent first on every stream: how long a browser waits before reconnecting. */
export const LIVE_RETRY_MS = 3_000;
/** A comment line at least this often, so proxies and browsers see an open stream. */
export const LIVE_HEARTBEAT_MS = 15_000;

export type MemeChange = 'added' | 'hidden' | 'unhidden' | 'deleted';

export interface LiveEventData {
  /** A listed meme's counts after a vote (bursts coalesced to a few events a second per meme). */
  vote: { id: number; upvotes: number; downvotes: number };
  /** A meme added, hidden, unhidden or deleted. */
  meme: { id: number; change: MemeChange };
  /** The week's board changed: refetch `GET /api/leaderboard` (`week` is its Monday, ISO). */
  leaderboard: { week: string };
  /** A weekly prize was recorded as paid: refetch Recent Winners. */
  winners: { week: string };
  /** A burn was recorded: refetch the burn panel. `signature` is the burn's transaction. */
  burns: { signature: string };
  /**
   * Sent by the server only, never published: what this stream missed cannot be replayed (the
   * client resumed from too far back, or this node lost its listener for a while). Refetch all.
   */
  refetch: { reason: 'too-far-behind' | 'listener-reconnected' | 'unknown-id' };
}

export type LiveEventType = keyof LiveEventData;
export type PublishedEventType = Exclude<LiveEventType, 'refetch'>;

/** An event as a service publishes it (the id is given by the bus). */
export type LiveEventInput = {
  [T in PublishedEventType]: { type: T; data: LiveEventData[T] };
}[PublishedEventType];

/** An event as the stream carries it: ids grow across every node of one site. */
export type LiveEvent = LiveEventInput & { id: number };

export const LIVE_EVENT_TYPES: readonly LiveEventType[] = [
  'vote',
  'meme',
  'leaderboard',
  'winners',
  'burns',
  'refetch',
];
