import { HOUR_MS, MINUTE_MS } from '#shared/time.ts';
import { USERNAME_PATTERN, type LoginBody, type RegisterBody } from '#shared/api/auth.ts';
import { findUserByUsername, insertUser, isLookAlikeOfMember } from '../accounts/repository.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import { HttpError } from '../http-error.ts';
import { hashPassword, verifyPassword } from '../security/password.ts';
import { enforceRateLimit, giveBack, resetRateLimit } from '../security/rate-limit.ts';

const LOGIN_FAILED_MESSAGE = 'Invalid username or password';
const LOGIN_WINDOW_MS = 15 * MINUTE_MS;
/** Failed logins one network may make for one username per window. */
export const LOGIN_LIMIT_PER_USERNAME = 10;
const LOGIN_LIMIT_PER_NETWORK = 50;
const REGISTER_WINDOW_MS = HOUR_MS;
/**
 * Accounts one network may open per hour: room for a household or a classroom behind one
 * router, while a script can neither fill the users table nor keep the cores busy hashing.
 */
export const REGISTER_LIMIT_PER_IP = 20;

/**
 * Counts accounts opened per network (`clientNetwork(request, 'subscriber')`: an IPv4 address,
 * an IPv6 /48, docs/decisions/018); a name already taken gives its attempt back.
 */
export async function register(
  deps: AppDeps,
  body: RegisterBody,
  network: string,
): Promise<SessionUser> {
  const { taken } = await countAccountOpening(deps, network);
  if (await isLookAlikeOfMember(deps.db, body.username)) throw await taken();
  const user = await insertUser(deps.db, {
    username: body.username,
    passwordHash: await hashPassword(body.password),
    now: deps.clock.now(),
  });
  if (!user) throw await taken();
  return user;
}

/**
 * Counts an account opened from `network` (a password's or a wallet's: one allowance for both);
 * `taken()` gives the attempt back and answers the name's refusal.
 */
export async function countAccountOpening(
  deps: AppDeps,
  network: string,
): Promise<{ taken(): Promise<HttpError>; giveBack(): Promise<void> }> {
  const networkKey = await enforceRateLimit(
    deps.rateLimiter,
    `register:net:${network}`,
    { limit: REGISTER_LIMIT_PER_IP, windowMs: REGISTER_WINDOW_MS },
    'Too many accounts created from your network. Please try again later.',
  );
  const back = () => giveBack(deps.rateLimiter, networkKey);
  return {
    giveBack: back,
    async taken() {
      await back();
      return new HttpError(409, 'Username is already taken', 'USERNAME_TAKEN');
    },
  };
}

/** Failed sign-ins to one account from any networks per window, then a pause (service doc). */
export const SIGN_IN_FAILURES_PER_ACCOUNT = 20;
/** Failed sign-ins from one known browser (known-device.ts) per window. */
export const SIGN_IN_FAILURES_PER_DEVICE = 10;

const pausedFor = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

/**
 * Every attempt counts against the caller's network (`clientNetwork(request)`: an IPv4 address,
 * or an IPv6 /64 and its /48, docs/decisions/018), against the named account from that
 * network, and against the account from anywhere; a success gives its attempts back, so only
 * failures add up.
 *
 * The account's count from anywhere stops a guesser who spreads over many networks (many IPv4
 * addresses, or the /64s of many /48s): past `SIGN_IN_FAILURES_PER_ACCOUNT` in a window, the
 * account's sign-ins are paused (429 `SIGN_IN_PAUSED`, the wait in the message) until the window
 * ends, right password or not, so the pause tests no guesses. Usernames are public (the
 * leaderboard), so anyone can pause an account this way; a browser that signed in to it before
 * (`knownDevice`) is not paused by others' failures, only by its own
 * (`SIGN_IN_FAILURES_PER_DEVICE`), and a session already open is untouched.
 */
export async function login(
  deps: AppDeps,
  body: LoginBody,
  network: string,
  knownDevice: (userId: number) => string | null = () => null,
): Promise<SessionUser> {
  // Only names registration allows have accounts. Any other fails as an unknown one, counted
  // under one key and looked up nowhere: PostgreSQL's text cannot even hold some (NUL).
  const name = USERNAME_PATTERN.test(body.username) ? body.username.toLowerCase() : null;
  const networkKey = `login:net:${network}`;
  const userKey = `login:user:${name ?? '*'}:net:${network}`;
  for (const [key, limit] of [
    [networkKey, LOGIN_LIMIT_PER_NETWORK],
    [userKey, LOGIN_LIMIT_PER_USERNAME],
  ] as const) {
    await enforceRateLimit(
      deps.rateLimiter,
      key,
      { limit, windowMs: LOGIN_WINDOW_MS },
      'Too many login attempts. Please try again later.',
    );
  }
  const user = name ? await findUserByUsername(deps.db, name) : undefined;
  const device = user ? knownDevice(user.id) : null;
  const accountKey = device ? `login:device:${device}` : name && `login:account:${name}`;
  if (accountKey) {
    await enforceRateLimit(
      deps.rateLimiter,
      accountKey,
      {
        limit: device ? SIGN_IN_FAILURES_PER_DEVICE : SIGN_IN_FAILURES_PER_ACCOUNT,
        windowMs: LOGIN_WINDOW_MS,
      },
      (seconds) =>
        device
          ? `Too many failed sign-ins from this browser. Try again in ${pausedFor(seconds)}.`
          : `Too many failed sign-ins to this account. Signing in to it is paused for ${pausedFor(seconds)}; ` +
            'try again then, or from a browser you have signed in with before.',
      'SIGN_IN_PAUSED',
    );
  }
  const valid = await verifyPassword(user?.password_hash, body.password);
  if (!user || !valid) throw new HttpError(401, LOGIN_FAILED_MESSAGE, 'INVALID_CREDENTIALS');
  await giveBack(deps.rateLimiter, networkKey);
  await resetRateLimit(deps.rateLimiter, userKey);
  if (accountKey) await giveBack(deps.rateLimiter, accountKey);
  return { id: user.id, username: user.username };
}
