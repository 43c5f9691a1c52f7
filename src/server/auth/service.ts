import { USERNAME_PATTERN, type LoginBody, type RegisterBody } from '#shared/api/auth.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import { HttpError } from '../http-error.ts';
import { hashPassword, verifyPassword } from '../security/password.ts';
import { enforceRateLimit } from '../security/rate-limit.ts';
import { findUserByUsername, insertUser, isLookAlikeOfMember } from './repository.ts';

export const LOGIN_FAILED_MESSAGE = 'Invalid username or password';
const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Failed logins one address may make for one username per window. */
const LOGIN_LIMIT_PER_USERNAME = 10;
const LOGIN_LIMIT_PER_IP = 50;
const REGISTER_WINDOW_MS = 60 * 60 * 1000;
/**
 * Accounts one address may open per hour: room for a household or a classroom behind one
 * router, while a script can neither fill the users table nor keep the cores busy hashing.
 */
export const REGISTER_LIMIT_PER_IP = 20;

/** Counts accounts opened per IP; a name already taken gives its attempt back. */
export async function register(
  deps: AppDeps,
  body: RegisterBody,
  ip: string,
): Promise<SessionUser> {
  const ipKey = await enforceRateLimit(
    deps.rateLimiter,
    `register:ip:${ip}`,
    { limit: REGISTER_LIMIT_PER_IP, windowMs: REGISTER_WINDOW_MS },
    'Too many accounts created from your network. Please try again later.',
  );
  const taken = async () => {
    await deps.rateLimiter.undo(ipKey);
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
 * Every attempt counts against the caller's IP, and against the named account from that IP; a
 * success gives the attempt back, so only failures add up. The account's counter is per
 * address: usernames are public (the leaderboard), and a counter shared by every address would
 * let anyone keep the owner out with 11 wrong passwords per window. Guessing one password from
 * many addresses is still bounded per address and by the cost of each hash.
 */
export async function login(deps: AppDeps, body: LoginBody, ip: string): Promise<SessionUser> {
  // Only names registration allows have accounts. Any other fails as an unknown one, counted
  // under one key and looked up nowhere: PostgreSQL's text cannot even hold some (NUL).
  const name = USERNAME_PATTERN.test(body.username) ? body.username.toLowerCase() : null;
  const ipKey = `login:ip:${ip}`;
  const userKey = `login:user:${name ?? '*'}:${ip}`;
  for (const [key, limit] of [
    [ipKey, LOGIN_LIMIT_PER_IP],
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
  await deps.rateLimiter.undo(ipKey);
  await deps.rateLimiter.reset(userKey);
  return { id: user.id, username: user.username };
}
