import { describe, expect, it } from 'vitest';
import {
  decideAfterAttempt,
  MAX_PAUSES,
  RETRY_DELAYS_MS,
  serverReason,
  type AttemptHistory,
  type AttemptOutcome,
} from './upload-policy.ts';

const fresh: AttemptHistory = { retries: 0, pauses: 0, renewals: 0 };
const response = (status: number, body = '', retryAfterSeconds?: number): AttemptOutcome => ({
  kind: 'response',
  status,
  body,
  ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
});

describe('decideAfterAttempt', () => {
  it('is done on any 2xx', () => {
    expect(decideAfterAttempt(response(200), fresh)).toEqual({ action: 'done' });
    expect(decideAfterAttempt(response(204), fresh)).toEqual({ action: 'done' });
  });

  it.each([
    ['a network error', { kind: 'network-error' } as AttemptOutcome],
    ['500', response(500)],
    ['502', response(502)],
    ['503', response(503, '<Error><Message>Slow Down</Message></Error>')],
    ['409', response(409, '{"message":"This upload has already been used."}')],
  ])('retries %s after 0, 1, 3 and 5 seconds, then fails', (_, outcome) => {
    const delays = RETRY_DELAYS_MS.map(
      (_, retries) => decideAfterAttempt(outcome, { ...fresh, retries }) as { delayMs: number },
    );
    expect(delays.map((d) => d.delayMs)).toEqual([0, 1000, 3000, 5000]);
    const last = decideAfterAttempt(outcome, { ...fresh, retries: 4 });
    expect(last.action).toBe('fail');
  });

  it('fails a network error with the spec\'s "Upload failed"', () => {
    expect(decideAfterAttempt({ kind: 'network-error' }, { ...fresh, retries: 4 })).toEqual({
      action: 'fail',
      message: 'Upload failed',
    });
  });

  it.each([400, 401, 403, 404, 413, 415, 422])(
    'fails %i at once with the server reason',
    (status) => {
      expect(
        decideAfterAttempt(response(status, '{"message":"The image is larger than 5 MB."}'), fresh),
      ).toEqual({
        action: 'fail',
        message: 'The image is larger than 5 MB.',
      });
      expect(decideAfterAttempt(response(status, ''), fresh)).toEqual({
        action: 'fail',
        message: 'Upload failed',
      });
    },
  );

  it('pauses on 429 for Retry-After (at most a minute), else the next delay, a few times', () => {
    expect(decideAfterAttempt(response(429, '', 7), fresh)).toEqual({
      action: 'pause',
      delayMs: 7000,
    });
    expect(decideAfterAttempt(response(429, '', 3600), fresh)).toEqual({
      action: 'pause',
      delayMs: 60_000,
    });
    expect(decideAfterAttempt(response(429), fresh)).toEqual({ action: 'pause', delayMs: 1000 });
    expect(decideAfterAttempt(response(429), { ...fresh, pauses: 2 })).toEqual({
      action: 'pause',
      delayMs: 5000,
    });
    // Pauses do not use up the retries for failures.
    expect(decideAfterAttempt(response(429), { ...fresh, retries: 4 }).action).toBe('pause');
    expect(
      decideAfterAttempt(response(429, '{"message":"Too many uploads."}'), {
        ...fresh,
        pauses: MAX_PAUSES,
      }),
    ).toEqual({
      action: 'fail',
      message: 'Too many uploads.',
    });
  });

  it('asks for a fresh URL when the old one has expired (local JSON or S3 XML), twice at most', () => {
    const local = response(403, '{"message":"Request has expired","code":"UPLOAD_EXPIRED"}');
    const s3 = response(
      403,
      '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
    );
    expect(decideAfterAttempt(local, fresh)).toEqual({ action: 'renew-url' });
    expect(decideAfterAttempt(s3, { ...fresh, renewals: 1 })).toEqual({ action: 'renew-url' });
    expect(decideAfterAttempt(s3, { ...fresh, renewals: 2 })).toEqual({
      action: 'fail',
      message: 'Request has expired',
    });
    expect(
      decideAfterAttempt(response(403, '{"message":"Forbidden: invalid upload URL"}'), fresh)
        .action,
    ).toBe('fail');
  });
});

describe('serverReason', () => {
  it('reads our JSON errors and S3 XML errors, and nothing else', () => {
    expect(serverReason('{"message":"No"}')).toBe('No');
    expect(serverReason('<Error><Message>Access Denied</Message></Error>')).toBe('Access Denied');
    expect(serverReason('<html>oops</html>')).toBeUndefined();
    expect(serverReason('{"message":42}')).toBeUndefined();
    expect(serverReason('')).toBeUndefined();
  });
});
