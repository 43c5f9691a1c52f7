import { challengeEndpoint } from '#shared/api/raid.ts';
import { callEndpoint } from './api-call.ts';
import { raidModeOn } from './raid-status.ts';

/**
 * In raid mode a sign-up brings a solved proof of work (docs/decisions/027-raid-day.md): the
 * server's ALTCHA challenge, solved here with the `altcha` package's solver (WebCrypto PBKDF2,
 * a second or two), sent as ALTCHA's payload. Nothing leaves the browser but the answer.
 */
export async function signUpProof(): Promise<string | undefined> {
  if (!(await raidModeOn())) return undefined;
  const [challenge, { solveChallenge, pbkdf2 }] = await Promise.all([
    callEndpoint(challengeEndpoint),
    import('altcha/lib'),
  ]);
  const solution = await solveChallenge({
    challenge: challenge as unknown as Parameters<typeof solveChallenge>[0]['challenge'],
    deriveKey: pbkdf2.deriveKey,
  });
  if (!solution) throw new Error('The browser check did not finish. Please try again.');
  return btoa(JSON.stringify({ challenge, solution }));
}
