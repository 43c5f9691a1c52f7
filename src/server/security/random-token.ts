import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let next = POOL_BYTES;

/**
 * `bytes` random bytes from the system's CSPRNG, as base64url: a session id, a csrf cookie, a
 * visitor's id. They are drawn 4 KiB at a time, as Node's randomUUID draws its own: one call into
 * OpenSSL per hundred tokens instead of one each (a new visitor's csrf-token read drew its 32
 * bytes alone; decision 025 has the figures). Each byte is handed out once and wiped from the pool.
 */
export function randomToken(bytes: number): string {
  if (bytes > POOL_BYTES) throw new RangeError(`randomToken draws at most ${POOL_BYTES} bytes`);
  if (next + bytes > POOL_BYTES) {
    randomFillSync(pool);
    next = 0;
  }
  const token = pool.toString('base64url', next, next + bytes);
  pool.fill(0, next, next + bytes);
  next += bytes;
  return token;
}
