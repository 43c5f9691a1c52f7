export const sectionLinks = [
  { id: 'home', label: 'Home' },
  { id: 'tokenomics', label: 'Tokenomics' },
  { id: 'chart', label: 'Chart' },
  { id: 'roadmap', label: 'Roadmap' },
  { id: 'community', label: 'Community' },
  { id: 'giveaway', label: 'Giveaway' },
  { id: 'game', label: 'Game' },
] as const;

export type SectionId = (typeof sectionLinks)[number]['id'] | 'contact';

/**
 * Scrolls to a home-page section; from another page it goes home with the hash, and the home
 * page scrolls once the section exists. Smoothness comes from CSS, which honours reduced motion.
 */
export function scrollToSection(id: SectionId, navigate: (to: string) => void): void {
  if (window.location.pathname !== '/') {
    navigate(`/#${id}`);
    return;
  }
  history.replaceState(null, '', `#${id}`);
  document.getElementById(id)?.scrollIntoView();
}
