import { describe, expect, it } from 'vitest';
import { characters, getCharacter, type CharacterKey } from '#shared/characters.ts';
import { cardState, type ShopSnapshot } from './card-state.ts';

function shop(overrides: Partial<ShopSnapshot> = {}): ShopSnapshot {
  return {
    coins: 0,
    owned: new Set<CharacterKey>(),
    selected: 'default',
    purchasing: null,
    selecting: null,
    ...overrides,
  };
}

describe('shop card state', () => {
  it('always owns the default character, selected for a new member', () => {
    expect(cardState(getCharacter('default'), shop())).toEqual({
      owned: true,
      selected: true,
      badge: 'Selected',
      action: { kind: 'select', label: 'Selected', disabled: true },
    });
  });

  it('offers Purchase only when the coins cover the price, else says how many are missing', () => {
    const suit = getCharacter('suit'); // 200
    expect(cardState(suit, shop({ coins: 200 })).action).toEqual({
      kind: 'purchase',
      label: 'Purchase',
      disabled: false,
    });
    expect(cardState(suit, shop({ coins: 199 })).action).toEqual({
      kind: 'purchase',
      label: 'Need 1 more coins',
      disabled: true,
    });
    expect(cardState(getCharacter('pudge'), shop({ coins: 0 })).action.label).toBe(
      'Need 2000 more coins',
    );
    expect(cardState(suit, shop({ coins: 500 })).badge).toBeNull();
  });

  it('shows Purchasing... on the card being bought and holds the other purchases meanwhile', () => {
    const state = shop({ coins: 5000, purchasing: 'chef' });
    expect(cardState(getCharacter('chef'), state).action).toEqual({
      kind: 'purchase',
      label: 'Purchasing...',
      disabled: true,
    });
    expect(cardState(getCharacter('pilot'), state).action).toEqual({
      kind: 'purchase',
      label: 'Purchase',
      disabled: true,
    });
  });

  it('moves an owned character from Owned/Select through Selecting... to Selected', () => {
    const chef = getCharacter('chef');
    const owned = new Set<CharacterKey>(['chef']);
    expect(cardState(chef, shop({ owned }))).toMatchObject({
      badge: 'Owned',
      action: { kind: 'select', label: 'Select', disabled: false },
    });
    expect(cardState(chef, shop({ owned, selecting: 'chef' })).action).toEqual({
      kind: 'select',
      label: 'Selecting...',
      disabled: true,
    });
    expect(cardState(chef, shop({ owned, selected: 'chef' }))).toMatchObject({
      selected: true,
      badge: 'Selected',
      action: { kind: 'select', label: 'Selected', disabled: true },
    });
    // The default is then owned but no longer selected.
    expect(cardState(getCharacter('default'), shop({ owned, selected: 'chef' })).badge).toBe(
      'Owned',
    );
  });

  it('marks exactly one card Selected whatever the collection', () => {
    const owned = new Set<CharacterKey>(['hardhat', 'pudge']);
    const states = characters.map((c) =>
      cardState(c, shop({ owned, selected: 'pudge', coins: 10 })),
    );
    expect(states.filter((s) => s.badge === 'Selected')).toHaveLength(1);
    expect(states.filter((s) => s.badge === 'Owned')).toHaveLength(2);
  });

  it('never marks a character Selected that is not owned', () => {
    expect(cardState(getCharacter('pilot'), shop({ selected: 'pilot' })).badge).toBeNull();
  });

  it("sells the Holders row to a holder only, and a holder's character stays theirs", () => {
    const diamond = getCharacter('diamond-hands'); // 500, holders only
    expect(cardState(diamond, shop({ coins: 5000 })).action).toEqual({
      kind: 'purchase',
      label: 'Holders only',
      disabled: true,
    });
    expect(cardState(diamond, shop({ coins: 5000, holder: true })).action).toEqual({
      kind: 'purchase',
      label: 'Purchase',
      disabled: false,
    });
    expect(cardState(diamond, shop({ coins: 100, holder: true })).action.label).toBe(
      'Need 400 more coins',
    );
    const owned = new Set<CharacterKey>(['diamond-hands']);
    expect(cardState(diamond, shop({ owned })).action).toEqual({
      kind: 'select',
      label: 'Select',
      disabled: false,
    });
  });
});
