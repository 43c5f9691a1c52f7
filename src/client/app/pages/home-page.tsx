import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { scrollToHashOnArrival } from '#client/features/landing/anchor-scroll.ts';
import { DeferredSection } from '#client/features/landing/deferred-section.tsx';
import { HeroSection } from '#client/features/landing/hero-section.tsx';
import { lazyNearOrIdle } from '#client/lib/hydrate-later.ts';
import { useReplayAddress } from '#client/lib/replay-address.ts';

// The gallery and the game are most of the page's code: they load as they come near the screen.
const GallerySection = lazy(() => import('#client/features/gallery/gallery-section.tsx'));
const GameSection = lazy(() => import('#client/features/game/game-section.tsx'));
// The leaderboard and the prize box in it (the wallet feature's) are fetched together.
const prizeBox = () => import('#client/features/wallet/prize-eligibility.tsx');
const LeaderboardPanel = lazy(() => {
  void prizeBox();
  return import('#client/features/leaderboard/leaderboard-panel.tsx');
});
const PrizeEligibility = lazy(async () => ({ default: (await prizeBox()).PrizeEligibility }));
// The replay viewer (engine, renderer, controls) loads only when the address asks for a replay.
const ReplayDialog = lazy(() => import('#client/features/replay/replay-dialog.tsx'));

/** `/#replay-<entryId>` opens that entry's replay, on arrival or when the hash changes. */
function ReplayFromAddress() {
  const entryId = useReplayAddress();
  // The last replay asked for stays mounted, so closing runs the dialog's own close (focus back
  // to the Watch button, the full leaderboard under it dismissable again).
  const [shown, setShown] = useState<number | null>(null);
  if (entryId !== null && entryId !== shown) setShown(entryId);
  if (shown === null) return null;
  return (
    <Suspense fallback={null}>
      <ReplayDialog entryId={shown} open={entryId !== null} />
    </Suspense>
  );
}

const belowTheFold = () => import('#client/features/landing/below-the-fold.ts');
const TokenomicsSection = lazyNearOrIdle(
  'tokenomics',
  async () => (await belowTheFold()).TokenomicsSection,
);
const ChartSection = lazyNearOrIdle('chart', async () => (await belowTheFold()).ChartSection);
const RoadmapSection = lazyNearOrIdle('roadmap', async () => (await belowTheFold()).RoadmapSection);
const CommunitySection = lazyNearOrIdle(
  'community',
  async () => (await belowTheFold()).CommunitySection,
);
const GiveawaySection = lazyNearOrIdle(
  'giveaway',
  async () => (await belowTheFold()).GiveawaySection,
);

function GallerySlot() {
  return (
    <DeferredSection
      id="gallery"
      title="Community Meme Gallery"
      needsScript="The meme gallery needs JavaScript: turn it on to browse, vote on and upload memes."
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
      needsScript="The game needs JavaScript: turn it on to play and to see the weekly leaderboard."
      reserveClassName="min-h-[1620px] lg:min-h-[1080px]"
    >
      <GameSection
        leaderboard={
          <Suspense fallback={<div className="h-96 rounded-xl bg-slate-900/70" />}>
            <LeaderboardPanel prizeBox={<PrizeEligibility />} />
          </Suspense>
        }
      />
    </DeferredSection>
  );
}

/** The spec's order after the hero (the footer, #contact, is in the shell). */
const BELOW_THE_FOLD: ComponentType[] = [
  TokenomicsSection,
  ChartSection,
  RoadmapSection,
  CommunitySection,
  GallerySlot,
  GiveawaySection,
  GameSlot,
];

export function HomePage() {
  useEffect(scrollToHashOnArrival, []);
  // The server writes every section into the HTML. In the browser the hero comes alive first;
  // each section below it in a boundary of its own, as it comes near or when the page is idle,
  // so no single task holds the main thread for the whole page.
  return (
    <>
      {/* A boundary of its own too: the root's first render (one task that cannot yield) then
          covers only the header, and the hero follows in a render that can. */}
      <Suspense fallback={null}>
        <HeroSection />
      </Suspense>
      {BELOW_THE_FOLD.map((Section, index) => (
        <Suspense key={index} fallback={null}>
          <Section />
        </Suspense>
      ))}
      <ReplayFromAddress />
    </>
  );
}
