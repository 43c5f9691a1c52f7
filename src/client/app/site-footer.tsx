import { SiteFooter as ContactFooter } from '#client/features/landing/site-footer.tsx';

/** The shell shows the landing page's contact footer on every page. */
export function SiteFooter() {
  return <ContactFooter />;
}
