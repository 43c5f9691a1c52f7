// Draws every character of the catalogue with canvas 2D paths, for the game (30 px, every frame)
// and the shop preview (larger, sharp on high-DPI screens). Shapes are laid out on a 100x100
// grid centred on the origin and scaled to the requested size, so one drawing serves both.
// Nothing here allocates per call: colours come from the catalogue, shape tables are built once.

import {
  getCharacter,
  type Accessory,
  type CharacterAppearance,
  type CharacterKey,
} from '#shared/characters.ts';

export interface DrawCharacterOptions {
  /** Top-left corner of the square the character fills. */
  x: number;
  y: number;
  /** Side of that square in canvas units. */
  size: number;
  /** Radians, clockwise, around the square's centre. */
  rotation?: number;
  /** Drives the legendary sparkles' twinkle. */
  timeMs?: number;
}

const GRID = 100;
const INK = '#1f2937';
const LINE = 3;
const EYE = '#1f2937';
const CHEEK = '#f472b6';
const MOUTH = '#7f1d1d';
const TEE = '#475569';
const SILVER = '#cbd5e1';
// Seams on dark cloth, where the ink outline would vanish.
const SUIT_SEAM = '#64748b';
const GOLD = '#fbbf24';
const GOLD_LIGHT = '#fef08a';
const WHITE = '#ffffff';
const PUG_MASK = '#3b2a20';
const PUG_NOSE = '#111111';
const TONGUE = '#fb7185';

const HEAD_X = 0;
const HEAD_Y = -6;
const HEAD_R = 22;
const TAU = Math.PI * 2;

/** Legendary sparkles: x, y, radius, phase (radians). */
const SPARKLES = new Float32Array([
  -38, -36, 9, 0, 39, -26, 7, 1.9, -41, 20, 6, 3.3, 38, 30, 8, 4.6, 8, -44, 5, 2.6, -6, 44, 5, 5.5,
]);

/** Tufts of the scientist's hair around the head: angle (radians), distance, radius. */
const WILD_TUFTS = new Float32Array(
  [
    [195, 24, 8],
    [215, 25, 9],
    [240, 24, 9],
    [270, 24, 9],
    [300, 24, 9],
    [325, 25, 9],
    [345, 24, 8],
    [165, 22, 7],
    [15, 22, 7],
  ].flatMap(([deg, dist, r]) => [((deg ?? 0) * Math.PI) / 180, dist ?? 0, r ?? 0]),
);

// One glow per context: a gradient's coordinates follow the transform in force when it is used,
// so the same object serves every size and rotation.
const auraCache = new WeakMap<CanvasRenderingContext2D, CanvasGradient>();

export function drawCharacter(
  ctx: CanvasRenderingContext2D,
  key: CharacterKey,
  opts: DrawCharacterOptions,
): void {
  const { appearance, legendary } = getCharacter(key);
  const half = opts.size / 2;
  const scale = opts.size / GRID;

  ctx.save();
  ctx.translate(opts.x + half, opts.y + half);
  if (opts.rotation) ctx.rotate(opts.rotation);
  ctx.scale(scale, scale);
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  ctx.strokeStyle = INK;
  ctx.lineWidth = LINE;

  if (legendary) drawAura(ctx);
  if (appearance.form === 'pug') drawPug(ctx, appearance);
  else drawPerson(ctx, appearance);
  if (legendary) drawSparkles(ctx, opts.timeMs ?? 0);

  ctx.restore();
}

/**
 * Sizes the canvas backing store for the screen's pixel density and draws the character centred
 * in it. The canvas keeps its CSS size (from its layout, else from its width/height attributes).
 */
export function drawCharacterPreview(
  canvas: HTMLCanvasElement,
  key: CharacterKey,
  timeMs = 0,
): void {
  const ctx = canvas.getContext('2d');
  if (ctx === null) return;
  const dpr = globalThis.devicePixelRatio > 0 ? globalThis.devicePixelRatio : 1;
  let cssWidth = canvas.clientWidth;
  let cssHeight = canvas.clientHeight;
  if (cssWidth === 0 || cssHeight === 0) {
    // Not laid out yet: pin the attribute size as the CSS size before scaling the backing store.
    cssWidth = canvas.width;
    cssHeight = canvas.height;
    canvas.style.width = `${cssWidth}px`;
    canvas.style.height = `${cssHeight}px`;
  }
  const width = Math.round(cssWidth * dpr);
  const height = Math.round(cssHeight * dpr);
  // Assigning width/height clears the canvas and resets its state, so only on a real change.
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;

  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const size = Math.min(cssWidth, cssHeight);
  drawCharacter(ctx, key, {
    x: (cssWidth - size) / 2,
    y: (cssHeight - size) / 2,
    size,
    timeMs,
  });
}

// --- person -------------------------------------------------------------------------------

