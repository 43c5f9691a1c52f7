import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { LIVE_EVENTS_PATH } from './live.ts';

export const liveEventsQuerySchema = z.object({
  /**
   * The last event id seen, for a client that reconnects by opening a new EventSource (which
   * sends no `Last-Event-ID` header); the header wins when both are given.
   */
  lastEventId: z.coerce.number().int().nonnegative().optional(),
});

/**
 * `GET /api/events`: a `text/event-stream` that never ends by itself (docs/decisions/021). The
 * contract's response schema describes JSON bodies; this one is a stream of `vote`, `meme`,
 * `leaderboard`, `winners`, `burns` and `refetch` events whose `data` is JSON (shared/api/live.ts),
 * so it is declared as text and the OpenAPI description says what the text holds.
 */
export const liveEventsEndpoint = defineEndpoint({
  method: 'GET',
  path: LIVE_EVENTS_PATH,
  id: 'liveEvents',
  summary:
    'Server-Sent Events (text/event-stream): `vote`, `meme`, `leaderboard`, `winners`, `burns` ' +
    'and `refetch` events with JSON data and increasing ids; a `retry:` hint, a comment at least ' +
    'every 15 s, and resumption from `Last-Event-ID` (or `?lastEventId=`) within the last five ' +
    'minutes; past that a `refetch` event',
  tag: 'live',
  access: 'public',
  query: liveEventsQuerySchema,
  response: z.string().describe('text/event-stream'),
  errors: {
    429: ['TOO_MANY_STREAMS'],
  },
});
