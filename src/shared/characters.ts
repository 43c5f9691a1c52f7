// The character catalogue (checked by characters.test.ts): what the shop sells, what the server charges and
// what the game and the shop preview draw. Pure data shared by server and client.

/** Keys in shop order; a tuple so it can feed `z.enum(characterKeys)`. */
export const characterKeys = [
  'default',
  'hardhat',
  'hoodie',
  'suit',
  'doctor',
  'chef',
  'police',
  'firefighter',
  'pilot',
  'scientist',
  'pudge',
] as const;

/**
 * Characters only a holder of the site's token may buy (docs/decisions/029-holders-at-home.md),
 * the shop's "Holders" row: apart from the catalogue above, which stays the specification's
 * eleven.
 */
export const holderCharacterKeys = ['diamond-hands', 'hodler'] as const;

/** Every character a member may own or play: the catalogue, then the holders' row. */
export const allCharacterKeys = [...characterKeys, ...holderCharacterKeys] as const;

export type CharacterKey = (typeof allCharacterKeys)[number];

export const DEFAULT_CHARACTER_KEY = 'default' satisfies CharacterKey;

/** `pug` is the mascot's own body plan; everyone else is a person. */
type BodyForm = 'person' | 'pug';

export type HairStyle = 'none' | 'short' | 'parted' | 'slick' | 'wild';

export type HeadwearKind =
  | 'none'
  | 'hardhat'
  | 'hood'
  | 'head-mirror'
  | 'chef-hat'
  | 'police-cap'
  | 'fire-helmet'
  | 'pilot-cap'
  | 'crown';

/** The garment on the torso; each kind has its own cut (lapels, vest panels, pocket...). */
export type OutfitKind =
  | 'shirt'
  | 'hi-vis-vest'
  | 'hoodie'
  | 'suit'
  | 'open-coat'
  | 'chef-jacket'
  | 'uniform'
  | 'turnout-coat'
  | 'pilot-shirt'
  | 'fur';

export type AccessoryKind =
  | 'tie'
  | 'lanyard'
  | 'drawstrings'
  | 'pocket-square'
  | 'stethoscope'
  | 'neckerchief'
  | 'badge'
  | 'epaulettes'
  | 'wings'
  | 'aviators'
  | 'goggles'
  | 'flask'
  | 'collar';

interface Accessory {
  readonly kind: AccessoryKind;
  readonly color: string;
}

export interface CharacterAppearance {
  readonly form: BodyForm;
  /** Face and hands; for the pug, its fur. */
  readonly skin: string;
  readonly hair: { readonly style: HairStyle; readonly color: string };
  readonly headwear: {
    readonly kind: HeadwearKind;
    readonly color: string;
    /** Band, brim, badge or stripe colour. */
    readonly trim: string;
  };
  readonly outfit: {
    readonly kind: OutfitKind;
    readonly color: string;
    /** What shows under an open garment, or the stripes/panels of a closed one. */
    readonly trim: string;
  };
  /** Drawn in this order, after the outfit. */
  readonly accessories: readonly Accessory[];
}

export interface Character {
  readonly key: CharacterKey;
  readonly name: string;
  /** Price in coins. */
  readonly price: number;
  /** Legendary characters get the golden card and golden sparkles. */
  readonly legendary: boolean;
  /** Sold only to a member whose proven wallet reaches a holder tier (shared/holders.ts). */
  readonly forHolders?: true;
  readonly appearance: CharacterAppearance;
}

type CatalogueEntry = Omit<Character, 'key'>;

/** What sets one person apart from another; the mascot alone has its own body plan. */
type PersonLook = Omit<CharacterAppearance, 'form'>;

/** Every character but the mascot: a person, and not legendary. */
function person(name: string, price: number, look: PersonLook): CatalogueEntry {
  return { name, price, legendary: false, appearance: { form: 'person', ...look } };
}

/** Nothing on the head: the hair shows. */
const bareHead: CharacterAppearance['headwear'] = { kind: 'none', color: '', trim: '' };