function drawPerson(ctx: CanvasRenderingContext2D, a: CharacterAppearance): void {
  const hooded = a.headwear.kind === 'hood';
  if (hooded) {
    ctx.beginPath();
    ctx.arc(0, -4, 31, 0, TAU);
    fillStroke(ctx, a.headwear.color);
  }
  if (a.hair.style === 'wild') drawWildHairBack(ctx, a.hair.color);

  drawTorso(ctx, a);
  for (let i = 0; i < a.accessories.length; i++) drawBodyAccessory(ctx, a.accessories[i]!, a);

  // Neck, ears, head.
  ctx.fillStyle = a.skin;
  ctx.fillRect(-6, 8, 12, 7);
  if (!hooded) {
    ctx.beginPath();
    ctx.arc(-HEAD_R, HEAD_Y + 2, 5.5, 0, TAU);
    fillStroke(ctx, a.skin);
    ctx.beginPath();
    ctx.arc(HEAD_R, HEAD_Y + 2, 5.5, 0, TAU);
    fillStroke(ctx, a.skin);
  }
  ctx.beginPath();
  ctx.arc(HEAD_X, HEAD_Y, HEAD_R, 0, TAU);
  fillStroke(ctx, a.skin);

  drawHair(ctx, a.hair.style, a.hair.color);
  drawFace(ctx);
  for (let i = 0; i < a.accessories.length; i++) drawFaceAccessory(ctx, a.accessories[i]!);
  drawHeadwear(ctx, a);
  for (let i = 0; i < a.accessories.length; i++) {
    const acc = a.accessories[i]!;
    if (acc.kind === 'drawstrings') drawstrings(ctx, acc.color);
  }
}

function drawstrings(ctx: CanvasRenderingContext2D, color: string): void {
  ctx.strokeStyle = INK;
  ctx.lineWidth = 4.5;
  ctx.beginPath();
  ctx.moveTo(-6, 19);
  ctx.lineTo(-7, 33);
  ctx.moveTo(6, 19);
  ctx.lineTo(7, 33);
  ctx.stroke();
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.stroke();
  ctx.strokeStyle = INK;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.arc(-7, 34, 2.2, 0, TAU);
  ctx.moveTo(9.2, 34);
  ctx.arc(7, 34, 2.2, 0, TAU);
  fillStroke(ctx, color);
  ctx.lineWidth = LINE;
}

function torsoPath(ctx: CanvasRenderingContext2D): void {
  ctx.beginPath();
  ctx.moveTo(-29, 46);
  ctx.lineTo(-29, 29);
  ctx.quadraticCurveTo(-29, 12, -12, 12);
  ctx.lineTo(12, 12);
  ctx.quadraticCurveTo(29, 12, 29, 29);
  ctx.lineTo(29, 45);
  ctx.quadraticCurveTo(29, 48, 26, 48);
  ctx.lineTo(-26, 48);
  ctx.quadraticCurveTo(-29, 48, -29, 45);
  ctx.closePath();
}

