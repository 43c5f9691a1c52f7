import type { Kysely, Transaction } from 'kysely';
import type { OwnedCharacter, PurchaseResponse, UserProfile } from '#shared/api/shop.ts';
import {
  allCharacterKeys,
  DEFAULT_CHARACTER_KEY,
  getCharacter,
  isCharacterKey,
  type Character,
} from '#shared/characters.ts';
import { findProfile, type ProfileRow } from '../accounts/repository.ts';
import type { Database } from '../db/database.ts';
import type { SessionUser } from '../deps.ts';
import { HttpError, unauthorized } from '../http-error.ts';
import { applyDebit } from './ledger.ts';
import { insertOwnership, ownedKeys, selectOwnedCharacter } from './repository.ts';
import type { Clock } from '../clock.ts';

export interface ShopDeps {
  db: Kysely<Database>;
  clock: Clock;
}

/** The holders' row (docs/decisions/029-holders-at-home.md): the site's tiers for its sale. */
export type HolderRule = (
  db: Kysely<Database>,
  userId: number,
  characterName: string,
) => Promise<void>;

function characterOr404(key: string): Character {
  if (!isCharacterKey(key)) throw new HttpError(404, 'Character not found', 'UNKNOWN_CHARACTER');
  return getCharacter(key);
}

function toProfile(row: ProfileRow): UserProfile {
  return {
    username: row.username,
    coins: row.coins,
    // A character dropped from the catalogue must not break the member's profile.
    selectedCharacterKey: isCharacterKey(row.selected_character_key)
      ? row.selected_character_key
      : DEFAULT_CHARACTER_KEY,
  };
}

/** Owned characters in catalogue order; `default` is always there, rows for retired keys are not. */
function ownedList(keys: readonly string[]): OwnedCharacter[] {
  const owned = new Set<string>(keys);
  owned.add(DEFAULT_CHARACTER_KEY);
  return allCharacterKeys.filter((k) => owned.has(k)).map((characterKey) => ({ characterKey }));
}

async function profileOf(
  db: Kysely<Database> | Transaction<Database>,
  user: SessionUser,
): Promise<UserProfile> {
  const row = await findProfile(db, user.id);
  // The session outlived its account (deleted by an operator): treat it as signed out.
  if (!row) throw unauthorized('Please log in again.');
  return toProfile(row);
}

export function getProfile(deps: ShopDeps, member: SessionUser): Promise<UserProfile> {
  return profileOf(deps.db, member);
}

export async function getOwnedCharacters(
  deps: ShopDeps,
  member: SessionUser,
): Promise<OwnedCharacter[]> {
  return ownedList(await ownedKeys(deps.db, member.id));
}

/**
 * One transaction: claim the ownership row, take the coins with a guarded debit (which also
 * writes the ledger row), or undo both. The ownership row comes first so that a duplicate
 * purchase racing this one finds the key taken and answers 409 without ever touching coins.
 */
export async function purchaseCharacter(
  deps: ShopDeps,
  member: SessionUser,
  key: string,
  refuseUnlessHolder?: HolderRule,
): Promise<PurchaseResponse> {
  const character = characterOr404(key);
  const alreadyOwned = () =>
    new HttpError(409, `You already own ${character.name}`, 'ALREADY_OWNED');
  if (character.key === DEFAULT_CHARACTER_KEY) throw alreadyOwned();
  if (character.forHolders) {
    if (!refuseUnlessHolder) {
      throw new HttpError(403, `${character.name} is for holders only`, 'HOLDERS_ONLY');
    }
    await refuseUnlessHolder(deps.db, member.id, character.name);
  }

  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    if (!(await insertOwnership(trx, member.id, character.key, now))) throw alreadyOwned();
    const debit = await applyDebit(trx, {
      userId: member.id,
      amount: character.price,
      reason: 'purchase',
      characterKey: character.key,
      now,
    });
    if (!debit) {
      const balance = (await findProfile(trx, member.id))?.coins ?? 0;
      throw new HttpError(
        400,
        `Not enough coins: ${character.name} costs ${character.price} and you have ${balance} (${character.price - balance} more needed)`,
        'NOT_ENOUGH_COINS',
      );
    }
    // Read inside the transaction: the answer shows exactly the state this purchase left.
    const profile = await profileOf(trx, member);
    return { profile, characters: ownedList(await ownedKeys(trx, member.id)) };
  });
}

export async function selectCharacter(
  deps: ShopDeps,
  member: SessionUser,
  key: string,
): Promise<UserProfile> {
  const character = characterOr404(key);
  if (!(await selectOwnedCharacter(deps.db, member.id, character.key))) {
    // Nothing changed: either the member does not own it, or the account is gone.
    await profileOf(deps.db, member);
    throw new HttpError(
      403,
      `You don't own ${character.name} yet. Purchase it first.`,
      'NOT_OWNED',
    );
  }
  return profileOf(deps.db, member);
}
