import { OVERVIEW_SERIES, overviewEndpoint } from '#shared/api/console/overview.ts';
import { errorText, useConsoleQuery } from './console-api.ts';

const LABELS: Record<(typeof OVERVIEW_SERIES)[number], string> = {
  members: 'New members',
  memes: 'Memes',
  votes: 'Votes',
  runs: 'Runs',
  reports: 'Reports',
};

/** One series as bars in a small SVG: no chart library. */
function MiniChart({ label, values, days }: { label: string; values: number[]; days: number[] }) {
  const max = Math.max(1, ...values);
  const width = 300;
  const height = 60;
  const bar = width / values.length;
  const total = values.reduce((a, b) => a + b, 0);
  return (
    <figure
      className="rounded-xl border border-slate-800 bg-slate-900 p-3"
      data-testid="mini-chart"
    >
      <figcaption className="mb-2 flex justify-between text-sm">
        <span className="font-semibold">{label}</span>
        <span className="text-slate-400">
          {total} in 30 days · {values.at(-1)} today
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-16 w-full"
        role="img"
        aria-label={`${label} per day`}
      >
        {values.map((v, i) => {
          const h = (v / max) * (height - 2);
          return (
            <rect
              key={days[i]}
              x={i * bar + 1}
              y={height - h}
              width={Math.max(1, bar - 2)}
              height={h}
              className="fill-grind-400"
            >
              <title>{`${new Date(days[i]!).toISOString().slice(0, 10)}: ${v}`}</title>
            </rect>
          );
        })}
      </svg>
    </figure>
  );
}

/** The last 30 days at a glance, and how many reports wait. */
export function OverviewPage() {
  const data = useConsoleQuery(['overview'], overviewEndpoint);
  if (data.isError) return <p role="alert">{errorText(data.error)}</p>;
  if (!data.data) return <p className="text-slate-400">Loading…</p>;
  const { days, series, openReports } = data.data;
  return (
    <section className="space-y-4">
      <h1 className="text-xl font-bold">Overview</h1>
      <p className="text-lg">
        <span className="font-bold text-grind-300">{openReports}</span> open report(s)
      </p>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {OVERVIEW_SERIES.map((name) => (
          <MiniChart key={name} label={LABELS[name]} values={series[name] ?? []} days={days} />
        ))}
      </div>
    </section>
  );
}