function drawTorso(ctx: CanvasRenderingContext2D, a: CharacterAppearance): void {
  const { kind, color, trim } = a.outfit;
  torsoPath(ctx);
  ctx.fillStyle = color;
  ctx.fill();

  ctx.save();
  torsoPath(ctx);
  ctx.clip();
  ctx.lineWidth = 2;
  switch (kind) {
    case 'shirt':
      shirtCollar(ctx, trim);
      ctx.beginPath();
      ctx.moveTo(0, 20);
      ctx.lineTo(0, 49);
      ctx.stroke();
      break;
    case 'hi-vis-vest':
      ctx.fillStyle = TEE;
      ctx.fillRect(-9, 10, 18, 40);
      ctx.fillStyle = trim;
      ctx.fillRect(-30, 27, 21, 5);
      ctx.fillRect(9, 27, 21, 5);
      ctx.fillRect(-30, 38, 21, 5);
      ctx.fillRect(9, 38, 21, 5);
      ctx.beginPath();
      ctx.moveTo(-9, 12);
      ctx.lineTo(-9, 49);
      ctx.moveTo(9, 12);
      ctx.lineTo(9, 49);
      ctx.stroke();
      break;
    case 'hoodie':
      ctx.beginPath();
      ctx.moveTo(-14, 49);
      ctx.lineTo(-11, 34);
      ctx.lineTo(11, 34);
      ctx.lineTo(14, 49);
      ctx.closePath();
      fillStroke(ctx, trim);
      break;
    case 'suit':
      ctx.beginPath();
      ctx.moveTo(-11, 11);
      ctx.lineTo(11, 11);
      ctx.lineTo(0, 38);
      ctx.closePath();
      fillStroke(ctx, trim);
      ctx.strokeStyle = SUIT_SEAM;
      lapels(ctx, 38);
      ctx.strokeStyle = INK;
      ctx.fillStyle = SILVER;
      ctx.beginPath();
      ctx.arc(0, 43, 1.8, 0, TAU);
      ctx.fill();
      break;
    case 'open-coat':
      ctx.beginPath();
      ctx.moveTo(-11, 11);
      ctx.lineTo(11, 11);
      ctx.lineTo(4, 30);
      ctx.lineTo(4, 50);
      ctx.lineTo(-4, 50);
      ctx.lineTo(-4, 30);
      ctx.closePath();
      fillStroke(ctx, trim);
      lapels(ctx, 30);
      // Breast pocket with a pen.
      ctx.strokeRect(-24, 32, 10, 9);
      ctx.fillStyle = '#3b82f6';
      ctx.fillRect(-21, 28, 2.5, 5);
      break;
    case 'chef-jacket':
      // Double-breasted: the front flap's edge, a button column either side of it.
      ctx.beginPath();
      ctx.moveTo(-13, 12);
      ctx.quadraticCurveTo(3, 16, 3, 28);
      ctx.lineTo(3, 49);
      ctx.stroke();
      ctx.fillStyle = trim;
      for (let row = 0; row < 3; row++) {
        const y = 27 + row * 8;
        ctx.beginPath();
        ctx.arc(-6, y, 2, 0, TAU);
        ctx.moveTo(14, y);
        ctx.arc(12, y, 2, 0, TAU);
        ctx.fill();
      }
      break;
    case 'uniform':
      shirtCollar(ctx, trim);
      ctx.strokeRect(-23, 27, 11, 8);
      ctx.strokeRect(12, 27, 11, 8);
      ctx.fillStyle = trim;
      ctx.fillRect(-29, 14, 9, 5);
      ctx.fillRect(20, 14, 9, 5);
      break;
    case 'turnout-coat':
      ctx.fillStyle = trim;
      ctx.fillRect(-30, 35, 60, 7);
      ctx.fillRect(-20, 11, 6, 40);
      ctx.fillRect(14, 11, 6, 40);
      ctx.fillStyle = SILVER;
      ctx.fillRect(-30, 37.5, 60, 2);
      ctx.fillRect(-18, 11, 2, 40);
      ctx.fillRect(16, 11, 2, 40);
      ctx.strokeStyle = '#18181b';
      ctx.beginPath();
      ctx.moveTo(0, 13);
      ctx.lineTo(0, 49);
      ctx.stroke();
      break;
    case 'pilot-shirt':
      shirtCollar(ctx, WHITE);
      ctx.strokeRect(-23, 28, 10, 8);
      ctx.strokeRect(13, 28, 10, 8);
      break;
    case 'fur':
      break;
  }
  ctx.restore();

  torsoPath(ctx);
  ctx.stroke();
}

function shirtCollar(ctx: CanvasRenderingContext2D, color: string): void {
  ctx.beginPath();
  ctx.moveTo(0, 18);
  ctx.lineTo(-12, 11);
  ctx.lineTo(-9, 22);
  ctx.closePath();
  ctx.moveTo(0, 18);
  ctx.lineTo(12, 11);
  ctx.lineTo(9, 22);
  ctx.closePath();
  fillStroke(ctx, color);
}

function lapels(ctx: CanvasRenderingContext2D, tipY: number): void {
  ctx.beginPath();
  ctx.moveTo(-11, 11);
  ctx.lineTo(-17, 22);
  ctx.lineTo(-11, 24);
  ctx.lineTo(0, tipY);
  ctx.moveTo(11, 11);
  ctx.lineTo(17, 22);
  ctx.lineTo(11, 24);
  ctx.lineTo(0, tipY);
  ctx.stroke();
}

