import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { HOUR_MS, MINUTE_MS } from '#shared/time.ts';
import type { AppDeps } from '../deps.ts';
import { HttpError } from '../http-error.ts';
import { enforceRateLimit } from '../security/rate-limit.ts';
import { spendChallenge } from './repository.ts';

/**
 * The sign-up challenge in raid mode: ALTCHA's proof of work (altcha-lib here, the `altcha`
 * package's solver in the browser), no third party and nothing about the visitor kept. PBKDF2
 * runs natively in a browser (WebCrypto) and in a script (node:crypto) alike, so a bot pays what
 * a person pays: about 2,500 derivations of 1,000 iterations, a second or two of one core.
 * A solved challenge is spent once (spent_challenges) and good for 10 minutes.
 */
const CHALLENGE_COST = 1_000;
const CHALLENGE_COUNTER = { min: 1_000, max: 4_000 } as const;
const CHALLENGE_TTL_MS = 10 * MINUTE_MS;
/**
 * Each challenge costs the node one key derivation (about 0.8 ms of CPU, the answer it signs),
 * so a network's are counted before the work. A person asks for one per sign-up or wallet sign-in
 * attempt in raid mode; 60 an hour leaves a shared address room for many of them.
 */
const CHALLENGES_PER_NETWORK = { limit: 60, windowMs: HOUR_MS };

/** The secrets for the challenge's two signatures, derived from the site's own. */
function secrets(secret: string) {
  const derive = (purpose: string) => createHmac('sha256', secret).update(purpose).digest('hex');
  return {
    hmacSignatureSecret: derive('altcha-challenge'),
    hmacKeySignatureSecret: derive('altcha-key'),
  };
}

export async function newChallenge(
  deps: Pick<AppDeps, 'secret' | 'clock' | 'rateLimiter'>,
  network: string,
): Promise<Challenge> {
  await enforceRateLimit(
    deps.rateLimiter,
    `signup-challenge:net:${network}`,
    CHALLENGES_PER_NETWORK,
    'Too many sign-up checks from your network. Please try again later.',
  );
  return createChallenge({
    algorithm: 'PBKDF2/SHA-256',
    cost: CHALLENGE_COST,
    counter: randomInt(CHALLENGE_COUNTER.min, CHALLENGE_COUNTER.max),
    deriveKey,
    // The site's clock decides the expiry (altcha-lib's own would read the machine's).
    data: { expires: deps.clock.now() + CHALLENGE_TTL_MS },
    ...secrets(deps.secret),
  });
}

const refusal = (why: string) =>
  new HttpError(
    403,
    `The site is in raid mode: signing up needs the check your browser solves first (${why}). Please try again.`,
    'CHALLENGE_REQUIRED',
  );

/**
 * Checks a sign-up's solution (ALTCHA's payload: base64 JSON of the challenge and its solution)
 * and spends it; refuses 403 CHALLENGE_REQUIRED otherwise.
 */
export async function checkSolution(
  deps: Pick<AppDeps, 'secret' | 'clock' | 'db'>,
  payload: string | undefined,
): Promise<void> {
  if (!payload) throw refusal('none was sent');
  let parsed: { challenge?: Challenge; solution?: { counter: number; derivedKey: string } };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as typeof parsed;
  } catch {
    throw refusal('it could not be read');
  }
  const { challenge, solution } = parsed;
  if (!challenge?.parameters || !challenge.signature || !solution) {
    throw refusal('it could not be read');
  }
  const now = deps.clock.now();
  const expires = Number(challenge.parameters.data?.expires);
  const result = await verifySolution({ challenge, solution, deriveKey, ...secrets(deps.secret) });
  if (!result.verified) throw refusal('the answer was wrong');
  // Signed with the challenge, so the expiry is the server's own word.
  if (!(expires > now)) throw refusal('it expired');
  if (!(await spendChallenge(deps.db, challenge.signature, expires, now))) {
    throw refusal('it was used before');
  }
}
