import type { Kysely } from 'kysely';
import { USERNAME_MAX, USERNAME_PATTERN } from '#shared/api/auth.ts';
import type { Account, MemberPage } from '#shared/api/members.ts';
import { DEFAULT_CHARACTER_KEY, isCharacterKey } from '#shared/characters.ts';
import type { SiteConfig } from '#shared/site.ts';
import {
  findAccount,
  findMemberByName,
  setPasswordIfNone,
  setShowWallet,
  wasDeleted,
} from '../accounts/repository.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import type { SessionUser } from '../deps.ts';
import { bestRunsOfMember } from '../game/member-runs.ts';
import { badgeOf, holderStatus, holderTiers } from '../holders/service.ts';
import { HttpError, unauthorized } from '../http-error.ts';
import { memesOfMember } from '../memes/member-memes.ts';
import { standingsOf } from '../memes/standing.ts';
import { prizesOfMember } from '../prize/member-prizes.ts';
import { hashPassword, hasPassword, NO_PASSWORD } from '../security/password.ts';
import { enforceRateLimit } from '../security/rate-limit.ts';
import type { RateLimiter } from '../security/rate-limit.ts';
import { activeSuspension } from '../suspensions/suspensions.ts';
import { findWallet } from '../wallet/repository.ts';

/**
 * A member's public page and their own account (docs/decisions/029-holders-at-home.md). The page
 * gathers what each domain shows of the member; the wallet only when the member chose to show
 * it. A suspended or deleted member's page says so and nothing else.
 */

const PAGE_MEMES = 24;
const PAGE_RUNS = 5;
const PAGE_PRIZES = 52;

export interface MemberDeps {
  db: Kysely<Database>;
  clock: Clock;
}

const unknownMember = () => new HttpError(404, 'There is no member by that name', 'MEMBER_UNKNOWN');
const iso = (ms: number) => new Date(ms).toISOString();

export async function memberPage(
  deps: MemberDeps,
  site: SiteConfig,
  username: string,
): Promise<MemberPage> {
  // Only names registration allows have accounts; any other is looked up nowhere.
  if (username.length > USERNAME_MAX || !USERNAME_PATTERN.test(username)) throw unknownMember();
  const member = await findMemberByName(deps.db, username);
  if (!member) {
    if (await wasDeleted(deps.db, username)) return { status: 'deleted', username };
    throw unknownMember();
  }
  const now = deps.clock.now();
  if (await activeSuspension(deps.db, member.id, now)) {
    return { status: 'suspended', username: member.username };
  }
  const standing = (await standingsOf(deps.db, [member.id], now)).get(member.id);
  const tier = (await holderTiers(deps.db, [member.id])).get(member.id);
  const wallet = member.show_wallet === 1 ? await findWallet(deps.db, member.id) : undefined;
  const memes = await memesOfMember(deps.db, member.id, PAGE_MEMES);
  const runs = await bestRunsOfMember(deps.db, member.id, PAGE_RUNS);
  const prizes = await prizesOfMember(deps.db, site, member.id, PAGE_PRIZES);
  return {
    status: 'active',
    username: member.username,
    memberSince: iso(member.created_at),
    standing: standing?.level ?? 'new',
    character: isCharacterKey(member.selected_character_key)
      ? member.selected_character_key
      : DEFAULT_CHARACTER_KEY,
    holder: tier ? badgeOf(site, tier) : null,
    wallet: wallet?.address ?? null,
    memes: memes.map((m) => ({ ...m, createdAt: iso(m.createdAt) })),
    bestRuns: runs.map((r) => ({ ...r, createdAt: iso(r.createdAt) })),
    prizeWeeks: prizes.map((p) => ({ ...p, paidAt: iso(p.paidAt) })),
  };
}

export async function accountOf(
  deps: MemberDeps,
  site: SiteConfig,
  user: SessionUser,
): Promise<Account> {
  const account = await findAccount(deps.db, user.id);
  // The session outlived its account (deleted by an operator): treat it as signed out.
  if (!account) throw unauthorized('Please log in again.');
  const wallet = await findWallet(deps.db, user.id);
  return {
    username: account.username,
    hasPassword: hasPassword(account.password_hash),
    showWallet: account.show_wallet === 1,
    wallet: wallet?.address ?? null,
    holder: wallet ? await holderStatus(deps.db, site, user.id) : null,
  };
}

export async function updateSettings(
  deps: MemberDeps,
  site: SiteConfig,
  user: SessionUser,
  settings: { showWallet: boolean },
): Promise<Account> {
  await setShowWallet(deps.db, user.id, settings.showWallet);
  return accountOf(deps, site, user);
}

/** Hashes a member may ask for per hour (each an argon2 hash). */
const PASSWORD_ADDS_PER_MEMBER = { limit: 5, windowMs: 60 * 60 * 1000 };

/** A first password for an account opened with a wallet; one it has already is not replaced. */
export async function addPassword(
  deps: MemberDeps & { rateLimiter: RateLimiter },
  site: SiteConfig,
  user: SessionUser,
  password: string,
): Promise<Account> {
  await enforceRateLimit(
    deps.rateLimiter,
    `password-add:user:${user.id}`,
    PASSWORD_ADDS_PER_MEMBER,
    'Too many attempts. Please try again later.',
  );
  const alreadySet = () =>
    new HttpError(409, 'Your account has a password already', 'PASSWORD_ALREADY_SET');
  const account = await findAccount(deps.db, user.id);
  if (!account) throw unauthorized('Please log in again.');
  if (hasPassword(account.password_hash)) throw alreadySet();
  const hash = await hashPassword(password);
  if (!(await setPasswordIfNone(deps.db, user.id, hash, NO_PASSWORD))) throw alreadySet();
  return accountOf(deps, site, user);
}