function drawBodyAccessory(
  ctx: CanvasRenderingContext2D,
  acc: Accessory,
  a: CharacterAppearance,
): void {
  ctx.lineWidth = 2;
  switch (acc.kind) {
    case 'tie':
      tie(ctx, acc.color, a.form === 'pug' ? 24 : 17);
      break;
    case 'lanyard':
      ctx.strokeStyle = acc.color;
      ctx.lineWidth = 2.5;
      ctx.beginPath();
      ctx.moveTo(-10, 13);
      ctx.lineTo(-17, 30);
      ctx.stroke();
      ctx.strokeStyle = INK;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.rect(-23, 30, 11, 13);
      fillStroke(ctx, WHITE);
      ctx.fillStyle = acc.color;
      ctx.fillRect(-23, 30, 11, 4);
      break;
    case 'pocket-square':
      ctx.beginPath();
      ctx.moveTo(14, 28);
      ctx.lineTo(15.5, 21);
      ctx.lineTo(18.5, 25);
      ctx.lineTo(21.5, 20);
      ctx.lineTo(24, 28);
      ctx.closePath();
      ctx.lineWidth = 1.5;
      fillStroke(ctx, acc.color);
      break;
    case 'stethoscope':
      ctx.strokeStyle = acc.color;
      ctx.lineWidth = 2.5;
      ctx.beginPath();
      ctx.moveTo(-12, 12);
      ctx.quadraticCurveTo(-16, 30, -9, 34);
      ctx.moveTo(12, 12);
      ctx.quadraticCurveTo(16, 28, 9, 32);
      ctx.quadraticCurveTo(-2, 38, -9, 34);
      ctx.stroke();
      ctx.strokeStyle = INK;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.arc(14, 38, 4, 0, TAU);
      fillStroke(ctx, SILVER);
      ctx.strokeStyle = acc.color;
      ctx.lineWidth = 2.5;
      ctx.beginPath();
      ctx.moveTo(9, 32);
      ctx.lineTo(13, 35);
      ctx.stroke();
      break;
    case 'neckerchief':
      ctx.beginPath();
      ctx.moveTo(-13, 11);
      ctx.lineTo(13, 11);
      ctx.lineTo(0, 25);
      ctx.closePath();
      fillStroke(ctx, acc.color);
      ctx.beginPath();
      ctx.arc(0, 15, 4, 0, TAU);
      fillStroke(ctx, acc.color);
      break;
    case 'badge':
      // A shield on the wearer's left chest.
      ctx.beginPath();
      ctx.moveTo(12, 23);
      ctx.quadraticCurveTo(17.5, 25, 23, 23);
      ctx.lineTo(23, 29);
      ctx.quadraticCurveTo(23, 34, 17.5, 37);
      ctx.quadraticCurveTo(12, 34, 12, 29);
      ctx.closePath();
      ctx.lineWidth = 1.5;
      fillStroke(ctx, acc.color);
      break;
    case 'epaulettes':
      ctx.lineWidth = 1.5;
      for (let side = -1; side <= 1; side += 2) {
        const x = side < 0 ? -28 : 17;
        ctx.beginPath();
        ctx.rect(x, 13, 11, 6);
        fillStroke(ctx, a.outfit.trim);
        ctx.fillStyle = acc.color;
        ctx.fillRect(x + 2, 14.5, 1.5, 3);
        ctx.fillRect(x + 5, 14.5, 1.5, 3);
        ctx.fillRect(x + 8, 14.5, 1.5, 3);
      }
      break;
    case 'wings':
      ctx.beginPath();
      ctx.moveTo(18, 25);
      ctx.quadraticCurveTo(12, 22, 9, 22);
      ctx.quadraticCurveTo(12, 26, 18, 27);
      ctx.quadraticCurveTo(24, 26, 27, 22);
      ctx.quadraticCurveTo(24, 22, 18, 25);
      ctx.closePath();
      ctx.lineWidth = 1;
      fillStroke(ctx, acc.color);
      ctx.beginPath();
      ctx.arc(18, 25.5, 2, 0, TAU);
      fillStroke(ctx, acc.color);
      break;
    case 'flask':
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(19, 30);
      ctx.lineTo(19, 36);
      ctx.lineTo(13, 47);
      ctx.lineTo(31, 47);
      ctx.lineTo(25, 36);
      ctx.lineTo(25, 30);
      ctx.closePath();
      fillStroke(ctx, '#e0f2fe');
      ctx.beginPath();
      ctx.moveTo(16.5, 41);
      ctx.lineTo(27.5, 41);
      ctx.lineTo(31, 47);
      ctx.lineTo(13, 47);
      ctx.closePath();
      fillStroke(ctx, acc.color);
      ctx.fillStyle = WHITE;
      ctx.beginPath();
      ctx.arc(21, 44, 1.3, 0, TAU);
      ctx.arc(24.5, 38, 1, 0, TAU);
      ctx.fill();
      break;
    case 'collar':
      ctx.beginPath();
      ctx.moveTo(0, 23);
      ctx.lineTo(-15, 14);
      ctx.lineTo(-11, 28);
      ctx.closePath();
      ctx.moveTo(0, 23);
      ctx.lineTo(15, 14);
      ctx.lineTo(11, 28);
      ctx.closePath();
      fillStroke(ctx, acc.color);
      break;
    case 'aviators':
    case 'goggles':
    case 'drawstrings':
      break;
  }
  ctx.strokeStyle = INK;
  ctx.lineWidth = LINE;
}

function tie(ctx: CanvasRenderingContext2D, color: string, top: number): void {
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(-3.5, top);
  ctx.lineTo(3.5, top);
  ctx.lineTo(2.5, top + 5);
  ctx.lineTo(-2.5, top + 5);
  ctx.closePath();
  fillStroke(ctx, color);
  ctx.beginPath();
  ctx.moveTo(-2.5, top + 5);
  ctx.lineTo(2.5, top + 5);
  ctx.lineTo(5, top + 20);
  ctx.lineTo(0, top + 25);
  ctx.lineTo(-5, top + 20);
  ctx.closePath();
  fillStroke(ctx, color);
}

