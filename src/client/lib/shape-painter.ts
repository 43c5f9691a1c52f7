// One small painter for flat vector art described as data: each shape is an SVG path string
// with a fill and/or an outline, painted in order. The character skins are written this way
// (character-shapes.ts) and painted once per size into a cached bitmap (character-art.ts).

/** A flat colour, or a radial gradient between two circles (x, y, r each). */
type Paint =
  | string
  | {
      readonly radial: readonly [number, number, number, number, number, number];
      readonly stops: readonly (readonly [number, string])[];
    };

export interface Shape {
  /** SVG path data; build circles, arcs and rectangles with the helpers below. */
  readonly d: string;
  readonly fill?: Paint;
  /** The outline's colour; without it the shape is only filled. */
  readonly stroke?: string;
  /** Outline width in drawing units. */
  readonly width?: number;
  readonly alpha?: number;
  /** Fill with the even-odd rule, so an inner sub-path cuts a hole (a hood around a face). */
  readonly evenOdd?: boolean;
  /** Paint only inside this path (details that must not spill over a garment's edge). */
  readonly clip?: string;
}

export function paintShapes(ctx: CanvasRenderingContext2D, shapes: readonly Shape[]): void {
  ctx.save();
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  for (const shape of shapes) {
    if (shape.clip !== undefined) {
      ctx.save();
      ctx.clip(new Path2D(shape.clip));
    }
    const path = new Path2D(shape.d);
    ctx.globalAlpha = shape.alpha ?? 1;
    if (shape.fill !== undefined) {
      ctx.fillStyle = toStyle(ctx, shape.fill);
      ctx.fill(path, shape.evenOdd ? 'evenodd' : 'nonzero');
    }
    if (shape.stroke !== undefined) {
      ctx.strokeStyle = shape.stroke;
      ctx.lineWidth = shape.width ?? 1;
      ctx.stroke(path);
    }
    if (shape.clip !== undefined) ctx.restore();
  }
  ctx.restore();
}

function toStyle(ctx: CanvasRenderingContext2D, paint: Paint): string | CanvasGradient {
  if (typeof paint === 'string') return paint;
  const gradient = ctx.createRadialGradient(...paint.radial);
  for (const [offset, color] of paint.stops) gradient.addColorStop(offset, color);
  return gradient;
}

// --- path helpers: angles in half-turns (1 = 180 degrees), clockwise from 3 o'clock ----------

const point = (cx: number, cy: number, rx: number, ry: number, halfTurns: number) =>
  `${round(cx + rx * Math.cos(halfTurns * Math.PI))} ${round(cy + ry * Math.sin(halfTurns * Math.PI))}`;

const round = (n: number) => Math.round(n * 1000) / 1000;

/** A whole ellipse as its own closed sub-path. */
export function ellipse(cx: number, cy: number, rx: number, ry = rx): string {
  return (
    `M${cx + rx} ${cy}A${rx} ${ry} 0 1 1 ${cx - rx} ${cy}` + `A${rx} ${ry} 0 1 1 ${cx + rx} ${cy}Z`
  );
}

export const circle = (cx: number, cy: number, r: number) => ellipse(cx, cy, r);

/**
 * Part of an ellipse, clockwise from `from` to `to`. It starts a new sub-path, or with
 * `join` continues the current one with a line to its start (as canvas `arc` does).
 */
export function arc(
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  from: number,
  to: number,
  join = false,
): string {
  const large = to - from > 1 ? 1 : 0;
  return (
    `${join ? 'L' : 'M'}${point(cx, cy, rx, ry, from)}` +
    `A${rx} ${ry} 0 ${large} 1 ${point(cx, cy, rx, ry, to)}`
  );
}

export const rect = (x: number, y: number, w: number, h: number) => `M${x} ${y}h${w}v${h}h${-w}Z`;
