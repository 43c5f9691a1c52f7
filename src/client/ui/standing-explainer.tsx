import type { ReactNode } from 'react';
import {
  allowanceOf,
  STANDING_HOW,
  STANDING_LABELS,
  STANDING_LEVELS,
  WALLET_EXTRA_UPLOADS,
  type Allowance,
  type Standing,
} from '#shared/standing.ts';
import { cn } from './cn.ts';

const APPEAL_WORDS = { first: 'heard first', 'in turn': 'heard in turn', last: 'heard last' };

/** The table's columns after the standing's own: a heading, and what a level's allowance says. */
const COLUMNS: { heading: string; cell: (a: Allowance) => ReactNode }[] = [
  { heading: 'Memes a day', cell: (a) => a.uploadsPerDay },
  { heading: 'Reports hide memes', cell: (a) => (a.reportsCount ? 'yes' : 'queued only') },
  { heading: 'Links in titles', cell: (a) => (a.linksInTitles ? 'yes' : 'no') },
  { heading: 'Appeals', cell: (a) => APPEAL_WORDS[a.appeals] },
  { heading: 'In raid mode', cell: (a) => (a.actsDuringRaid ? 'as usual' : 'read only') },
];

/** Every cell but the last keeps a gap to its right. */
const cellClass = (column: number) => (column < COLUMNS.length ? 'py-1 pr-2' : 'py-1');

/**
 * The one place the site explains standing (docs/decisions/027-raid-day.md): how each level is
 * reached and what it may do, from the same table the server enforces (src/shared/standing.ts).
 */
export function StandingExplainer({ current }: { current?: Standing }) {
  return (
    <div className="space-y-3 text-sm text-slate-300">
      <table className="w-full border-collapse text-left">
        <caption className="sr-only">What each standing may do</caption>
        <thead>
          <tr className="border-b border-slate-700 text-slate-400">
            <th scope="col" className={cellClass(0)}>
              Standing
            </th>
            {COLUMNS.map(({ heading }, i) => (
              <th key={heading} scope="col" className={cellClass(i + 1)}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {STANDING_LEVELS.map((level) => {
            const a = allowanceOf({ level, provenWallet: false });
            return (
              <tr
                key={level}
                className={cn(
                  'border-b border-slate-800 align-top',
                  current?.level === level && 'bg-grind-500/10',
                )}
              >
                <th scope="row" className="py-1 pr-2 font-semibold text-slate-100">
                  {STANDING_LABELS[level]}
                  <p className="font-normal text-slate-400">{STANDING_HOW[level]}</p>
                </th>
                {COLUMNS.map(({ heading, cell }, i) => (
                  <td key={heading} className={cellClass(i + 1)}>
                    {cell(a)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      <p>
        A proven wallet is a step up: {WALLET_EXTRA_UPLOADS} more memes a day for a member or a
        trusted member, and a new account&apos;s appeal heard in turn.
      </p>
      <p className="text-slate-400">
        Raid mode is turned on by the moderators, or by itself when sign-ups, posts from new
        accounts or reports come faster than usual; it ends when things are quiet again.
      </p>
    </div>
  );
}