function drawFace(ctx: CanvasRenderingContext2D): void {
  ctx.globalAlpha = 0.35;
  ctx.fillStyle = CHEEK;
  ctx.beginPath();
  ctx.arc(-13, 3, 4, 0, TAU);
  ctx.arc(13, 3, 4, 0, TAU);
  ctx.fill();
  ctx.globalAlpha = 1;

  ctx.fillStyle = EYE;
  ctx.beginPath();
  ctx.arc(-8, -5, 3.4, 0, TAU);
  ctx.moveTo(11.4, -5);
  ctx.arc(8, -5, 3.4, 0, TAU);
  ctx.fill();
  ctx.fillStyle = WHITE;
  ctx.beginPath();
  ctx.arc(-7, -6.2, 1.1, 0, TAU);
  ctx.moveTo(10.1, -6.2);
  ctx.arc(9, -6.2, 1.1, 0, TAU);
  ctx.fill();

  ctx.strokeStyle = MOUTH;
  ctx.lineWidth = 2.5;
  ctx.beginPath();
  ctx.arc(0, 2, 7, 0.2 * Math.PI, 0.8 * Math.PI);
  ctx.stroke();
  ctx.strokeStyle = INK;
  ctx.lineWidth = LINE;
}

function drawFaceAccessory(ctx: CanvasRenderingContext2D, acc: Accessory): void {
  switch (acc.kind) {
    case 'aviators':
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(-3, -7);
      ctx.lineTo(3, -7);
      ctx.moveTo(-15, -8);
      ctx.lineTo(-21, -9);
      ctx.moveTo(15, -8);
      ctx.lineTo(21, -9);
      ctx.stroke();
      ctx.fillStyle = acc.color;
      ctx.beginPath();
      aviatorLens(ctx, -1);
      aviatorLens(ctx, 1);
      ctx.fill();
      ctx.stroke();
      ctx.fillStyle = WHITE;
      ctx.globalAlpha = 0.45;
      ctx.fillRect(-13, -7.5, 3, 1.5);
      ctx.fillRect(5, -7.5, 3, 1.5);
      ctx.globalAlpha = 1;
      break;
    case 'goggles':
      ctx.strokeStyle = '#374151';
      ctx.lineWidth = 4;
      ctx.beginPath();
      ctx.moveTo(-21, -7);
      ctx.lineTo(21, -7);
      ctx.stroke();
      ctx.strokeStyle = INK;
      ctx.lineWidth = 2.5;
      ctx.globalAlpha = 0.85;
      ctx.fillStyle = acc.color;
      ctx.beginPath();
      ctx.arc(-8, -6, 7, 0, TAU);
      ctx.moveTo(15, -6);
      ctx.arc(8, -6, 7, 0, TAU);
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.stroke();
      ctx.fillStyle = WHITE;
      ctx.beginPath();
      ctx.arc(-10, -8.5, 1.8, 0, TAU);
      ctx.moveTo(7.8, -8.5);
      ctx.arc(6, -8.5, 1.8, 0, TAU);
      ctx.fill();
      break;
    default:
      break;
  }
  ctx.strokeStyle = INK;
  ctx.lineWidth = LINE;
}

/** A teardrop lens; `side` -1 is the wearer's right (viewer's left). */
function aviatorLens(ctx: CanvasRenderingContext2D, side: number): void {
  const inner = 3 * side;
  const outer = 15 * side;
  ctx.moveTo(inner, -8);
  ctx.lineTo(outer, -9);
  ctx.quadraticCurveTo(outer + side, 1, 9 * side, 0);
  ctx.quadraticCurveTo(inner, -1, inner, -8);
  ctx.closePath();
}

function drawHair(ctx: CanvasRenderingContext2D, style: string, color: string): void {
  ctx.beginPath();
  switch (style) {
    case 'short':
      ctx.arc(HEAD_X, HEAD_Y, HEAD_R + 1, Math.PI * 1.03, Math.PI * 1.97);
      ctx.quadraticCurveTo(18, -20, 10, -17);
      ctx.quadraticCurveTo(6, -21, 0, -17);
      ctx.quadraticCurveTo(-6, -21, -10, -17);
      ctx.quadraticCurveTo(-18, -20, -22.9, -7);
      break;
    case 'parted':
      ctx.arc(HEAD_X, HEAD_Y, HEAD_R + 1, Math.PI * 1.03, Math.PI * 1.97);
      ctx.quadraticCurveTo(20, -22, 8, -22);
      ctx.quadraticCurveTo(-6, -18, -16, -10);
      ctx.lineTo(-22.9, -5);
      break;
    case 'slick':
      ctx.arc(HEAD_X, HEAD_Y, HEAD_R + 1.5, Math.PI * 1.06, Math.PI * 1.94);
      ctx.quadraticCurveTo(16, -23, 0, -22);
      ctx.quadraticCurveTo(-16, -23, -22.4, -9);
      break;
    case 'wild':
      // Bald crown; the tufts around it were drawn behind the head.
      ctx.arc(HEAD_X, HEAD_Y, HEAD_R, Math.PI * 1.15, Math.PI * 1.85);
      ctx.quadraticCurveTo(0, -16, -18, -19);
      break;
    default:
      return;
  }
  ctx.closePath();
  fillStroke(ctx, color);
  if (style === 'slick') {
    ctx.strokeStyle = WHITE;
    ctx.globalAlpha = 0.5;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(HEAD_X, HEAD_Y, HEAD_R - 4, Math.PI * 1.3, Math.PI * 1.5);
    ctx.stroke();
    ctx.globalAlpha = 1;
    ctx.strokeStyle = INK;
    ctx.lineWidth = LINE;
  }
}

