// The skins as data: each part a character can wear (the catalogue in `#shared/characters.ts`
// names the parts) is a list of shapes on a 100x100 grid centred on the
// origin, head near the top. Colours written `$name` come from the character's appearance;
// `characterShapes` puts the parts together in drawing order and fills those colours in.

import type {
  AccessoryKind,
  CharacterAppearance,
  HairStyle,
  HeadwearKind,
  OutfitKind,
} from '#shared/characters.ts';
import { arc, circle, ellipse, rect, type Shape } from './shape-painter.ts';

/** The grid the shapes are drawn on, from -50 to 50 on each axis. */
export const GRID = 100;

const INK = '#1f2937';
const WHITE = '#ffffff';
const SILVER = '#cbd5e1';
const LINE = 3;

/** Filled and outlined in ink, the look of nearly every part. */
const inked = (d: string, fill: string, width = LINE): Shape => ({ d, fill, stroke: INK, width });
const filled = (d: string, fill: string, alpha?: number): Shape => ({ d, fill, alpha });
const line = (d: string, stroke: string, width: number, alpha?: number): Shape => ({
  d,
  stroke,
  width,
  alpha,
});

// --- body ---------------------------------------------------------------------------------

const TORSO =
  'M-29 46L-29 29Q-29 12 -12 12L12 12Q29 12 29 29L29 45Q29 48 26 48L-26 48Q-29 48 -29 45Z';

const COLLAR_POINTS = 'M0 18L-12 11L-9 22ZM0 18L12 11L9 22Z';
const lapels = (tip: number) => `M-11 11L-17 22L-11 24L0 ${tip}M11 11L17 22L11 24L0 ${tip}`;
const twoPockets = (y: number, w: number) => rect(-23, y, w, 8) + rect(23 - w, y, w, 8);

/** What each garment shows on the torso, clipped to its outline. */
const OUTFIT: Record<OutfitKind, readonly Shape[]> = {
  shirt: [inked(COLLAR_POINTS, '$clothTrim', 2), line('M0 20L0 49', INK, 2)],
  'hi-vis-vest': [
    filled(rect(-9, 10, 18, 40), '#475569'),
    filled(rect(-30, 27, 21, 5) + rect(9, 27, 21, 5), '$clothTrim'),
    filled(rect(-30, 38, 21, 5) + rect(9, 38, 21, 5), '$clothTrim'),
    line('M-9 12L-9 49M9 12L9 49', INK, 2),
  ],
  hoodie: [inked('M-14 49L-11 34L11 34L14 49Z', '$clothTrim', 2)],
  suit: [
    inked('M-11 11L11 11L0 38Z', '$clothTrim', 2),
    // Seams on dark cloth, where the ink outline would vanish.
    line(lapels(38), '#64748b', 2),
    filled(circle(0, 43, 1.8), SILVER),
  ],
  'open-coat': [
    inked('M-11 11L11 11L4 30L4 50L-4 50L-4 30Z', '$clothTrim', 2),
    line(lapels(30), INK, 2),
    // Breast pocket with a pen.
    line(rect(-24, 32, 10, 9), INK, 2),
    filled(rect(-21, 28, 2.5, 5), '#3b82f6'),
  ],
  // Double-breasted: the front flap's edge, a button column either side of it.
  'chef-jacket': [
    line('M-13 12Q3 16 3 28L3 49', INK, 2),
    filled([27, 35, 43].map((y) => circle(-6, y, 2) + circle(12, y, 2)).join(''), '$clothTrim'),
  ],
  uniform: [
    inked(COLLAR_POINTS, '$clothTrim', 2),
    line(twoPockets(27, 11), INK, 2),
    filled(rect(-29, 14, 9, 5) + rect(20, 14, 9, 5), '$clothTrim'),
  ],
  'turnout-coat': [
    filled(rect(-30, 35, 60, 7) + rect(-20, 11, 6, 40) + rect(14, 11, 6, 40), '$clothTrim'),
    filled(rect(-30, 37.5, 60, 2) + rect(-18, 11, 2, 40) + rect(16, 11, 2, 40), SILVER),
    line('M0 13L0 49', '#18181b', 2),
  ],
  'pilot-shirt': [inked(COLLAR_POINTS, WHITE, 2), line(twoPockets(28, 10), INK, 2)],
  fur: [],
};

