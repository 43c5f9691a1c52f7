/**
 * What the upload helper does after each attempt to PUT the file (upload-policy.test.ts): retry
 * network and 5xx-type failures after 0, 1, 3 and 5 seconds; pause on 429; fetch a fresh URL
 * when the old one says "Request has expired"; fail on any other 4xx except 409. Pure, so the
 * policy is tested apart from XHR and timers.
 */
export const RETRY_DELAYS_MS = [0, 1000, 3000, 5000] as const;
/** A 429 pauses rather than fails, but not forever. */
export const MAX_PAUSES = 5;
/** One fresh URL is enough when the first ran out; more would mean a clock or server fault. */
const MAX_RENEWALS = 2;

export type AttemptOutcome =
  | { kind: 'network-error' }
  | { kind: 'response'; status: number; body: string; retryAfterSeconds?: number };

export interface AttemptHistory {
  retries: number;
  pauses: number;
  renewals: number;
}

export type UploadDecision =
  | { action: 'done' }
  | { action: 'retry'; delayMs: number }
  | { action: 'pause'; delayMs: number }
  | { action: 'renew-url' }
  | { action: 'fail'; message: string };

const UPLOAD_FAILED = 'Upload failed';
const EXPIRED = 'Request has expired';

/** The reason a server gave: our JSON `{ message }`, or S3's XML `<Message>`. */
export function serverReason(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const message = (parsed as { message?: unknown } | null)?.message;
    if (typeof message === 'string' && message) return message;
  } catch {
    // Not JSON; S3 answers XML.
  }
  const xml = /<Message>([^<]{1,300})<\/Message>/.exec(body);
  return xml?.[1];
}

function retryOrFail(history: AttemptHistory, message: string): UploadDecision {
  const delayMs = RETRY_DELAYS_MS[history.retries];
  return delayMs === undefined ? { action: 'fail', message } : { action: 'retry', delayMs };
}

export function decideAfterAttempt(
  outcome: AttemptOutcome,
  history: AttemptHistory,
): UploadDecision {
  if (outcome.kind === 'network-error') return retryOrFail(history, UPLOAD_FAILED);
  const { status, body } = outcome;
  if (status >= 200 && status < 300) return { action: 'done' };
  const reason = serverReason(body);
  if (status === 429) {
    if (history.pauses >= MAX_PAUSES) return { action: 'fail', message: reason ?? UPLOAD_FAILED };
    const fallback = RETRY_DELAYS_MS[Math.min(history.pauses + 1, RETRY_DELAYS_MS.length - 1)]!;
    const delayMs =
      outcome.retryAfterSeconds !== undefined && outcome.retryAfterSeconds >= 0
        ? Math.min(outcome.retryAfterSeconds, 60) * 1000
        : fallback;
    return { action: 'pause', delayMs };
  }
  if (status === 403 && body.includes(EXPIRED)) {
    return history.renewals < MAX_RENEWALS
      ? { action: 'renew-url' }
      : { action: 'fail', message: EXPIRED };
  }
  // 409 is retried like a server fault (a conflict may clear); every other 4xx is final.
  if (status >= 500 || status === 409) {
    return retryOrFail(history, reason ?? UPLOAD_FAILED);
  }
  return { action: 'fail', message: reason ?? UPLOAD_FAILED };
}
