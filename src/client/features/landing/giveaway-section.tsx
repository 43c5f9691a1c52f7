import { CalendarClock, Gift, Radio, Trophy, Wallet } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { formatTokenAmount } from '#shared/format.ts';
import { countdownParts, formatWeekdayTime, nextWeeklyOccurrence, zoneCity } from '#shared/time.ts';
import { useServerNow } from '#client/lib/server-clock.ts';
import { usePageLabels, useSite } from '#client/lib/site-config.ts';
import { buttonClasses } from '#client/ui/button.tsx';
import { settleHashTarget } from './anchor-scroll.ts';
import { CountdownDisplay } from './countdown-display.tsx';
import { BurnPanelView } from './burn-panel-view.tsx';
import { SectionHeading } from './section-heading.tsx';
import { useNearViewport } from '#client/lib/hydrate-later.ts';

const RecentWinners = lazy(() => import('./recent-winners.tsx'));
const LiveBurnPanel = lazy(() => import('./live-burn-panel.tsx'));

function SettleAfterMount() {
  useEffect(settleHashTarget, []);
  return null;
}

interface NextLivestream {
  parts: ReturnType<typeof countdownParts>;
  inScheduleZone: string;
  inVisitorZone: string;
  iso: string;
}

function LivestreamCard({ next }: { next: NextLivestream | null }) {
  const site = useSite();
  const labels = usePageLabels();
  const city = zoneCity(site.giveaway.schedule.timeZone);
  return (
    <div className="flex flex-col rounded-3xl border border-grind-500/30 bg-gradient-to-br from-grind-500/15 via-slate-900 to-slate-900 p-6 sm:p-8">
      <div className="flex items-center gap-3">
        <span className="flex h-10 w-10 items-center justify-center rounded-full bg-red-500/15 text-red-400">
          <Radio className="h-5 w-5" aria-hidden />
        </span>
        <h3 className="text-lg font-bold text-white">Next livestream in</h3>
      </div>
      <CountdownDisplay
        parts={next?.parts ?? null}
        label="Time until the next giveaway livestream"
        testId="giveaway-countdown"
        className="mt-5"
      />
      <dl className="mt-5 grid gap-2 text-sm">
        <div className="flex flex-wrap gap-x-2">
          <dt className="text-slate-400">Every</dt>
          <dd className="font-semibold text-slate-100" data-testid="giveaway-schedule">
            {next ? `${next.inScheduleZone} (${city} time)` : labels.giveawaySchedule}
          </dd>
        </div>
        <div className="flex flex-wrap gap-x-2">
          <dt className="text-slate-400">Your time</dt>
          <dd className="font-semibold text-grind-300" data-testid="giveaway-local-time">
            {next ? <time dateTime={next.iso}>{next.inVisitorZone}</time> : '…'}
          </dd>
        </div>
      </dl>
      <p className="mt-5 mb-6 text-sm text-slate-400">
        Prizes and burns happen live on stream. Hold {site.ticker}, tune in, and you could be next.
      </p>
      <a
        href={site.links.tradingSite}
        target="_blank"
        rel="noopener noreferrer"
        className={`${buttonClasses('primary', 'lg')} mt-6 w-full lg:mt-auto`}
      >
        <Wallet className="h-5 w-5" aria-hidden /> Trade {site.ticker}
        <span className="sr-only">(opens in a new tab)</span>
      </a>
    </div>
  );
}

function LivestreamCountdown() {
  const { schedule } = useSite().giveaway;
  const now = useServerNow();
  const next = nextWeeklyOccurrence(now, schedule);
  return (
    <LivestreamCard
      next={{
        parts: countdownParts(next, now),
        inScheduleZone: formatWeekdayTime(next, schedule.timeZone, 'en-US'),
        inVisitorZone: formatWeekdayTime(next),
        iso: new Date(next).toISOString(),
      }}
    />
  );
}

