import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
const options = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/**
 * The password hash of an account opened with a wallet alone
 * (docs/decisions/029-holders-at-home.md): no argon2 hash is empty, so no password matches it
 * until the member adds one.
 */
export const NO_PASSWORD = '';

export function hasPassword(storedHash: string): boolean {
  return storedHash !== NO_PASSWORD;
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against a real hash, or a dummy one so an unknown user, or an account without a
 * password, takes as long as a known one.
 */
export async function verifyPassword(
  storedHash: string | undefined,
  password: string,
): Promise<boolean> {
  if (storedHash === undefined || storedHash === NO_PASSWORD) {
    dummyHash ??= hash('not-a-real-password', options);
    await verify(await dummyHash, password);
    return false;
  }
  return verify(storedHash, password);
}
