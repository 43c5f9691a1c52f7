// The printed result of one setup: each route alone and the mix, the trees side by side, then
// the goals (issue 20) as met or not met for each tree.
import type { Summary } from './measure.ts';

export const TARGET_READ_P99_MS = 50;
/** GET /api/auth/me as a signed-in member over the bare route's GET, on SQLite. */
export const TARGET_MEMBER_READ_RATIO = 0.45;

export interface AloneRow {
  name: string;
  read: boolean;
  /** The bare route in the slices beside this one's. */
  bare: Summary;
  /** One per tree; undefined where the tree could not run it (e.g. no runs to score). */
  trees: (Summary | undefined)[];
}

export interface MixRow {
  name: string;
  read: boolean;
  connections: number;
  trees: Summary[];
}

export interface TreeChecks {
  votesStored: number;
  countMismatches: number;
  scoresAccepted: number;
  scoresRefused: number;
  scoresStored: number;
  reportsAccepted: number;
  reportsRefused: number;
  /** Every request of the game (the score pool's, the players', the scores alone). */
  gameRequests: Summary;
  /** The game's refusals by route and code, e.g. `progress 422 RUN_BEHIND x1`. */
  refusals: string;
}

const NAME = 30;
const rate = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const cells = (s: Summary | undefined, bare: Summary | undefined) =>
  s
    ? `${rate(s.rps).padStart(8)}${ms(s.p50).padStart(8)}${ms(s.p99).padStart(8)}${String(s.errors).padStart(7)}` +
      (bare ? `${Math.round((s.rps / bare.rps) * 100)}%`.padStart(8) : '')
    : '-'.padStart(8).padEnd(bare ? 39 : 31);

interface TableRow {
  name: string;
  /** The column before the trees': the bare route's rate, or the connections. */
  first: string;
  trees: (Summary | undefined)[];
  /** Set beside this, each tree's rate as a share of it. */
  bare?: Summary;
}

/** Routes down, trees across, each tree's columns in a band of their own. */
function table(title: string, firstHeading: string, rows: TableRow[], treeNames: string[]) {
  const withRatio = rows.some((r) => r.bare);
  const width = withRatio ? 39 : 31;
  const headings =
    `${'req/s'.padStart(7)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'errors'.padStart(7)}` +
    (withRatio ? 'vs bare'.padStart(8) : '');
  const band = (text: (tree: number) => string) => treeNames.map((_, t) => `|${text(t)}`).join('');
  return [
    title,
    `${''.padEnd(NAME + 8)}${band((t) => ` ${treeNames[t]!.padEnd(width - 2)}`)}`,
    `${'route'.padEnd(NAME)}${firstHeading.padStart(8)}${band(() => headings)}`,
    ...rows.map(
      (row) =>
        `${row.name.padEnd(NAME)}${row.first.padStart(8)}${band((t) => cells(row.trees[t], row.bare).slice(1))}`,
    ),
    // What non-2xx answers or failures a row had, per tree.
    ...rows.flatMap((row) =>
      row.trees.flatMap((s, t) =>
        s && s.errors > 0 ? [`    ${row.name}, ${treeNames[t]}: ${s.statuses}`] : [],
      ),
    ),
  ].map((line) => line.trimEnd());
}

export function report(options: {
  title: string;
  treeNames: string[];
  treeLabels: string[];
  database: 'sqlite' | 'postgres';
  alone: AloneRow[];
  mix: MixRow[];
  checks: TreeChecks[];
}): { lines: string[]; ok: boolean } {
  const { treeNames, alone, mix, checks } = options;
  const lines = ['', `== ${options.title} ==`];
  treeNames.forEach((name, i) => lines.push(`${`${name}:`.padEnd(11)}${options.treeLabels[i]}`));
  lines.push(
    ...table(
      "each route alone (vs bare: its rate over the bare Fastify route's, measured in turn with it):",
      'bare/s',
      alone.map((r) => ({ ...r, first: rate(r.bare.rps) })),
      treeNames,
    ),
  );
  if (mix.length > 0)
    lines.push(
      ...table(
        'all at once (the mix, with honest players playing beside it):',
        'conns',
        mix.map((r) => ({ ...r, first: String(r.connections) })),
        treeNames,
      ),
    );
  treeNames.forEach((name, i) => {
    const c = checks[i]!;
    lines.push(
      `${name}: scores ${c.scoresAccepted} accepted, ${c.scoresRefused} refused, ${c.scoresStored} stored; ` +
        `progress reports ${c.reportsAccepted} accepted, ${c.reportsRefused} refused; ${c.votesStored} votes stored`,
    );
    if (c.gameRequests.errors > 0)
      lines.push(`    game requests, ${name}: ${c.gameRequests.statuses} (${c.refusals})`);
  });

  const reads = (trees: number) => [
    ...alone.filter((r) => r.read).map((r) => r.trees[trees]),
    ...mix.filter((r) => r.read).map((r) => r.trees[trees]),
  ];
  const member = alone.find((r) => r.name.startsWith('GET /api/auth/me'));
  const goals: [string, (tree: number) => boolean][] = [
    [
      `every read's p99 < ${TARGET_READ_P99_MS} ms at 100 connections, alone and in the mix`,
      (t) => reads(t).every((s) => s !== undefined && s.p99 < TARGET_READ_P99_MS),
    ],
    [
      "zero errors (every route; every game request, the score pool's included)",
      (t) =>
        [...alone.map((r) => r.trees[t]), ...mix.map((r) => r.trees[t])].every(
          (s) => s !== undefined && s.errors === 0,
        ) && checks[t]!.gameRequests.errors === 0,
    ],
    ...(member && options.database === 'sqlite'
      ? [
          [
            `GET /api/auth/me as a member >= ${TARGET_MEMBER_READ_RATIO} of the bare route (${member.trees.map((s) => (s ? (s.rps / member.bare.rps).toFixed(2) : '-')).join(' | ')})`,
            (t: number) => {
              const s = member.trees[t];
              return s !== undefined && s.rps / member.bare.rps >= TARGET_MEMBER_READ_RATIO;
            },
          ] as [string, (tree: number) => boolean],
        ]
      : []),
    ['vote counts equal the votes stored', (t) => checks[t]!.countMismatches === 0],
    [
      'every score answered 201 is stored, and no other',
      (t) => checks[t]!.scoresAccepted === checks[t]!.scoresStored,
    ],
  ];
  lines.push(`goals (${treeNames.join(' | ')}):`);
  let ok = true;
  for (const [label, met] of goals) {
    const results = treeNames.map((_, t) => met(t));
    ok &&= results[0]!;
    lines.push(`  ${results.map((r) => (r ? 'met    ' : 'NOT MET')).join(' | ')}  ${label}`);
  }
  return { lines, ok };
}
