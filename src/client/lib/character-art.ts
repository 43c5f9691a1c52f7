// Draws the catalogue's characters for the game (30 px, every frame) and the shop preview
// (larger, sharp on high-DPI screens). Each skin is painted once per pixel size from its shapes
// (character-shapes.ts) into an offscreen bitmap; a draw is then one image copy, plus the
// legendary sparkles, which twinkle by copying one cached star bitmap at varying size and alpha.

import { getCharacter, type CharacterKey } from '#shared/characters.ts';
import { characterShapes, GRID, SPARKLES, sparkleShapes } from './character-shapes.ts';
import { paintShapes, type Shape } from './shape-painter.ts';

export interface DrawCharacterOptions {
  /** Top-left corner of the square the character fills. */
  x: number;
  y: number;
  /** Side of that square in canvas units. */
  size: number;
  /** Device pixels per canvas unit under the context's transform, so the bitmap is sharp. */
  pixelRatio?: number;
  /** Radians, clockwise, around the square's centre. */
  rotation?: number;
  /** Drives the legendary sparkles' twinkle. */
  timeMs?: number;
}

/** The largest sparkle's radius plus its outline, in grid units: the star bitmap's half-side. */
const STAR_EXTENT = Math.max(...SPARKLES.map(([, , r]) => r)) + 1;
const STAR_SHAPES = sparkleShapes(STAR_EXTENT - 1);

// Bitmaps by skin and pixel size. A page uses a handful (game and shop sizes, a resize or two);
// the bound only keeps a long session of window resizing from holding every size it passed.
const MAX_BITMAPS = 64;
const bitmaps = new Map<string, HTMLCanvasElement>();

/** A `px` square bitmap showing the grid from -half to half on each axis. */
function bitmap(
  id: string,
  px: number,
  half: number,
  shapes: () => readonly Shape[],
): HTMLCanvasElement {
  let canvas = bitmaps.get(id);
  if (canvas === undefined) {
    if (bitmaps.size >= MAX_BITMAPS) bitmaps.clear();
    canvas = document.createElement('canvas');
    canvas.width = px;
    canvas.height = px;
    const ctx = canvas.getContext('2d')!;
    const scale = px / (2 * half);
    ctx.setTransform(scale, 0, 0, scale, px / 2, px / 2);
    paintShapes(ctx, shapes());
    bitmaps.set(id, canvas);
  }
  return canvas;
}

/** The skin painted into a `px` x `px` bitmap, painted on first use and reused after. */
export function characterBitmap(key: CharacterKey, px: number): HTMLCanvasElement {
  return bitmap(`${key}@${px}`, px, GRID / 2, () => {
    const { appearance, legendary } = getCharacter(key);
    return characterShapes(appearance, legendary);
  });
}

export function drawCharacter(
  ctx: CanvasRenderingContext2D,
  key: CharacterKey,
  opts: DrawCharacterOptions,
): void {
  const { size } = opts;
  const px = Math.max(1, Math.round(size * (opts.pixelRatio ?? 1)));
  const half = size / 2;
  ctx.save();
  ctx.translate(opts.x + half, opts.y + half);
  if (opts.rotation) ctx.rotate(opts.rotation);
  ctx.drawImage(characterBitmap(key, px), -half, -half, size, size);
  if (getCharacter(key).legendary) drawSparkles(ctx, size, px, opts.timeMs ?? 0);
  ctx.restore();
}

/** Six copies of one star bitmap, each pulsing in size and alpha on its own phase. */
function drawSparkles(ctx: CanvasRenderingContext2D, size: number, px: number, timeMs: number) {
  const unit = size / GRID;
  const starPx = Math.max(1, Math.ceil((2 * STAR_EXTENT * px) / GRID));
  const star = bitmap(`sparkle@${starPx}`, starPx, STAR_EXTENT, () => STAR_SHAPES);
  for (const [cx, cy, r, phase] of SPARKLES) {
    // 0..1, a slow pulse per sparkle, offset so they never all peak together.
    const pulse = 0.5 + 0.5 * Math.sin(timeMs * 0.005 + phase);
    // The bitmap's star has the largest radius; scale its whole square to this one's.
    const extent = (STAR_EXTENT * r * (0.4 + 0.6 * pulse) * unit) / (STAR_EXTENT - 1);
    ctx.globalAlpha = 0.35 + 0.65 * pulse;
    ctx.drawImage(star, cx * unit - extent, cy * unit - extent, 2 * extent, 2 * extent);
  }
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
    pixelRatio: dpr,
    timeMs,
  });
}
