import { decideAfterAttempt, type AttemptHistory, type AttemptOutcome } from './upload-policy.ts';

/** The upload itself failed (after the policy's retries); `message` is what the toast says. */
export class UploadFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadFailedError';
  }
}

export interface UploadTransport {
  put(url: string, file: Blob, onProgress: (fraction: number) => void): Promise<AttemptOutcome>;
  /** A fresh upload URL, for when the current one has expired. */
  renewUploadURL(): Promise<string>;
  sleep(ms: number): Promise<void>;
}

/**
 * Sends the file to `uploadURL` following the upload policy; resolves with the URL that took
 * the file (a renewed one if the first expired), which the server then processes.
 */
export async function uploadFile(
  uploadURL: string,
  file: Blob,
  transport: UploadTransport,
  onProgress: (fraction: number) => void,
): Promise<string> {
  let url = uploadURL;
  const history: AttemptHistory = { retries: 0, pauses: 0, renewals: 0 };
  for (;;) {
    const decision = decideAfterAttempt(await transport.put(url, file, onProgress), history);
    switch (decision.action) {
      case 'done':
        onProgress(1);
        return url;
      case 'retry':
        history.retries += 1;
        onProgress(0);
        await transport.sleep(decision.delayMs);
        break;
      case 'pause':
        history.pauses += 1;
        onProgress(0);
        await transport.sleep(decision.delayMs);
        break;
      case 'renew-url':
        history.renewals += 1;
        try {
          url = await transport.renewUploadURL();
        } catch {
          throw new UploadFailedError('Request has expired');
        }
        break;
      case 'fail':
        throw new UploadFailedError(decision.message);
    }
  }
}

/** A PUT with upload progress, which fetch cannot report. Never rejects: errors are outcomes. */
function xhrPut(
  url: string,
  file: Blob,
  onProgress: (fraction: number) => void,
): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    if (file.type) xhr.setRequestHeader('Content-Type', file.type);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const retryAfter = Number(xhr.getResponseHeader('Retry-After'));
      resolve({
        kind: 'response',
        status: xhr.status,
        body: xhr.responseText,
        ...(Number.isFinite(retryAfter) && xhr.getResponseHeader('Retry-After') !== null
          ? { retryAfterSeconds: retryAfter }
          : {}),
      });
    };
    xhr.onerror = () => resolve({ kind: 'network-error' });
    xhr.ontimeout = () => resolve({ kind: 'network-error' });
    xhr.send(file);
  });
}

export const browserTransport = (renewUploadURL: () => Promise<string>): UploadTransport => ({
  put: xhrPut,
  renewUploadURL,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});
