import type { Character, CharacterKey } from '#shared/characters.ts';

type ShopAction =
  | { kind: 'purchase'; label: string; disabled: boolean }
  | { kind: 'select'; label: string; disabled: boolean };

export interface CardState {
  owned: boolean;
  selected: boolean;
  /** The badge on the card: Selected wins over Owned; none for a character not owned. */
  badge: 'Selected' | 'Owned' | null;
  action: ShopAction;
}

export interface ShopSnapshot {
  coins: number;
  owned: ReadonlySet<CharacterKey>;
  selected: CharacterKey;
  /** The character whose purchase or selection is in flight, if any. */
  purchasing: CharacterKey | null;
  selecting: CharacterKey | null;
  /** The member's proven wallet holds a holder tier now (the Holders row's sale). */
  holder?: boolean;
}

/**
 * A card's badge and button (card-state.test.ts): not owned -> Purchase, Purchasing...
 * or "Need N more coins" ("Holders only" for a holder character and a member who holds no
 * tier); owned -> Select, Selecting... or Selected. The default character is
 * always owned. While one purchase runs, the other Purchase buttons wait (the balance is moving).
 */
export function cardState(character: Character, shop: ShopSnapshot): CardState {
  const owned = character.key === 'default' || shop.owned.has(character.key);
  const selected = owned && shop.selected === character.key;
  const badge = selected ? 'Selected' : owned ? 'Owned' : null;

  if (owned) {
    if (selected)
      return {
        owned,
        selected,
        badge,
        action: { kind: 'select', label: 'Selected', disabled: true },
      };
    const selecting = shop.selecting === character.key;
    return {
      owned,
      selected,
      badge,
      action: {
        kind: 'select',
        label: selecting ? 'Selecting...' : 'Select',
        disabled: shop.selecting !== null,
      },
    };
  }

  // The Holders row: not sold to a member below the holder tier (what they own stays theirs).
  if (character.forHolders && !shop.holder) {
    return {
      owned,
      selected,
      badge,
      action: { kind: 'purchase', label: 'Holders only', disabled: true },
    };
  }
  if (shop.purchasing === character.key) {
    return {
      owned,
      selected,
      badge,
      action: { kind: 'purchase', label: 'Purchasing...', disabled: true },
    };
  }
  const missing = character.price - shop.coins;
  if (missing > 0) {
    return {
      owned,
      selected,
      badge,
      action: { kind: 'purchase', label: `Need ${missing} more coins`, disabled: true },
    };
  }
  return {
    owned,
    selected,
    badge,
    action: { kind: 'purchase', label: 'Purchase', disabled: shop.purchasing !== null },
  };
}
