/**
 * Failures of a dependency rather than of the request: the database restarting or out of
 * connections, the bucket answering 5xx or not at all. The client gets 503 with Retry-After
 * (docs/decisions/015-dependency-failures.md); nothing of the error itself reaches it.
 */
export const UNAVAILABLE_MESSAGE =
  'The site is briefly unavailable. Please try again in a few seconds.';
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Node's socket errors: the peer refused, dropped or never answered the connection. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** node-postgres' own errors when its connection is gone or the pool had none to give. */
const PG_CONNECTION_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|Query read timeout)/;

function isUnavailable(error: unknown): boolean {
  const e = error as {
    code?: unknown;
    message?: unknown;
    name?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (SOCKET_CODES.has(code)) return true;
  // SQLSTATE classes: 08 connection exception, 53 insufficient resources, 57P0x the server
  // shutting down or starting up; 57014 a statement_timeout cancel.
  if (/^(08|53)...$/.test(code) || /^57P0\d$/.test(code) || code === '57014') return true;
  // Another connection held SQLite's write lock past busy_timeout.
  if (code === 'SQLITE_BUSY') return true;
  if (typeof e.message === 'string' && PG_CONNECTION_MESSAGES.test(e.message)) return true;
  // The S3 SDK: the bucket answered 5xx (after the SDK's own retries) or timed out.
  const s3Status = e.$metadata?.httpStatusCode;
  if (typeof s3Status === 'number' && s3Status >= 500) return true;
  if (e.name === 'TimeoutError' || e.name === 'RequestTimeout') return true;
  return false;
}

/** True when the error, or one it wraps, says a dependency is down rather than a bug. */
export function isDependencyUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (isUnavailable(e)) return true;
  }
  return false;
}
