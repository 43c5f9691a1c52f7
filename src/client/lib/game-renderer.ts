import type { CharacterKey } from '#shared/characters.ts';
import { CANVAS_HEIGHT, CANVAS_WIDTH } from '#shared/game/constants.ts';
import type { ObstacleType, ReadonlyGameState } from '#shared/game/engine.ts';
import { drawCharacter } from '#client/lib/character-art.ts';

// Draws a game state in the engine's 700x400 units onto a canvas of any size: the backing store
// follows the element's CSS size times devicePixelRatio, and one transform maps the logical
// units onto it. Everything that does not move is painted once into a background layer; a
// frame is then one image copy, a few rectangles per obstacle, the coins and the worker.

const DEG = Math.PI / 180;
const FLOOR_HEIGHT = 6;

export interface RenderView {
  state: ReadonlyGameState;
  /** Fraction of a step since the state's last step, for smooth motion between steps. */
  alpha: number;
  character: CharacterKey;
  timeMs: number;
}

export class GameRenderer {
  private readonly ctx: CanvasRenderingContext2D;
  private background: HTMLCanvasElement | null = null;
  private scale = 1;

  constructor(private readonly canvas: HTMLCanvasElement) {
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('Canvas 2D is not available');
    this.ctx = ctx;
    this.resize();
  }

  /** Matches the backing store to the CSS size; returns true when it changed. */
  resize(): boolean {
    const dpr = globalThis.devicePixelRatio > 0 ? globalThis.devicePixelRatio : 1;
    // The layout's exact width (clientWidth rounds to whole pixels); the height follows at 7:4.
    const cssWidth = this.canvas.getBoundingClientRect().width || CANVAS_WIDTH;
    const width = Math.max(1, Math.round(cssWidth * dpr));
    const height = Math.max(1, Math.round((width * CANVAS_HEIGHT) / CANVAS_WIDTH));
    if (this.canvas.width === width && this.canvas.height === height && this.background)
      return false;
    this.canvas.width = width;
    this.canvas.height = height;
    this.scale = width / CANVAS_WIDTH;
    this.background = paintBackground(width, height, this.scale);
    return true;
  }

  draw(view: RenderView): void {
    const ctx = this.ctx;
    const { state, alpha } = view;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (this.background) ctx.drawImage(this.background, 0, 0);
    ctx.setTransform(this.scale, 0, 0, this.scale, 0, 0);

    const obstacles = state.obstacles;
    for (let i = 0; i < obstacles.length; i++) {
      const o = obstacles[i]!;
      if (!o.active) continue;
      const x = o.prevX + (o.x - o.prevX) * alpha;
      drawObstacle(ctx, o.type, x, o.width, o.topHeight, o.bottomHeight);
    }

    const coins = state.coinPool;
    for (let i = 0; i < coins.length; i++) {
      const c = coins[i]!;
      if (!c.active || c.collected) continue;
      drawCoin(ctx, c.prevX + (c.x - c.prevX) * alpha, c.y, c.size, c.rotation);
    }

    const w = state.worker;
    drawCharacter(ctx, view.character, {
      x: w.x,
      y: w.prevY + (w.y - w.prevY) * alpha,
      size: w.size,
      pixelRatio: this.scale,
      rotation: w.rotation * DEG,
      timeMs: view.timeMs,
    });
  }
}

function paintBackground(width: number, height: number, scale: number): HTMLCanvasElement {
  const layer = document.createElement('canvas');
  layer.width = width;
  layer.height = height;
  const ctx = layer.getContext('2d')!;
  ctx.scale(scale, scale);

  const wall = ctx.createLinearGradient(0, 0, 0, CANVAS_HEIGHT);
  wall.addColorStop(0, '#1e293b');
  wall.addColorStop(1, '#0f172a');
  ctx.fillStyle = wall;
  ctx.fillRect(0, 0, CANVAS_WIDTH, CANVAS_HEIGHT);

  // A distant office: lit windows of the building across the street.
  ctx.fillStyle = '#172033';
  for (let x = 20; x < CANVAS_WIDTH; x += 140) ctx.fillRect(x, 90, 100, CANVAS_HEIGHT - 90);
  for (let x = 20; x < CANVAS_WIDTH; x += 140) {
    for (let y = 105; y < CANVAS_HEIGHT - 20; y += 28) {
      for (let col = 0; col < 4; col++) {
        const lit = (x * 7 + y * 13 + col * 31) % 5 === 0;
        ctx.fillStyle = lit ? 'rgba(251, 191, 36, 0.22)' : 'rgba(148, 163, 184, 0.07)';
        ctx.fillRect(x + 10 + col * 22, y, 14, 16);
      }
    }
  }

  // Ceiling lights and floor: the two edges that end a run.
  ctx.fillStyle = '#334155';
  ctx.fillRect(0, 0, CANVAS_WIDTH, 4);
  ctx.fillStyle = 'rgba(254, 243, 199, 0.55)';
  for (let x = 40; x < CANVAS_WIDTH; x += 160) ctx.fillRect(x, 4, 60, 3);
  ctx.fillStyle = '#78350f';
  ctx.fillRect(0, CANVAS_HEIGHT - FLOOR_HEIGHT, CANVAS_WIDTH, FLOOR_HEIGHT);
  ctx.fillStyle = '#b45309';
  ctx.fillRect(0, CANVAS_HEIGHT - FLOOR_HEIGHT, CANVAS_WIDTH, 2);
  return layer;
}