/** The site config's starting figures: what the server renders, before any verified burn. */
function StaticBurnPanel() {
  const { burn } = useSite().giveaway;
  return (
    <BurnPanelView
      figures={{
        circulatingSupply: formatTokenAmount(burn.circulatingSupply, { notation: 'millions' }),
        lastBurn: formatTokenAmount(burn.lastBurn),
        totalBurned: formatTokenAmount(burn.totalBurned),
        last: null,
      }}
    />
  );
}

/** The burns verified on chain replace the starting figures once the section comes near. */
function BurnPanel({ near }: { near: boolean }) {
  if (!near) return <StaticBurnPanel />;
  return (
    <Suspense fallback={<StaticBurnPanel />}>
      <LiveBurnPanel />
    </Suspense>
  );
}

const STEPS = [
  {
    icon: Wallet,
    title: 'Hold the token',
    text: (ticker: string) => `Grab some ${ticker} and keep it in your wallet.`,
  },
  {
    icon: CalendarClock,
    title: 'Join the livestream',
    text: () => 'Tune in every Sunday for the live draw and the weekly burn.',
  },
  {
    icon: Gift,
    title: 'Win prizes',
    text: () => 'Winners are drawn live and paid on-chain, for everyone to see.',
  },
];

function RecentWinnersWhenNear() {
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearViewport(ref);
  const placeholder = (
    <div className="h-24 animate-pulse rounded-xl bg-slate-800/60 motion-reduce:animate-none" />
  );
  return (
    <div ref={ref} className="min-h-24">
      {near ? (
        <Suspense fallback={placeholder}>
          <RecentWinners />
          <SettleAfterMount />
        </Suspense>
      ) : (
        placeholder
      )}
    </div>
  );
}

/** The weekly livestream: when, how to take part, the burns, and who has won. */
export function GiveawaySection() {
  const site = useSite();
  const ref = useRef<HTMLElement>(null);
  // Zone-aware dates cost a phone real time the first time (Intl loads zone data), so the
  // countdown starts when the section comes near rather than on the first load.
  const near = useNearViewport(ref, 'giveaway');
  return (
    <section
      ref={ref}
      id="giveaway"
      aria-labelledby="giveaway-title"
      className="scroll-mt-16 py-16 sm:py-24"
    >
      <div className="mx-auto max-w-7xl px-4">
        <SectionHeading id="giveaway-title" eyebrow="Every week" title="Weekly Giveaway">
          Every Sunday we go live, burn tokens and reward the hardest workers in the community.
        </SectionHeading>
        <div className="mt-12 grid gap-6 lg:grid-cols-2">
          {near ? <LivestreamCountdown /> : <LivestreamCard next={null} />}
          <div className="grid gap-6">
            <BurnPanel near={near} />
            <div className="rounded-3xl border border-slate-800 bg-slate-900/70 p-6">
              <h3 className="text-lg font-bold text-white">How to participate</h3>
              <ol className="mt-4 grid gap-4">
                {STEPS.map(({ icon: Icon, title, text }, index) => (
                  <li key={title} className="flex gap-4" data-testid="giveaway-step">
                    <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-grind-500 font-black text-slate-950">
                      {index + 1}
                    </span>
                    <span>
                      <span className="flex items-center gap-2 font-semibold text-white">
                        <Icon className="h-4 w-4 text-grind-400" aria-hidden /> {title}
                      </span>
                      <span className="mt-0.5 block text-sm text-slate-400">
                        {text(site.ticker)}
                      </span>
                    </span>
                  </li>
                ))}
              </ol>
            </div>
          </div>
        </div>
        <div className="mt-6 rounded-3xl border border-slate-800 bg-slate-900/70 p-6">
          <h3 className="flex items-center gap-2 text-lg font-bold text-white">
            <Trophy className="h-5 w-5 text-grind-400" aria-hidden /> Recent Winners
          </h3>
          <div className="mt-4">
            <RecentWinnersWhenNear />
          </div>
        </div>
      </div>
    </section>
  );
}
