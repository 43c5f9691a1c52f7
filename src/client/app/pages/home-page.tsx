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
  // The hero paints first; the sections below follow in one interruptible render (one commit:
  // splitting it into one per section measured slower, as each commit lays the page out
  // again). A link to a section renders everything at once, since it must scroll there.
  const [belowFold, setBelowFold] = useState(() => window.location.hash.length > 1);
  useEffect(() => {
    if (!belowFold) startTransition(() => setBelowFold(true));
  }, [belowFold]);
  useEffect(() => scrollToHashOnArrival(), []);

  return (
    <>
      <HeroSection />
      {belowFold ? BELOW_THE_FOLD.map((Section, index) => <Section key={index} />) : null}
    </>
  );
}