/**
 * Paints the details of one obstacle kind over its two slabs: `top` is the upper slab's height,
 * `bottom` the lower one's, which starts at `bottomY`.
 */
type ObstacleDetails = (
  ctx: CanvasRenderingContext2D,
  x: number,
  w: number,
  top: number,
  bottom: number,
  bottomY: number,
) => void;

/** Every obstacle is two slabs around the gap in its base colour, then its own details. */
const obstacleLooks: Readonly<Record<ObstacleType, { base: string; details: ObstacleDetails }>> = {
  // Fabric-covered partition walls with a metal rail at the gap.
  cubicle: {
    base: '#64748b',
    details(ctx, x, w, top, _bottom, bottomY) {
      ctx.fillStyle = '#56657a';
      for (let y = 12; y < top - 10; y += 18) ctx.fillRect(x + 6, y, w - 12, 2);
      for (let y = bottomY + 18; y < CANVAS_HEIGHT; y += 18) ctx.fillRect(x + 6, y, w - 12, 2);
      ctx.fillStyle = '#cbd5e1';
      ctx.fillRect(x - 3, top - 8, w + 6, 8);
      ctx.fillRect(x - 3, bottomY, w + 6, 8);
    },
  },
  // Glass panes in a white frame with a cross of mullions and a glint.
  window: {
    base: '#e2e8f0',
    details(ctx, x, w, top, bottom, bottomY) {
      ctx.fillStyle = '#38bdf8';
      ctx.fillRect(x + 5, 0, w - 10, top - 5);
      ctx.fillRect(x + 5, bottomY + 5, w - 10, bottom - 5);
      ctx.fillStyle = '#e2e8f0';
      ctx.fillRect(x + w / 2 - 2, 0, 4, top);
      ctx.fillRect(x + w / 2 - 2, bottomY, 4, bottom);
      for (let y = top - 45; y > 0; y -= 50) ctx.fillRect(x, y, w, 4);
      for (let y = bottomY + 45; y < CANVAS_HEIGHT; y += 50) ctx.fillRect(x, y, w, 4);
      ctx.fillStyle = 'rgba(255, 255, 255, 0.35)';
      ctx.fillRect(x + 10, 6, 6, Math.max(0, top - 20));
      ctx.fillRect(x + 10, bottomY + 12, 6, Math.max(0, bottom - 18));
    },
  },
  // Wooden doors with raised panels and a brass handle beside the gap.
  door: {
    base: '#7c2d12',
    details(ctx, x, w, top, bottom, bottomY) {
      ctx.fillStyle = '#9a3412';
      if (top > 30) ctx.fillRect(x + 8, 8, w - 16, top - 24);
      if (bottom > 30) ctx.fillRect(x + 8, bottomY + 16, w - 16, bottom - 24);
      ctx.fillStyle = '#fbbf24';
      ctx.fillRect(x + w - 16, top - 14, 8, 5);
      ctx.fillRect(x + w - 16, bottomY + 9, 8, 5);
    },
  },
};

function drawObstacle(
  ctx: CanvasRenderingContext2D,
  type: ObstacleType,
  x: number,
  w: number,
  top: number,
  bottom: number,
) {
  const look = obstacleLooks[type];
  const bottomY = CANVAS_HEIGHT - bottom;
  ctx.fillStyle = look.base;
  ctx.fillRect(x, 0, w, top);
  ctx.fillRect(x, bottomY, w, bottom);
  look.details(ctx, x, w, top, bottom, bottomY);
}

/** A gold coin seen spinning about its vertical axis. */
function drawCoin(
  ctx: CanvasRenderingContext2D,
  x: number,
  y: number,
  size: number,
  rotationDeg: number,
) {
  const r = size / 2;
  const squash = Math.max(0.15, Math.abs(Math.cos(rotationDeg * DEG)));
  ctx.fillStyle = '#b45309';
  ctx.beginPath();
  ctx.ellipse(x + r, y + r, r * squash, r, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#fbbf24';
  ctx.beginPath();
  ctx.ellipse(x + r, y + r, (r - 2.5) * squash, r - 2.5, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#fef08a';
  ctx.fillRect(x + r - 1.5 * squash, y + 5, 3 * squash, size - 10);
}
