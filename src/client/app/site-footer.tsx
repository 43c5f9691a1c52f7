import { defaultSite } from '#shared/site.ts';

export function SiteFooter() {
  return (
    <footer id="contact" className="border-t border-slate-800 bg-slate-950 py-8 text-center text-sm text-slate-400">
      © {new Date().getFullYear()} {defaultSite.brand} ({defaultSite.ticker}). {defaultSite.tagline}.
    </footer>
  );
}