function drawWildHairBack(ctx: CanvasRenderingContext2D, color: string): void {
  // Stroke all tufts wide, then fill them, so the cloud has one outline and no inner seams.
  ctx.beginPath();
  for (let i = 0; i < WILD_TUFTS.length; i += 3) {
    const angle = WILD_TUFTS[i]!;
    const dist = WILD_TUFTS[i + 1]!;
    const r = WILD_TUFTS[i + 2]!;
    const cx = HEAD_X + Math.cos(angle) * dist;
    const cy = HEAD_Y + Math.sin(angle) * dist;
    ctx.moveTo(cx + r, cy);
    ctx.arc(cx, cy, r, 0, TAU);
  }
  ctx.lineWidth = LINE * 2;
  ctx.stroke();
  ctx.fillStyle = color;
  ctx.fill();
  ctx.lineWidth = LINE;
}

function drawHeadwear(ctx: CanvasRenderingContext2D, a: CharacterAppearance): void {
  const { kind, color, trim } = a.headwear;
  switch (kind) {
    case 'none':
      return;
    case 'hardhat':
      ctx.beginPath();
      ctx.arc(0, -14, 23, Math.PI, TAU);
      ctx.closePath();
      fillStroke(ctx, color);
      ctx.beginPath();
      ctx.rect(-4, -37, 8, 23);
      fillStroke(ctx, trim);
      ctx.beginPath();
      ctx.moveTo(-31, -14);
      ctx.lineTo(31, -14);
      ctx.quadraticCurveTo(33, -9, 29, -9);
      ctx.lineTo(-29, -9);
      ctx.quadraticCurveTo(-33, -9, -31, -14);
      ctx.closePath();
      fillStroke(ctx, color);
      return;
    case 'hood':
      // The hood's front: a ring around the face, cut out with the even-odd rule.
      ctx.beginPath();
      ctx.arc(0, -4, 31, 0, TAU);
      ctx.moveTo(18, -3);
      ctx.ellipse(0, -3, 18, 21, 0, 0, TAU);
      ctx.fillStyle = color;
      ctx.fill('evenodd');
      ctx.stroke();
      ctx.strokeStyle = trim;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.ellipse(0, -3, 20.5, 23.5, 0, Math.PI * 0.95, Math.PI * 2.05);
      ctx.stroke();
      ctx.strokeStyle = INK;
      ctx.lineWidth = LINE;
      return;
    case 'head-mirror':
      ctx.strokeStyle = trim;
      ctx.lineWidth = 3.5;
      ctx.beginPath();
      ctx.arc(HEAD_X, HEAD_Y + 4, HEAD_R, Math.PI * 1.08, Math.PI * 1.92);
      ctx.stroke();
      ctx.strokeStyle = INK;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(-7, -23, 8, 0, TAU);
      fillStroke(ctx, color);
      ctx.beginPath();
      ctx.arc(-7, -23, 3, 0, TAU);
      fillStroke(ctx, trim);
      ctx.fillStyle = WHITE;
      ctx.beginPath();
      ctx.arc(-10, -26, 1.5, 0, TAU);
      ctx.fill();
      ctx.lineWidth = LINE;
      return;
    case 'chef-hat':
      ctx.beginPath();
      ctx.arc(-11, -35, 9, 0, TAU);
      ctx.moveTo(10, -37);
      ctx.arc(0, -37, 10, 0, TAU);
      ctx.moveTo(20, -35);
      ctx.arc(11, -35, 9, 0, TAU);
      ctx.lineWidth = LINE * 2;
      ctx.stroke();
      ctx.fillStyle = color;
      ctx.fill();
      ctx.lineWidth = LINE;
      ctx.beginPath();
      ctx.rect(-18, -33, 36, 11);
      fillStroke(ctx, color);
      ctx.strokeStyle = trim;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(-9, -32);
      ctx.lineTo(-9, -23);
      ctx.moveTo(0, -32);
      ctx.lineTo(0, -23);
      ctx.moveTo(9, -32);
      ctx.lineTo(9, -23);
      ctx.stroke();
      ctx.strokeStyle = INK;
      ctx.lineWidth = LINE;
      return;
    case 'police-cap':
    case 'pilot-cap':
      peakedCap(ctx, color, trim, kind === 'pilot-cap');
      return;
    case 'fire-helmet':
      ctx.beginPath();
      ctx.ellipse(0, -12, 33, 6, 0, 0, TAU);
      fillStroke(ctx, color);
      ctx.beginPath();
      ctx.arc(0, -13, 22, Math.PI, TAU);
      ctx.closePath();
      fillStroke(ctx, color);
      ctx.beginPath();
      ctx.moveTo(-3, -35);
      ctx.quadraticCurveTo(0, -38, 3, -35);
      ctx.lineTo(3, -22);
      ctx.lineTo(-3, -22);
      ctx.closePath();
      fillStroke(ctx, color);
      // Front shield.
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(-7, -27);
      ctx.quadraticCurveTo(0, -31, 7, -27);
      ctx.lineTo(6, -19);
      ctx.quadraticCurveTo(0, -14, -6, -19);
      ctx.closePath();
      fillStroke(ctx, trim);
      ctx.lineWidth = LINE;
      return;
    case 'crown':
      crown(ctx, color, trim, -25);
      return;
  }
}

