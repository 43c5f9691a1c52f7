import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Config } from '#server/config.ts';
import { createS3Store } from '#server/storage/s3.ts';

/**
 * Throwaway infrastructure for multi-process tests and benchmarks: an S3-protocol server with
 * one bucket, data folders, secrets (databases: scratch-postgres.ts). Everything is removed by
 * the matching close.
 */

export interface ScratchS3 {
  endpoint: string;
  bucket: string;
  /** The bucket as the app's config names it (for the test's own store). */
  config: S3Config;
  /** The S3_* variables a node needs to use this bucket. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** s3rver on a free loopback port with one bucket, created as an operator would. */
export async function startScratchS3(): Promise<ScratchS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const bucket = `grind-${randomBytes(5).toString('hex')}`;
  const config: S3Config = {
    bucket,
    endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  const admin = createS3Store(config);
  await admin.client.send(new CreateBucketCommand({ Bucket: bucket }));
  admin.client.destroy();
  return {
    endpoint,
    bucket,
    config,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** An empty folder under the system's temp folder. */
export function scratchDir(prefix = 'grind-node-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * A built client's shell for suites that render pages: `dist/index.html` with the site-meta marks
 * the server fills, in a scratch folder (`dir`, for the suite's other files); `remove` when done.
 */
export function scratchClientDist(prefix: string): {
  dir: string;
  distDir: string;
  remove(): void;
} {
  const dir = scratchDir(prefix);
  const distDir = path.join(dir, 'dist');
  fs.mkdirSync(distDir, { recursive: true });
  fs.writeFileSync(
    path.join(distDir, 'index.html'),
    '<!doctype html><html><head><meta charset="UTF-8" /><!-- site-meta --><title>x</title><!-- /site-meta --></head><body><div id="root"></div></body></html>',
  );
  return { dir, distDir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A secret as production would set it: the same on every node of one site. */
export function newSessionSecret(): string {
  return randomBytes(48).toString('base64url');
}
