// The landing sections below the hero, in one chunk: the page's HTML already shows them, so
// their code loads after the first screen is interactive (app/pages/home-page.tsx).
export { ChartSection } from './chart-section.tsx';
export { CommunitySection } from './community-section.tsx';
export { GiveawaySection } from './giveaway-section.tsx';
export { RoadmapSection } from './roadmap-section.tsx';
export { TokenomicsSection } from './tokenomics-section.tsx';