const tie = (top: number): readonly Shape[] => [
  inked(`M-3.5 ${top}L3.5 ${top}L2.5 ${top + 5}L-2.5 ${top + 5}Z`, '$item', 1.5),
  inked(
    `M-2.5 ${top + 5}L2.5 ${top + 5}L5 ${top + 20}L0 ${top + 25}L-5 ${top + 20}Z`,
    '$item',
    1.5,
  ),
];

const epaulette = (x: number): readonly Shape[] => [
  inked(rect(x, 13, 11, 6), '$clothTrim', 1.5),
  filled([2, 5, 8].map((dx) => rect(x + dx, 14.5, 1.5, 3)).join(''), '$item'),
];

type AccessoryShapes = Partial<Record<AccessoryKind, readonly Shape[]>>;

/** Worn on the body, over the outfit (the pug's tie hangs lower, from its collar). */
const BODY_ACCESSORY: AccessoryShapes = {
  tie: tie(17),
  lanyard: [
    line('M-10 13L-17 30', '$item', 2.5),
    inked(rect(-23, 30, 11, 13), WHITE, 1.5),
    filled(rect(-23, 30, 11, 4), '$item'),
  ],
  'pocket-square': [inked('M14 28L15.5 21L18.5 25L21.5 20L24 28Z', '$item', 1.5)],
  stethoscope: [
    line('M-12 12Q-16 30 -9 34M12 12Q16 28 9 32Q-2 38 -9 34', '$item', 2.5),
    inked(circle(14, 38, 4), SILVER, 1.5),
    line('M9 32L13 35', '$item', 2.5),
  ],
  neckerchief: [inked('M-13 11L13 11L0 25Z', '$item', 2), inked(circle(0, 15, 4), '$item', 2)],
  // A shield on the wearer's left chest.
  badge: [inked('M12 23Q17.5 25 23 23L23 29Q23 34 17.5 37Q12 34 12 29Z', '$item', 1.5)],
  epaulettes: [...epaulette(-28), ...epaulette(17)],
  wings: [
    inked('M18 25Q12 22 9 22Q12 26 18 27Q24 26 27 22Q24 22 18 25Z', '$item', 1),
    inked(circle(18, 25.5, 2), '$item', 1),
  ],
  flask: [
    inked('M19 30L19 36L13 47L31 47L25 36L25 30Z', '#e0f2fe', 1.5),
    inked('M16.5 41L27.5 41L31 47L13 47Z', '$item', 1.5),
    filled(circle(21, 44, 1.3) + circle(24.5, 38, 1), WHITE),
  ],
  collar: [inked('M0 23L-15 14L-11 28ZM0 23L15 14L11 28Z', '$item', 2)],
};

const PUG_BODY_ACCESSORY: AccessoryShapes = { ...BODY_ACCESSORY, tie: tie(24) };

/** Over the face, before the headwear. */
const FACE_ACCESSORY: AccessoryShapes = {
  aviators: [
    line('M-3 -7L3 -7M-15 -8L-21 -9M15 -8L21 -9', INK, 1.5),
    // Teardrop lenses.
    inked('M-3 -8L-15 -9Q-16 1 -9 0Q-3 -1 -3 -8ZM3 -8L15 -9Q16 1 9 0Q3 -1 3 -8Z', '$item', 1.5),
    filled(rect(-13, -7.5, 3, 1.5) + rect(5, -7.5, 3, 1.5), WHITE, 0.45),
  ],
  goggles: [
    line('M-21 -7L21 -7', '#374151', 4),
    filled(circle(-8, -6, 7) + circle(8, -6, 7), '$item', 0.85),
    line(circle(-8, -6, 7) + circle(8, -6, 7), INK, 2.5),
    filled(circle(-10, -8.5, 1.8) + circle(6, -8.5, 1.8), WHITE),
  ],
};

