import { lazy, startTransition, Suspense, useEffect, useState } from 'react';
import { scrollToHashOnArrival } from '#client/features/landing/anchor-scroll.ts';
import { ChartSection } from '#client/features/landing/chart-section.tsx';
import { CommunitySection } from '#client/features/landing/community-section.tsx';
import { DeferredSection } from '#client/features/landing/deferred-section.tsx';
import { GiveawaySection } from '#client/features/landing/giveaway-section.tsx';
import { HeroSection } from '#client/features/landing/hero-section.tsx';
import { RoadmapSection } from '#client/features/landing/roadmap-section.tsx';
import { TokenomicsSection } from '#client/features/landing/tokenomics-section.tsx';

// The gallery and the game are most of the page's code: they load as they come near the screen.
const GallerySection = lazy(() => import('#client/features/gallery/gallery-section.tsx'));
const GameSection = lazy(() => import('#client/features/game/game-section.tsx'));
const LeaderboardPanel = lazy(() => import('#client/features/leaderboard/leaderboard-panel.tsx'));

function GallerySlot() {
  return (
    <DeferredSection
      id="gallery"
      title="Community Meme Gallery"
      reserveClassName="min-h-[800px] lg:min-h-[650px]"
    >
      <GallerySection />
    </DeferredSection>
  );
}

function GameSlot() {
  return (
    <DeferredSection
      id="game"
      title="Office Escape"
      reserveClassName="min-h-[1620px] lg:min-h-[1080px]"
    >
      <GameSection
        leaderboard={
          <Suspense fallback={<div className="h-96 rounded-xl bg-slate-900/70" />}>
            <LeaderboardPanel />
          </Suspense>
        }
      />
    </DeferredSection>
  );
}

/** The spec's order after the hero (the footer, #contact, is in the shell). */
const BELOW_THE_FOLD = [
  TokenomicsSection,
  ChartSection,
  RoadmapSection,
  CommunitySection,
  GallerySlot,
  GiveawaySection,
  GameSlot,
];

export function HomePage() {
  // The hero paints first; the sections below follow one per task in interruptible renders, so
  // a slow phone gets its first screen sooner and no long task blocks input. A link to a
  // section renders everything at once, since it must scroll there.
  const [shown, setShown] = useState(() =>
    window.location.hash.length > 1 ? BELOW_THE_FOLD.length : 0,
  );
  useEffect(() => {
    if (shown >= BELOW_THE_FOLD.length) return;
    const next = setTimeout(() => startTransition(() => setShown((n) => n + 1)), 0);
    return () => clearTimeout(next);
  }, [shown]);
  useEffect(() => scrollToHashOnArrival(), []);

  return (
    <>
      <HeroSection />
      {/* Index keys are stable: the list only ever grows at its end. */}
      {BELOW_THE_FOLD.slice(0, shown).map((Section, index) => (
        <Section key={index} />
      ))}
    </>
  );
}
