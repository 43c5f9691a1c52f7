import { describe, expect, it } from 'vitest';
import { uploadFile, UploadFailedError, type UploadTransport } from './upload-file.ts';
import type { AttemptOutcome } from './upload-policy.ts';

/** A transport that answers from a script and records what the uploader did. */
function answering(outcomes: AttemptOutcome[], renewed: string[] = ['https://store/renewed']) {
  const log: string[] = [];
  const transport: UploadTransport = {
    async put(url) {
      const next = outcomes.shift();
      if (!next) throw new Error('no more outcomes to answer');
      log.push(`put ${url} -> ${next.kind === 'response' ? next.status : 'network error'}`);
      return next;
    },
    async renewUploadURL() {
      const url = renewed.shift();
      log.push(`renew -> ${url ?? 'error'}`);
      if (!url) throw new Error('cannot renew');
      return url;
    },
    async sleep(ms) {
      log.push(`sleep ${ms}`);
    },
  };
  return { transport, log };
}
const ok: AttemptOutcome = { kind: 'response', status: 200, body: '' };
const status = (code: number, body = '', retryAfterSeconds?: number): AttemptOutcome => ({
  kind: 'response',
  status: code,
  body,
  ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
});
const blob = new Blob(['x']);

describe('uploadFile', () => {
  it('retries network and server errors on the spec schedule until the PUT succeeds', async () => {
    const { transport, log } = answering([{ kind: 'network-error' }, status(503), status(500), ok]);
    await expect(uploadFile('https://store/a', blob, transport, () => {})).resolves.toBe(
      'https://store/a',
    );
    expect(log.filter((l) => l.startsWith('sleep'))).toEqual([
      'sleep 0',
      'sleep 1000',
      'sleep 3000',
    ]);
  });

  it('gives up after the fourth retry with "Upload failed"', async () => {
    const { transport, log } = answering(Array.from({ length: 5 }, () => status(500)));
    await expect(uploadFile('u', blob, transport, () => {})).rejects.toEqual(
      new UploadFailedError('Upload failed'),
    );
    expect(log.filter((l) => l.startsWith('put'))).toHaveLength(5);
  });

  it('continues with a fresh URL after "Request has expired" and returns that URL', async () => {
    const expired = status(403, '<Error><Message>Request has expired</Message></Error>');
    const { transport, log } = answering([expired, ok]);
    await expect(uploadFile('https://store/old', blob, transport, () => {})).resolves.toBe(
      'https://store/renewed',
    );
    expect(log).toEqual([
      'put https://store/old -> 403',
      'renew -> https://store/renewed',
      'put https://store/renewed -> 200',
    ]);
  });

  it('fails at once on a refusal and reports the server reason', async () => {
    const { transport } = answering([status(413, '{"message":"The image is larger than 5 MB."}')]);
    await expect(uploadFile('u', blob, transport, () => {})).rejects.toThrow(
      'The image is larger than 5 MB.',
    );
  });

  it('waits out a 429 and reports progress from zero again', async () => {
    const progress: number[] = [];
    const { transport, log } = answering([status(429, '', 2), ok]);
    await uploadFile('u', blob, transport, (f) => progress.push(f));
    expect(log).toContain('sleep 2000');
    expect(progress).toEqual([0, 1]);
  });
});
