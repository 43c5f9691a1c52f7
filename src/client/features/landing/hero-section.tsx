import { ArrowDown, Rocket, ShoppingCart } from '#client/ui/first-load-icons.tsx';
import { lazy, Suspense } from 'react';
import { useLocation } from 'wouter';
import { brandAssets, isPreLaunch } from '#shared/site.ts';
import { scrollToSection } from '#client/lib/scroll-to-section.ts';
import { useSite } from '#client/lib/site-config.ts';
import { Button, buttonClasses } from '#client/ui/button.tsx';

// The countdown is not something to click: its code (the page's clock, the time maths) comes
// after the first load, and the server's HTML stands until it does.
const LaunchCountdown = lazy(() => import('./launch-countdown.tsx'));

/** A transparent pixel: what the mascot's <img> loads where its <source> does not apply. */
const NO_IMAGE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

function Mascot() {
  const site = useSite();
  // Large screens only, decided by the browser from the HTML: a phone never downloads it.
  return (
    <div className="relative hidden justify-center lg:flex">
      <div aria-hidden className="absolute inset-8 rounded-full bg-grind-500/20 blur-3xl" />
      <picture className="contents">
        <source media="(min-width: 1024px)" srcSet={brandAssets.mascot.src} />
        <img
          src={NO_IMAGE}
          width={brandAssets.mascot.width}
          height={brandAssets.mascot.height}
          alt={`${site.mascot}, the ${site.brand} mascot: a tired but determined office worker holding a coffee mug`}
          fetchPriority="high"
          className="relative h-auto w-full max-w-md drop-shadow-[0_20px_40px_rgba(0,0,0,0.5)]"
          data-testid="hero-mascot"
        />
      </picture>
    </div>
  );
}

/** The top of the page: who we are, the launch countdown and the two calls to action. */
export function HeroSection() {
  const site = useSite();
  const [, navigate] = useLocation();
  const preLaunch = isPreLaunch(site);

  return (
    <section
      id="home"
      aria-labelledby="hero-title"
      className="relative scroll-mt-16 overflow-hidden"
    >
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(245,158,11,0.22),transparent_60%),radial-gradient(ellipse_at_bottom_right,rgba(56,189,248,0.08),transparent_55%)]"
      />
      <div className="relative mx-auto grid max-w-7xl items-center gap-10 px-4 pt-12 pb-16 sm:pt-16 lg:grid-cols-[minmax(0,1.15fr)_minmax(0,0.85fr)] lg:pt-20 lg:pb-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-grind-500/40 bg-grind-500/10 px-3 py-1 text-xs font-semibold text-grind-100">
            <Rocket className="h-3.5 w-3.5" aria-hidden />
            {preLaunch ? `Launching soon on ${site.chain}` : `Live on ${site.chain}`}
          </p>
          <h1
            id="hero-title"
            className="mt-5 text-5xl leading-none font-black tracking-tight text-white sm:text-7xl"
          >
            <span className="bg-gradient-to-br from-grind-100 via-grind-400 to-grind-600 bg-clip-text text-transparent">
              {site.brand}
            </span>
          </h1>
          <p className="mt-4 flex flex-wrap items-center gap-3">
            <span
              className="rounded-lg bg-grind-500 px-3 py-1 font-mono text-xl font-black text-slate-950 sm:text-2xl"
              data-testid="hero-ticker"
            >
              {site.ticker}
            </span>
            <span className="text-lg font-semibold text-slate-300">{site.tagline}</span>
          </p>
          <p className="mt-6 max-w-xl text-base leading-relaxed text-slate-300 sm:text-lg">
            {site.description}
          </p>
          <div className="mt-8 max-w-xl">
            <Suspense fallback={null}>
              <LaunchCountdown />
            </Suspense>
          </div>
          <div className="mt-8 flex flex-wrap gap-3">
            <a
              href={site.links.buy}
              target="_blank"
              rel="noopener noreferrer"
              className={buttonClasses('primary', 'lg')}
            >
              <ShoppingCart className="h-5 w-5" aria-hidden /> Buy Now
            </a>
            <Button
              variant="secondary"
              size="lg"
              onClick={() => scrollToSection('tokenomics', navigate)}
            >
              Learn More <ArrowDown className="h-5 w-5" aria-hidden />
            </Button>
          </div>
        </div>
        <Mascot />
      </div>
    </section>
  );
}
