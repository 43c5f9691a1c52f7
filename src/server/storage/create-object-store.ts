import type { Clock } from '../clock.ts';
import type { AppConfig } from '../config.ts';
import { createLocalDiskStore } from './local-disk.ts';
import type { ObjectStore } from './object-store.ts';
import { createS3Store } from './s3.ts';

/** S3 when `S3_BUCKET` is set, else local disk under the data folder (the default). */
export function createObjectStore(config: AppConfig, secret: string, clock: Clock): ObjectStore {
  if (!config.s3) {
    // Relative upload URLs: the browser PUTs to whatever origin served the page, which also
    // holds behind a proxy that rewrites hosts.
    return createLocalDiskStore({ dataDir: config.dataDir, secret, clock });
  }
  const s3 = createS3Store({
    bucket: config.s3.bucket,
    endpoint: config.s3.endpoint,
    region: config.s3.region,
    accessKeyId: config.s3.accessKeyId,
    secretAccessKey: config.s3.secretAccessKey,
    forcePathStyle: config.s3.forcePathStyle,
  });
  return {
    ...s3,
    // The bucket judges a presigned URL by real time; the app's clock (which tests move) only
    // decides how long the URL lives.
    createUploadTarget: ({ expiresAt, ...rest }) =>
      s3.createUploadTarget({
        ...rest,
        expiresAt: new Date(Date.now() + (expiresAt.getTime() - clock.now())),
      }),
    // Dropping the store's HTTP connections with the app keeps shutdown and tests tidy.
    close: async () => s3.client.destroy(),
  };
}
