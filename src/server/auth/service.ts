import { HOUR_MS, MINUTE_MS } from '#shared/time.ts';
import { USERNAME_PATTERN, type LoginBody, type RegisterBody } from '#shared/api/auth.ts';
import { findUserByUsername, insertUser, isLookAlikeOfMember } from '../accounts/repository.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import { HttpError } from '../http-error.ts';
import { hashPassword, verifyPassword } from '../security/password.ts';
import { enforceRateLimit } from '../security/rate-limit.ts';

export const LOGIN_FAILED_MESSAGE = 'Invalid username or password';
const LOGIN_WINDOW_MS = 15 * MINUTE_MS;
/** Failed logins one network may make for one username per window. */
const LOGIN_LIMIT_PER_USERNAME = 10;
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
  const networkKey = await enforceRateLimit(
    deps.rateLimiter,
    `register:net:${network}`,
    { limit: REGISTER_LIMIT_PER_IP, windowMs: REGISTER_WINDOW_MS },
    'Too many accounts created from your network. Please try again later.',
  );
  const taken = async () => {
    await deps.rateLimiter.undo(networkKey);
    return new HttpError(409, 'Username is already taken', 'USERNAME_TAKEN');
  };
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
 * Every attempt counts against the caller's network (`clientNetwork(request)`: an IPv4 address,
 * an IPv6 /64), and against the named account from that network; a success gives the attempt
 * back, so only failures add up. The account's counter is per network: usernames are public
 * (the leaderboard), and a counter shared by every network would let anyone keep the owner out
 * with 11 wrong passwords per window. Guessing one password from many networks is still bounded
 * per network and by the cost of each hash.
 */
export async function login(deps: AppDeps, body: LoginBody, network: string): Promise<SessionUser> {
  // Only names registration allows have accounts. Any other fails as an unknown one, counted
  // under one key and looked up nowhere: PostgreSQL's text cannot even hold some (NUL).
  const name = USERNAME_PATTERN.test(body.username) ? body.username.toLowerCase() : null;
  const networkKey = `login:net:${network}`;
  const userKey = `login:user:${name ?? '*'}:${network}`;
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
  const valid = await verifyPassword(user?.password_hash, body.password);
  if (!user || !valid) throw new HttpError(401, LOGIN_FAILED_MESSAGE, 'INVALID_CREDENTIALS');
  await deps.rateLimiter.undo(networkKey);
  await deps.rateLimiter.reset(userKey);
  return { id: user.id, username: user.username };
}