/** Over everything else: the hoodie's cords hang over the hood's edge. */
const TOP_ACCESSORY: AccessoryShapes = {
  drawstrings: [
    line('M-6 19L-7 33M6 19L7 33', INK, 4.5),
    line('M-6 19L-7 33M6 19L7 33', '$item', 2),
    inked(circle(-7, 34, 2.2) + circle(7, 34, 2.2), '$item', 1.5),
  ],
};

// --- head ---------------------------------------------------------------------------------

const HEAD_Y = -6;
const HEAD_R = 22;

const FACE: readonly Shape[] = [
  filled(circle(-13, 3, 4) + circle(13, 3, 4), '#f472b6', 0.35),
  filled(circle(-8, -5, 3.4) + circle(8, -5, 3.4), INK),
  filled(circle(-7, -6.2, 1.1) + circle(9, -6.2, 1.1), WHITE),
  line(arc(0, 2, 7, 7, 0.2, 0.8), '#7f1d1d', 2.5),
];

/** Tufts of the scientist's hair around the head: angle (degrees), distance, radius. */
const WILD_TUFTS = [
  [195, 24, 8],
  [215, 25, 9],
  [240, 24, 9],
  [270, 24, 9],
  [300, 24, 9],
  [325, 25, 9],
  [345, 24, 8],
  [165, 22, 7],
  [15, 22, 7],
]
  .map(([deg = 0, dist = 0, r = 0]) => {
    const a = (deg * Math.PI) / 180;
    return circle(Math.cos(a) * dist, HEAD_Y + Math.sin(a) * dist, r);
  })
  .join('');

/** Behind the head and body. */
const HAIR_BEHIND: Partial<Record<HairStyle, readonly Shape[]>> = {
  // Stroked wide, then filled, so the cloud has one outline and no inner seams.
  wild: [line(WILD_TUFTS, INK, LINE * 2), filled(WILD_TUFTS, '$hair')],
};

const crownOfHair = (r: number, from: number, to: number) => arc(0, HEAD_Y, r, r, from, to);

const HAIR: Record<HairStyle, readonly Shape[]> = {
  none: [],
  short: [
    inked(
      `${crownOfHair(HEAD_R + 1, 1.03, 1.97)}Q18 -20 10 -17Q6 -21 0 -17Q-6 -21 -10 -17Q-18 -20 -22.9 -7Z`,
      '$hair',
    ),
  ],
  parted: [
    inked(`${crownOfHair(HEAD_R + 1, 1.03, 1.97)}Q20 -22 8 -22Q-6 -18 -16 -10L-22.9 -5Z`, '$hair'),
  ],
  slick: [
    inked(`${crownOfHair(HEAD_R + 1.5, 1.06, 1.94)}Q16 -23 0 -22Q-16 -23 -22.4 -9Z`, '$hair'),
    line(crownOfHair(HEAD_R - 4, 1.3, 1.5), WHITE, 2, 0.5),
  ],
  // A bald crown; the tufts around it are drawn behind the head.
  wild: [inked(`${crownOfHair(HEAD_R, 1.15, 1.85)}Q0 -16 -18 -19Z`, '$hair')],
};

const HOOD_BACK = circle(0, -4, 31);

const crown = (base: number): readonly Shape[] => [
  inked(
    `M-15 ${base}L-17 ${base - 16}L-8 ${base - 8}L0 ${base - 20}L8 ${base - 8}L17 ${base - 16}L15 ${base}Z`,
    '$hat',
  ),
  inked(circle(0, base - 5, 2.8), '$hatTrim', 1.5),
  filled(circle(-17, base - 17, 2) + circle(0, base - 21, 2) + circle(17, base - 17, 2), '#fef08a'),
];

const peakedCap = (band: string, badge: readonly Shape[]): readonly Shape[] => [
  inked('M-20 -20L-28 -33Q0 -44 28 -33L20 -20Z', '$hat'),
  inked(rect(-20, -25, 40, 6), band),
  // The peak.
  inked('M-21 -19Q0 -22 21 -19Q0 -10 -21 -19Z', INK),
  ...badge,
];

