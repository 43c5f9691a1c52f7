import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Compression for the built client, done once rather than per request: on a phone on a slow
 * network the JavaScript's transfer size is most of the page's load time. Files that compress
 * get .br and .gz siblings (served by @fastify/static's preCompressed option); the page itself
 * is compressed in memory, since the server renders it at start.
 */

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;
/** Below this the headers outweigh the saving. */
const MIN_BYTES = 1024;

export interface CompressedVariants {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export function compressVariants(body: string | Buffer): CompressedVariants {
  const identity = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return {
    identity,
    br: brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

function isFresh(compressed: string, source: fs.Stats): boolean {
  const stat = fs.statSync(compressed, { throwIfNoEntry: false });
  return stat !== undefined && stat.mtimeMs >= source.mtimeMs;
}

/**
 * Writes .br/.gz beside every compressible file of `dir` that lacks a fresh one. A read-only
 * folder (a locked-down container) is not an error: those files are then served uncompressed.
 */
export function precompressDir(dir: string): { written: number; skipped: number } {
  let written = 0;
  let skipped = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const stat = fs.statSync(file);
    if (stat.size < MIN_BYTES || (isFresh(`${file}.br`, stat) && isFresh(`${file}.gz`, stat))) {
      continue;
    }
    const variants = compressVariants(fs.readFileSync(file));
    try {
      fs.writeFileSync(`${file}.br`, variants.br);
      fs.writeFileSync(`${file}.gz`, variants.gzip);
      written += 1;
    } catch {
      skipped += 1;
    }
  }
  return { written, skipped };
}

/** The encoding to answer with, from the request's Accept-Encoding (q=0 means refused). */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | 'identity' {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, q]) => !q || !/^\s*q=0(\.0*)?\s*$/.test(q))
      .map(([name]) => name),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}