// A mapped type so a key without an entry (or an entry without a key) fails to compile.
const catalogue: { readonly [K in CharacterKey]: CatalogueEntry } = {
  default: person('Office Worker', 0, {
    skin: '#f6d2b3',
    hair: { style: 'parted', color: '#5b3a21' },
    headwear: bareHead,
    outfit: { kind: 'shirt', color: '#9cc9f5', trim: '#ffffff' },
    accessories: [
      { kind: 'tie', color: '#d6342c' },
      { kind: 'lanyard', color: '#2563eb' },
    ],
  }),
  hardhat: person('Construction Worker', 50, {
    skin: '#d9a377',
    hair: { style: 'short', color: '#2b1d14' },
    headwear: { kind: 'hardhat', color: '#facc15', trim: '#ca8a04' },
    outfit: { kind: 'hi-vis-vest', color: '#f97316', trim: '#e5e7eb' },
    accessories: [],
  }),
  hoodie: person('Casual Worker', 100, {
    skin: '#f1c27d',
    hair: { style: 'short', color: '#7a4a24' },
    headwear: { kind: 'hood', color: '#22a06b', trim: '#15704a' },
    outfit: { kind: 'hoodie', color: '#22a06b', trim: '#15704a' },
    accessories: [{ kind: 'drawstrings', color: '#f8fafc' }],
  }),
  suit: person('Executive', 200, {
    skin: '#e8b894',
    hair: { style: 'slick', color: '#1f1f24' },
    headwear: bareHead,
    outfit: { kind: 'suit', color: '#334155', trim: '#ffffff' },
    accessories: [
      { kind: 'tie', color: '#7c1d3a' },
      { kind: 'pocket-square', color: '#fbbf24' },
    ],
  }),
  doctor: person('Doctor', 300, {
    skin: '#a8704a',
    hair: { style: 'short', color: '#1b1512' },
    headwear: { kind: 'head-mirror', color: '#cbd5e1', trim: '#475569' },
    outfit: { kind: 'open-coat', color: '#ffffff', trim: '#2fb5a9' },
    accessories: [{ kind: 'stethoscope', color: '#334155' }],
  }),
  chef: person('Chef', 400, {
    skin: '#f3c9a5',
    hair: { style: 'short', color: '#9a5a2a' },
    headwear: { kind: 'chef-hat', color: '#ffffff', trim: '#e2e8f0' },
    outfit: { kind: 'chef-jacket', color: '#ffffff', trim: '#1f2937' },
    accessories: [{ kind: 'neckerchief', color: '#dc2626' }],
  }),
  police: person('Police Officer', 500, {
    skin: '#8d5a3b',
    hair: { style: 'short', color: '#140f0c' },
    headwear: { kind: 'police-cap', color: '#1e3a8a', trim: '#facc15' },
    outfit: { kind: 'uniform', color: '#3b5bdb', trim: '#1e3a8a' },
    accessories: [
      { kind: 'tie', color: '#0f172a' },
      { kind: 'badge', color: '#facc15' },
    ],
  }),
  firefighter: person('Firefighter', 600, {
    skin: '#f0c29e',
    hair: { style: 'short', color: '#3f2a1c' },
    headwear: { kind: 'fire-helmet', color: '#dc2626', trim: '#facc15' },
    outfit: { kind: 'turnout-coat', color: '#3f3f46', trim: '#d9f99d' },
    accessories: [],
  }),
  pilot: person('Pilot', 750, {
    skin: '#e2a878',
    hair: { style: 'short', color: '#4a3020' },
    headwear: { kind: 'pilot-cap', color: '#111827', trim: '#eab308' },
    outfit: { kind: 'pilot-shirt', color: '#ffffff', trim: '#111827' },
    accessories: [
      { kind: 'tie', color: '#111827' },
      { kind: 'epaulettes', color: '#eab308' },
      { kind: 'wings', color: '#eab308' },
      { kind: 'aviators', color: '#1f2937' },
    ],
  }),
  scientist: person('Scientist', 1000, {
    skin: '#f5d6bd',
    hair: { style: 'wild', color: '#e5e7eb' },
    headwear: bareHead,
    outfit: { kind: 'open-coat', color: '#ffffff', trim: '#7c3aed' },
    accessories: [
      { kind: 'goggles', color: '#22d3ee' },
      { kind: 'flask', color: '#84cc16' },
    ],
  }),
  pudge: {
    name: 'Pudge - Official Mascot',
    price: 2000,
    legendary: true,
    appearance: {
      form: 'pug',
      skin: '#e3b778',
      hair: { style: 'none', color: '#3b2a20' },
      headwear: { kind: 'crown', color: '#fbbf24', trim: '#ef4444' },
      outfit: { kind: 'fur', color: '#e3b778', trim: '#f3d3a0' },
      accessories: [
        { kind: 'collar', color: '#ffffff' },
        { kind: 'tie', color: '#f59e0b' },
      ],
    },
  },
  'diamond-hands': {
    ...person('Diamond Hands', 500, {
      skin: '#c68c5d',
      hair: { style: 'short', color: '#111827' },
      headwear: { kind: 'hood', color: '#38bdf8', trim: '#0369a1' },
      outfit: { kind: 'hoodie', color: '#38bdf8', trim: '#0369a1' },
      accessories: [
        { kind: 'drawstrings', color: '#e0f2fe' },
        { kind: 'aviators', color: '#0f172a' },
      ],
    }),
    forHolders: true,
  },
  hodler: {
    ...person('HODLer', 1500, {
      skin: '#f2c7a0',
      hair: { style: 'slick', color: '#7c2d12' },
      headwear: bareHead,
      outfit: { kind: 'suit', color: '#0f766e', trim: '#fef3c7' },
      accessories: [
        { kind: 'tie', color: '#facc15' },
        { kind: 'pocket-square', color: '#facc15' },
        { kind: 'badge', color: '#facc15' },
      ],
    }),
    forHolders: true,
  },
};

const entriesOf = (keys: readonly CharacterKey[]): readonly Character[] =>
  keys.map((key) => ({ key, ...catalogue[key] }));

/** Every character of the catalogue (the specification's eleven), in shop order. */
export const characters = entriesOf(characterKeys);

/** The shop's "Holders" row, in order. */
export const holderCharacters = entriesOf(holderCharacterKeys);

const byKey = new Map<string, Character>(
  [...characters, ...holderCharacters].map((c) => [c.key, c]),
);

export function isCharacterKey(x: unknown): x is CharacterKey {
  return typeof x === 'string' && byKey.has(x);
}

export function getCharacter(key: CharacterKey): Character {
  const character = byKey.get(key);
  // Unreachable for a typed key; guards callers that cast an unchecked string.
  if (character === undefined) throw new RangeError(`Unknown character key: ${String(key)}`);
  return character;
}
