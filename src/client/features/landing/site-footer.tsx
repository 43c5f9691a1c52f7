import { useLocation } from 'wouter';
import { shortenAddress } from '#shared/format.ts';
import { isPreLaunch, socialCardLinks } from '#shared/site.ts';
import { scrollToSection, sectionLinks, type SectionId } from '#client/lib/scroll-to-section.ts';
import { usePageLabels, useSite } from '#client/lib/site-config.ts';
import { CopyAddressButton } from './copy-address-button.tsx';
import { socialStyles } from './social-icon.tsx';

// The header's sections the footer offers, under the same names, and the footer itself.
const QUICK_LINK_IDS: ReadonlySet<SectionId> = new Set([
  'home',
  'tokenomics',
  'community',
  'giveaway',
  'game',
]);
const QUICK_LINKS: Array<{ id: SectionId; label: string }> = [
  ...sectionLinks.filter((link) => QUICK_LINK_IDS.has(link.id)),
  { id: 'contact', label: 'Contact' },
];

/** The contact section: quick links, the platforms and the contract address, on every page. */
export function SiteFooter() {
  const site = useSite();
  const [, navigate] = useLocation();
  // The year the page was rendered in: the same on the server and in the browser's first render.
  const { year } = usePageLabels();

  return (
    <footer
      id="contact"
      aria-labelledby="contact-title"
      className="scroll-mt-16 border-t border-slate-800 bg-gradient-to-b from-slate-950 to-black"
    >
      <h2 id="contact-title" className="sr-only">
        Contact
      </h2>
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 md:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="text-2xl font-black text-grind-400">{site.brand}</p>
          <p className="mt-1 font-mono text-sm font-bold text-slate-300">{site.ticker}</p>
          <p className="mt-3 text-sm text-slate-400">{site.tagline}.</p>
        </div>

        <nav aria-labelledby="footer-quick-links">
          <h3
            id="footer-quick-links"
            className="text-sm font-bold tracking-widest text-slate-200 uppercase"
          >
            Quick Links
          </h3>
          <ul className="mt-4 grid grid-cols-2 gap-2 text-sm lg:grid-cols-1">
            {QUICK_LINKS.map((link) => (
              <li key={link.id}>
                <a
                  href={`/#${link.id}`}
                  onClick={(event) => {
                    event.preventDefault();
                    scrollToSection(link.id, navigate);
                  }}
                  className="rounded text-slate-400 hover:text-grind-300"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <div>
          <h3 className="text-sm font-bold tracking-widest text-slate-200 uppercase">Community</h3>
          <ul className="mt-4 grid gap-2 text-sm">
            {socialCardLinks(site).map((card) => {
              const { Icon } = socialStyles[card.id];
              return (
                <li key={card.id}>
                  <a
                    href={card.url}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="inline-flex items-center gap-2 rounded text-slate-400 hover:text-grind-300"
                  >
                    <Icon className="h-4 w-4" />
                    {card.name}
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                </li>
              );
            })}
          </ul>
        </div>

        <div>
          <h3 className="text-sm font-bold tracking-widest text-slate-200 uppercase">Contract</h3>
          {isPreLaunch(site) ? (
            <p className="mt-4 text-sm text-slate-400" data-testid="footer-address">
              Contract address coming soon
            </p>
          ) : (
            <div className="mt-4 flex flex-wrap items-center gap-2">
              <code
                className="rounded-lg border border-slate-800 bg-slate-900 px-3 py-1.5 font-mono text-sm text-grind-100"
                title={site.contractAddress}
                data-testid="footer-address"
              >
                {shortenAddress(site.contractAddress)}
              </code>
              <CopyAddressButton address={site.contractAddress} variant="secondary" size="sm" />
            </div>
          )}
        </div>
      </div>
      <div className="border-t border-slate-900">
        <p className="mx-auto max-w-7xl px-4 py-6 text-center text-xs text-slate-400">
          © {year} {site.brand} ({site.ticker}). Memes, not financial advice.
        </p>
      </div>
    </footer>
  );
}
