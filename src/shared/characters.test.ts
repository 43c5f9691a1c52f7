import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DEFAULT_CHARACTER_KEY,
  allCharacterKeys,
  characterKeys,
  characters,
  getCharacter,
  holderCharacterKeys,
  holderCharacters,
  isCharacterKey,
} from './characters.ts';

// The catalogue the shop sells, in shop order: key, name, price.
const expected: ReadonlyArray<readonly [string, string, number]> = [
  ['default', 'Office Worker', 0],
  ['hardhat', 'Construction Worker', 50],
  ['hoodie', 'Casual Worker', 100],
  ['suit', 'Executive', 200],
  ['doctor', 'Doctor', 300],
  ['chef', 'Chef', 400],
  ['police', 'Police Officer', 500],
  ['firefighter', 'Firefighter', 600],
  ['pilot', 'Pilot', 750],
  ['scientist', 'Scientist', 1000],
  ['pudge', 'Pudge - Official Mascot', 2000],
];

describe('character catalogue', () => {
  it('has the eleven characters of the spec with exact keys, names and prices, in shop order', () => {
    expect(characters.map((c) => [c.key, c.name, c.price])).toEqual(expected);
    expect(characterKeys).toEqual(expected.map(([key]) => key));
  });

  it('marks only Pudge as legendary', () => {
    expect(characters.filter((c) => c.legendary).map((c) => c.key)).toEqual(['pudge']);
  });

  it('gives the default character away for free', () => {
    expect(DEFAULT_CHARACTER_KEY).toBe('default');
    expect(getCharacter(DEFAULT_CHARACTER_KEY).price).toBe(0);
    expect(characters.filter((c) => c.price === 0).map((c) => c.key)).toEqual(['default']);
  });

  it('recognises exactly the catalogue keys', () => {
    for (const key of characterKeys) expect(isCharacterKey(key)).toBe(true);
    for (const x of [
      '',
      'Default',
      'PUDGE',
      'ninja',
      'constructor',
      '__proto__',
      0,
      null,
      undefined,
    ]) {
      expect(isCharacterKey(x)).toBe(false);
    }
  });

  it('looks a character up by key', () => {
    for (const c of characters) expect(getCharacter(c.key)).toBe(c);
    expect(() => getCharacter('ninja' as never)).toThrow(RangeError);
  });

  it('feeds z.enum for request validation', () => {
    const schema = z.enum(characterKeys);
    expect(schema.parse('pilot')).toBe('pilot');
    expect(schema.safeParse('ninja').success).toBe(false);
  });

  it("keeps the holders' row apart from the eleven: two characters sold to holders only", () => {
    expect(holderCharacters.map((c) => [c.key, c.name, c.price, c.forHolders])).toEqual([
      ['diamond-hands', 'Diamond Hands', 500, true],
      ['hodler', 'HODLer', 1500, true],
    ]);
    expect(characters.filter((c) => c.forHolders)).toEqual([]);
    expect(allCharacterKeys).toEqual([...characterKeys, ...holderCharacterKeys]);
    for (const c of holderCharacters) expect(getCharacter(c.key)).toBe(c);
    const looks = [...characters, ...holderCharacters].map((c) => JSON.stringify(c.appearance));
    expect(new Set(looks).size).toBe(characters.length + holderCharacters.length);
  });

  it('gives every character a distinct look for the renderer', () => {
    const looks = characters.map((c) => JSON.stringify(c.appearance));
    expect(new Set(looks).size).toBe(characters.length);
    for (const c of characters) {
      expect(c.appearance.skin).toMatch(/^#[0-9a-f]{6}$/);
      expect(c.appearance.outfit.color).toMatch(/^#[0-9a-f]{6}$/);
      if (c.appearance.headwear.kind !== 'none') {
        expect(c.appearance.headwear.color).toMatch(/^#[0-9a-f]{6}$/);
      }
      for (const a of c.appearance.accessories) expect(a.color).toMatch(/^#[0-9a-f]{6}$/);
    }
  });
});