const CHEF_PUFFS = circle(-11, -35, 9) + circle(0, -37, 10) + circle(11, -35, 9);

const HEADWEAR: Record<HeadwearKind, readonly Shape[]> = {
  none: [],
  hardhat: [
    inked(`${arc(0, -14, 23, 23, 1, 2)}Z`, '$hat'),
    inked(rect(-4, -37, 8, 23), '$hatTrim'),
    inked('M-31 -14L31 -14Q33 -9 29 -9L-29 -9Q-33 -9 -31 -14Z', '$hat'),
  ],
  // The hood's front: a ring around the face, cut out with the even-odd rule.
  hood: [
    { ...inked(HOOD_BACK + ellipse(0, -3, 18, 21), '$hat'), evenOdd: true },
    line(arc(0, -3, 20.5, 23.5, 0.95, 2.05), '$hatTrim', 2),
  ],
  'head-mirror': [
    line(arc(0, HEAD_Y + 4, HEAD_R, HEAD_R, 1.08, 1.92), '$hatTrim', 3.5),
    inked(circle(-7, -23, 8), '$hat', 2),
    inked(circle(-7, -23, 3), '$hatTrim', 2),
    filled(circle(-10, -26, 1.5), WHITE),
  ],
  'chef-hat': [
    line(CHEF_PUFFS, INK, LINE * 2),
    filled(CHEF_PUFFS, '$hat'),
    inked(rect(-18, -33, 36, 11), '$hat'),
    line('M-9 -32L-9 -23M0 -32L0 -23M9 -32L9 -23', '$hatTrim', 1.5),
  ],
  'police-cap': peakedCap(INK, [inked('M0 -36L5 -33L4 -28L0 -26L-4 -28L-5 -33Z', '$hatTrim', 1.5)]),
  'pilot-cap': peakedCap('$hatTrim', [
    line('M-14 -16.5Q0 -14 14 -16.5', '$hatTrim', 1.5),
    // Wings badge.
    inked('M0 -31Q-7 -35 -10 -34Q-6 -29 0 -28.5Q6 -29 10 -34Q7 -35 0 -31Z', '$hatTrim', 1),
  ]),
  'fire-helmet': [
    inked(ellipse(0, -12, 33, 6), '$hat'),
    inked(`${arc(0, -13, 22, 22, 1, 2)}Z`, '$hat'),
    inked('M-3 -35Q0 -38 3 -35L3 -22L-3 -22Z', '$hat'),
    // Front shield.
    inked('M-7 -27Q0 -31 7 -27L6 -19Q0 -14 -6 -19Z', '$hatTrim', 1.5),
  ],
  crown: crown(-25),
};

// --- Pudge, the mascot pug ------------------------------------------------------------------

const PUG_NOSE = '#111111';

const PUG_BODY: readonly Shape[] = [
  // Round body, lighter belly, paws.
  inked(ellipse(0, 29, 28, 19), '$skin'),
  filled(ellipse(0, 34, 16, 11.5), '$clothTrim'),
  inked(ellipse(-14, 45, 7, 3.5) + ellipse(14, 45, 7, 3.5), '$skin'),
];

const PUG_HEAD: readonly Shape[] = [
  // Floppy ears behind the head's edge.
  inked('M-15 -24Q-32 -28 -33 -14Q-30 -6 -22 -12ZM15 -24Q32 -28 33 -14Q30 -6 22 -12Z', '$hair'),
  inked(ellipse(0, -5, 27, 23), '$skin'),
  // Forehead wrinkles.
  line('M-7 -20Q0 -23 7 -20M-5 -16Q0 -18 5 -16', '#3b2a20', 2),
  // Dark mask and muzzle.
  filled(ellipse(0, 6, 15, 11), '$hair'),
  filled(ellipse(-11, -7, 8, 7) + ellipse(11, -7, 8, 7), '$hair'),
  // Big shiny eyes.
  filled(circle(-11, -7, 5.5) + circle(11, -7, 5.5), WHITE),
  filled(circle(-10.5, -6.5, 4) + circle(11.5, -6.5, 4), PUG_NOSE),
  filled(circle(-9, -8.5, 1.5) + circle(13, -8.5, 1.5), WHITE),
  // Nose, tongue, mouth.
  filled(ellipse(0, 2, 6, 4), PUG_NOSE),
  filled(ellipse(0, 12.5, 3.5, 4), '#fb7185'),
  line('M0 5L0 9M-7 9Q-3.5 12 0 9Q3.5 12 7 9', PUG_NOSE, 2),
];

