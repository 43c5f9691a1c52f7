import type { DistributionSlice } from '#shared/site.ts';
import { formatTokenAmount } from '#shared/format.ts';

const SLICE_COLOURS = ['#fbbf24', '#f97316', '#38bdf8', '#a78bfa', '#34d399', '#f472b6'];
const RADIUS = 40;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

function colourOf(index: number): string {
  return SLICE_COLOURS[index % SLICE_COLOURS.length]!;
}

/**
 * The distribution as a donut (a picture with a text alternative) beside a table that says the
 * same in words and numbers, so no one needs the colours to read it.
 */
export function DistributionChart({
  slices,
  totalSupply,
  ticker,
}: {
  slices: DistributionSlice[];
  totalSupply: number;
  ticker: string;
}) {
  const arcs = slices.map((slice, index) => {
    const before = slices.slice(0, index).reduce((sum, s) => sum + s.percent, 0);
    const length = (slice.percent / 100) * CIRCUMFERENCE;
    return { slice, colour: colourOf(index), length, offset: -(before / 100) * CIRCUMFERENCE };
  });
  const summary = slices.map((s) => `${s.label} ${s.percent}%`).join(', ');

  return (
    <figure className="grid items-center gap-8 md:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]">
      <svg
        viewBox="0 0 100 100"
        width="256"
        height="256"
        role="img"
        aria-label={`Token distribution: ${summary}`}
        className="mx-auto h-auto w-56 max-w-full -rotate-90 sm:w-64"
      >
        <circle cx="50" cy="50" r={RADIUS} fill="none" stroke="#1e293b" strokeWidth="14" />
        {arcs.map(({ slice, colour, length, offset }) => (
          <circle
            key={slice.id}
            cx="50"
            cy="50"
            r={RADIUS}
            fill="none"
            stroke={colour}
            strokeWidth="14"
            strokeDasharray={`${length} ${CIRCUMFERENCE - length}`}
            strokeDashoffset={offset}
          />
        ))}
        <g className="rotate-90" style={{ transformOrigin: '50px 50px' }}>
          <text x="50" y="48" textAnchor="middle" className="fill-white text-[11px] font-black">
            {formatTokenAmount(totalSupply, { notation: 'compact' })}
          </text>
          <text
            x="50"
            y="60"
            textAnchor="middle"
            className="fill-slate-400 text-[6px] font-semibold"
          >
            {ticker}
          </text>
        </g>
      </svg>
      <figcaption className="sr-only">Token distribution</figcaption>
      <table className="w-full text-left text-sm sm:text-base">
        <caption className="sr-only">Token distribution by share of the total supply</caption>
        <thead>
          <tr className="text-xs tracking-wider text-slate-400 uppercase">
            <th scope="col" className="pb-2 font-semibold">
              Allocation
            </th>
            <th scope="col" className="pb-2 text-right font-semibold">
              Share
            </th>
            <th scope="col" className="hidden pb-2 text-right font-semibold sm:table-cell">
              Tokens
            </th>
          </tr>
        </thead>
        <tbody>
          {arcs.map(({ slice, colour }) => (
            <tr
              key={slice.id}
              className="border-t border-slate-800"
              data-testid={`slice-${slice.id}`}
            >
              <th scope="row" className="py-3 font-semibold text-slate-100">
                <span className="flex items-center gap-3">
                  <span
                    aria-hidden
                    className="h-3 w-3 shrink-0 rounded-full"
                    style={{ backgroundColor: colour }}
                  />
                  {slice.label}
                </span>
              </th>
              <td className="py-3 text-right font-mono text-lg font-black text-grind-300">
                {slice.percent}%
              </td>
              <td className="hidden py-3 text-right font-mono text-slate-300 sm:table-cell">
                {formatTokenAmount((totalSupply * slice.percent) / 100)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
