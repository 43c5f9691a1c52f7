import { launchTimeMs } from '#shared/site.ts';
import { countdownParts } from '#shared/time.ts';
import { useServerNowOnceHydrated } from '#client/lib/server-clock.ts';
import { usePageLabels, useSite } from '#client/lib/site-config.ts';
import { CountdownDisplay } from './countdown-display.tsx';

const LAUNCHED_MESSAGE =
  'The wait is over! Start trading and join the community of hard workers.';

export default function LaunchCountdown() {
  const site = useSite();
  const labels = usePageLabels();
  const now = useServerNowOnceHydrated();
  // A launch that had passed when the page was rendered reads the same on every clock; one
  // still ahead shows "--" in the HTML and counts down once the page has its clock.
  const parts = labels.launched
    ? countdownParts(0, 1)
    : now === null
      ? null
      : countdownParts(launchTimeMs(site), now);
  const launched = parts?.launched ?? false;

  return (
    <div className="rounded-2xl border border-grind-500/30 bg-slate-900/80 p-4 shadow-2xl shadow-grind-500/10 sm:p-6">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 className="text-sm font-bold tracking-widest text-grind-300 uppercase">
          {launched ? 'We are live' : 'Launch countdown'}
        </h2>
        <p className="text-xs text-slate-400" data-testid="launch-time">
          Launch: <time dateTime={site.launchAt}>{labels.launch}</time>
        </p>
      </div>
      <CountdownDisplay
        parts={parts}
        label="Time until launch"
        testId="launch-countdown"
        className="mt-4"
      />
      {launched ? (
        <p className="mt-4 text-center font-semibold text-grind-100" data-testid="launched-message">
          {LAUNCHED_MESSAGE}
        </p>
      ) : null}
    </div>
  );
}