// --- legendary glow -------------------------------------------------------------------------

const AURA: Shape = {
  d: circle(0, 0, 50),
  fill: {
    radial: [0, 0, 10, 0, 0, 50],
    stops: [
      [0, 'rgba(253, 224, 71, 0.75)'],
      [0.6, 'rgba(251, 191, 36, 0.35)'],
      [1, 'rgba(251, 191, 36, 0)'],
    ],
  },
};

/** The legendary sparkles around the figure: x, y, largest radius, twinkle phase (radians). */
export const SPARKLES: readonly (readonly [number, number, number, number])[] = [
  [-38, -36, 9, 0],
  [39, -26, 7, 1.9],
  [-41, 20, 6, 3.3],
  [38, 30, 8, 4.6],
  [8, -44, 5, 2.6],
  [-6, 44, 5, 5.5],
];

/** One sparkle of radius `r` centred on the origin: a four-pointed gold star with a glint. */
export function sparkleShapes(r: number): readonly Shape[] {
  return [
    {
      d: `M0 ${-r}Q0 0 ${r} 0Q0 0 0 ${r}Q0 0 ${-r} 0Q0 0 0 ${-r}Z`,
      fill: '#fbbf24',
      stroke: '#b45309',
      width: 1,
    },
    filled(circle(0, 0, r * 0.18), WHITE),
  ];
}

// --- putting a character together -----------------------------------------------------------

/** Every shape of a character, in drawing order, with its own colours filled in. */
export function characterShapes(a: CharacterAppearance, legendary: boolean): Shape[] {
  const colours: Record<string, string> = {
    $skin: a.skin,
    $hair: a.hair.color,
    $hat: a.headwear.color,
    $hatTrim: a.headwear.trim,
    $cloth: a.outfit.color,
    $clothTrim: a.outfit.trim,
  };
  const out: Shape[] = legendary ? [AURA] : [];
  const add = (shapes: readonly Shape[] | undefined, item = '') => {
    for (const s of shapes ?? []) {
      const paint = (c: string | undefined) => (c === '$item' ? item : c && (colours[c] ?? c));
      out.push({
        ...s,
        fill: typeof s.fill === 'string' ? paint(s.fill) : s.fill,
        stroke: paint(s.stroke),
      });
    }
  };
  const accessories = (table: AccessoryShapes) => {
    for (const acc of a.accessories) add(table[acc.kind], acc.color);
  };

  if (a.form === 'pug') {
    add(PUG_BODY);
    accessories(PUG_BODY_ACCESSORY);
    add(PUG_HEAD);
    if (a.headwear.kind === 'crown') add(crown(-23));
    return out;
  }

  const hooded = a.headwear.kind === 'hood';
  if (hooded) add([inked(HOOD_BACK, '$hat')]);
  add(HAIR_BEHIND[a.hair.style]);
  add([filled(TORSO, '$cloth')]);
  add(OUTFIT[a.outfit.kind].map((s) => ({ ...s, clip: TORSO })));
  add([line(TORSO, INK, LINE)]);
  accessories(BODY_ACCESSORY);
  // Neck, ears, head.
  add([filled(rect(-6, 8, 12, 7), '$skin')]);
  if (!hooded)
    add([
      inked(circle(-HEAD_R, HEAD_Y + 2, 5.5), '$skin'),
      inked(circle(HEAD_R, HEAD_Y + 2, 5.5), '$skin'),
    ]);
  add([inked(circle(0, HEAD_Y, HEAD_R), '$skin')]);
  add(HAIR[a.hair.style]);
  add(FACE);
  accessories(FACE_ACCESSORY);
  add(HEADWEAR[a.headwear.kind]);
  accessories(TOP_ACCESSORY);
  return out;
}