function peakedCap(
  ctx: CanvasRenderingContext2D,
  color: string,
  trim: string,
  pilot: boolean,
): void {
  ctx.beginPath();
  ctx.moveTo(-20, -20);
  ctx.lineTo(-28, -33);
  ctx.quadraticCurveTo(0, -44, 28, -33);
  ctx.lineTo(20, -20);
  ctx.closePath();
  fillStroke(ctx, color);
  // Band.
  ctx.beginPath();
  ctx.rect(-20, -25, 40, 6);
  fillStroke(ctx, pilot ? trim : INK);
  // Peak.
  ctx.beginPath();
  ctx.moveTo(-21, -19);
  ctx.quadraticCurveTo(0, -22, 21, -19);
  ctx.quadraticCurveTo(0, -10, -21, -19);
  ctx.closePath();
  fillStroke(ctx, INK);
  if (pilot) {
    ctx.strokeStyle = trim;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(-14, -16.5);
    ctx.quadraticCurveTo(0, -14, 14, -16.5);
    ctx.stroke();
    ctx.strokeStyle = INK;
    // Wings badge.
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(0, -31);
    ctx.quadraticCurveTo(-7, -35, -10, -34);
    ctx.quadraticCurveTo(-6, -29, 0, -28.5);
    ctx.quadraticCurveTo(6, -29, 10, -34);
    ctx.quadraticCurveTo(7, -35, 0, -31);
    ctx.closePath();
    fillStroke(ctx, trim);
  } else {
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(0, -36);
    ctx.lineTo(5, -33);
    ctx.lineTo(4, -28);
    ctx.lineTo(0, -26);
    ctx.lineTo(-4, -28);
    ctx.lineTo(-5, -33);
    ctx.closePath();
    fillStroke(ctx, trim);
  }
  ctx.lineWidth = LINE;
}

function crown(ctx: CanvasRenderingContext2D, color: string, jewel: string, baseY: number): void {
  ctx.beginPath();
  ctx.moveTo(-15, baseY);
  ctx.lineTo(-17, baseY - 16);
  ctx.lineTo(-8, baseY - 8);
  ctx.lineTo(0, baseY - 20);
  ctx.lineTo(8, baseY - 8);
  ctx.lineTo(17, baseY - 16);
  ctx.lineTo(15, baseY);
  ctx.closePath();
  fillStroke(ctx, color);
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.arc(0, baseY - 5, 2.8, 0, TAU);
  fillStroke(ctx, jewel);
  ctx.fillStyle = GOLD_LIGHT;
  ctx.beginPath();
  ctx.arc(-17, baseY - 17, 2, 0, TAU);
  ctx.moveTo(2, baseY - 21);
  ctx.arc(0, baseY - 21, 2, 0, TAU);
  ctx.moveTo(19, baseY - 17);
  ctx.arc(17, baseY - 17, 2, 0, TAU);
  ctx.fill();
  ctx.lineWidth = LINE;
}

// --- Pudge, the mascot pug -----------------------------------------------------------------

function drawPug(ctx: CanvasRenderingContext2D, a: CharacterAppearance): void {
  const fur = a.skin;
  const mask = a.hair.color;

  // Round body, lighter belly, paws.
  ctx.beginPath();
  ctx.ellipse(0, 29, 28, 19, 0, 0, TAU);
  fillStroke(ctx, fur);
  ctx.fillStyle = a.outfit.trim;
  ctx.beginPath();
  ctx.ellipse(0, 34, 16, 11.5, 0, 0, TAU);
  ctx.fill();
  ctx.beginPath();
  ctx.ellipse(-14, 45, 7, 3.5, 0, 0, TAU);
  ctx.moveTo(21, 45);
  ctx.ellipse(14, 45, 7, 3.5, 0, 0, TAU);
  fillStroke(ctx, fur);

  for (let i = 0; i < a.accessories.length; i++) drawBodyAccessory(ctx, a.accessories[i]!, a);

  // Floppy ears behind the head's edge.
  ctx.beginPath();
  ctx.moveTo(-15, -24);
  ctx.quadraticCurveTo(-32, -28, -33, -14);
  ctx.quadraticCurveTo(-30, -6, -22, -12);
  ctx.closePath();
  ctx.moveTo(15, -24);
  ctx.quadraticCurveTo(32, -28, 33, -14);
  ctx.quadraticCurveTo(30, -6, 22, -12);
  ctx.closePath();
  fillStroke(ctx, mask);

  // Wide head.
  ctx.beginPath();
  ctx.ellipse(0, -5, 27, 23, 0, 0, TAU);
  fillStroke(ctx, fur);

  // Forehead wrinkles.
  ctx.strokeStyle = PUG_MASK;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(-7, -20);
  ctx.quadraticCurveTo(0, -23, 7, -20);
  ctx.moveTo(-5, -16);
  ctx.quadraticCurveTo(0, -18, 5, -16);
  ctx.stroke();

  // Dark mask and muzzle.
  ctx.fillStyle = mask;
  ctx.beginPath();
  ctx.ellipse(0, 6, 15, 11, 0, 0, TAU);
  ctx.fill();
  ctx.beginPath();
  ctx.ellipse(-11, -7, 8, 7, 0, 0, TAU);
  ctx.moveTo(19, -7);
  ctx.ellipse(11, -7, 8, 7, 0, 0, TAU);
  ctx.fill();

  // Big shiny eyes.
  ctx.fillStyle = WHITE;
  ctx.beginPath();
  ctx.arc(-11, -7, 5.5, 0, TAU);
  ctx.moveTo(16.5, -7);
  ctx.arc(11, -7, 5.5, 0, TAU);
  ctx.fill();
  ctx.fillStyle = PUG_NOSE;
  ctx.beginPath();
  ctx.arc(-10.5, -6.5, 4, 0, TAU);
  ctx.moveTo(15.5, -6.5);
  ctx.arc(11.5, -6.5, 4, 0, TAU);
  ctx.fill();
  ctx.fillStyle = WHITE;
  ctx.beginPath();
  ctx.arc(-9, -8.5, 1.5, 0, TAU);
  ctx.moveTo(14.5, -8.5);
  ctx.arc(13, -8.5, 1.5, 0, TAU);
  ctx.fill();

  // Nose, mouth, tongue.
  ctx.fillStyle = PUG_NOSE;
  ctx.beginPath();
  ctx.ellipse(0, 2, 6, 4, 0, 0, TAU);
  ctx.fill();
  ctx.fillStyle = TONGUE;
  ctx.beginPath();
  ctx.ellipse(0, 12.5, 3.5, 4, 0, 0, TAU);
  ctx.fill();
  ctx.strokeStyle = PUG_NOSE;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(0, 5);
  ctx.lineTo(0, 9);
  ctx.moveTo(-7, 9);
  ctx.quadraticCurveTo(-3.5, 12, 0, 9);
  ctx.quadraticCurveTo(3.5, 12, 7, 9);
  ctx.stroke();
  ctx.strokeStyle = INK;
  ctx.lineWidth = LINE;

  if (a.headwear.kind === 'crown') crown(ctx, a.headwear.color, a.headwear.trim, -23);
}

// --- legendary glow ------------------------------------------------------------------------

function drawAura(ctx: CanvasRenderingContext2D): void {
  let glow = auraCache.get(ctx);
  if (glow === undefined) {
    glow = ctx.createRadialGradient(0, 0, 10, 0, 0, 50);
    glow.addColorStop(0, 'rgba(253, 224, 71, 0.75)');
    glow.addColorStop(0.6, 'rgba(251, 191, 36, 0.35)');
    glow.addColorStop(1, 'rgba(251, 191, 36, 0)');
    auraCache.set(ctx, glow);
  }
  ctx.fillStyle = glow;
  ctx.beginPath();
  ctx.arc(0, 0, 50, 0, TAU);
  ctx.fill();
}

function drawSparkles(ctx: CanvasRenderingContext2D, timeMs: number): void {
  ctx.lineWidth = 1;
  ctx.strokeStyle = '#b45309';
  for (let i = 0; i < SPARKLES.length; i += 4) {
    const phase = SPARKLES[i + 3]!;
    // 0..1, a slow pulse per sparkle, offset so they never all peak together.
    const pulse = 0.5 + 0.5 * Math.sin(timeMs * 0.005 + phase);
    const r = SPARKLES[i + 2]! * (0.4 + 0.6 * pulse);
    const cx = SPARKLES[i]!;
    const cy = SPARKLES[i + 1]!;
    ctx.globalAlpha = 0.35 + 0.65 * pulse;
    ctx.beginPath();
    ctx.moveTo(cx, cy - r);
    ctx.quadraticCurveTo(cx, cy, cx + r, cy);
    ctx.quadraticCurveTo(cx, cy, cx, cy + r);
    ctx.quadraticCurveTo(cx, cy, cx - r, cy);
    ctx.quadraticCurveTo(cx, cy, cx, cy - r);
    ctx.closePath();
    fillStroke(ctx, GOLD);
    ctx.fillStyle = WHITE;
    ctx.beginPath();
    ctx.arc(cx, cy, r * 0.18, 0, TAU);
    ctx.fill();
  }
  ctx.globalAlpha = 1;
  ctx.strokeStyle = INK;
  ctx.lineWidth = LINE;
}

function fillStroke(ctx: CanvasRenderingContext2D, fill: string): void {
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.stroke();
}
