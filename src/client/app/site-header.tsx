import { Menu, ShoppingBag, X } from '#client/ui/first-load-icons.tsx';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { openAuthDialog } from '#client/lib/auth-dialog-store.ts';
import { scrollToSection, sectionLinks, type SectionId } from '#client/lib/scroll-to-section.ts';
import { useSession } from '#client/lib/session.ts';
import { useSite } from '#client/lib/site-config.ts';
import { Button, buttonClasses } from '#client/ui/button.tsx';

const AccountMenu = lazy(() => import('./account-menu.tsx'));

export function SiteHeader() {
  const [location, navigate] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const { user, operator } = useSession();
  const site = useSite();

  const go = (id: SectionId) => {
    setMenuOpen(false);
    scrollToSection(id, navigate);
  };

  // The same buttons in the bar (wide screens) and in the menu (narrow ones); only the look differs.
  const sectionButtons = (className: string) =>
    sectionLinks.map((s) => (
      <button key={s.id} type="button" onClick={() => go(s.id)} className={className}>
        {s.label}
      </button>
    ));

  const pageLink =
    location === '/shop' ? (
      <Link href="/" className={`${buttonClasses('ghost', 'sm')} whitespace-nowrap`}>
        Back to Game
      </Link>
    ) : location === '/' ? (
      <Link href="/shop" className={buttonClasses('ghost', 'sm')}>
        <ShoppingBag className="h-4 w-4" aria-hidden /> Shop
      </Link>
    ) : null;

  const account = user ? (
    <div className="flex min-w-0 items-center gap-3">
      {/* A username may be 32 wide letters: it gives way to the bar rather than push it off screen. */}
      <span
        className="hidden max-w-48 truncate text-sm text-slate-300 sm:block lg:max-w-28 xl:max-w-48"
        title={user.username}
      >
        Welcome, {user.username}
      </span>
      <Suspense
        fallback={
          <span
            aria-hidden
            className="flex h-9 w-9 items-center justify-center rounded-full bg-grind-500 font-bold text-slate-950 uppercase"
          >
            {user.username.charAt(0)}
          </span>
        }
      >
        <AccountMenu username={user.username} operator={operator} />
      </Suspense>
    </div>
  ) : (
    <div className="flex items-center gap-1 sm:gap-2">
      <Button
        variant="ghost"
        size="sm"
        className="px-2! whitespace-nowrap sm:px-3!"
        onClick={() => openAuthDialog('login')}
      >
        Login
      </Button>
      <Button
        size="sm"
        className="px-2.5! whitespace-nowrap sm:px-3!"
        onClick={() => openAuthDialog('register')}
      >
        Sign Up
      </Button>
    </div>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-2 px-3 sm:gap-4 sm:px-4 lg:gap-2 xl:gap-4">
        <button
          type="button"
          onClick={() => go('home')}
          className="flex flex-col items-start text-left"
        >
          <span className="text-base leading-tight font-extrabold whitespace-nowrap text-grind-400 sm:text-lg">
            {site.brand}
          </span>
          {/* Between lg and xl the section buttons need its room. */}
          <span className="hidden text-xs whitespace-nowrap text-slate-400 sm:block lg:hidden xl:block">
            {site.tagline}
          </span>
        </button>
        <nav aria-label="Sections" className="hidden items-center lg:flex xl:gap-1">
          {sectionButtons(
            'rounded-md px-1.5 py-2 text-sm text-slate-300 hover:bg-slate-800 hover:text-white xl:px-3',
          )}
        </nav>
        <div className="flex items-center gap-1 sm:gap-2">
          <div className="hidden lg:block">{pageLink}</div>
          <a
            href={site.links.buy}
            target="_blank"
            rel="noopener noreferrer"
            className={`${buttonClasses('outline', 'sm')} px-2.5! sm:px-3!`}
          >
            Buy
          </a>
          {account}
          <Button
            variant="ghost"
            size="icon"
            className="lg:hidden"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? (
              <X className="h-5 w-5" aria-hidden />
            ) : (
              <Menu className="h-5 w-5" aria-hidden />
            )}
          </Button>
        </div>
      </div>
      {menuOpen ? (
        <nav
          id="mobile-menu"
          aria-label="Sections"
          // Over the page rather than in the header's flow: opening it shifts nothing, and a
          // section chosen from it is measured where it will be once the menu is gone.
          className="absolute inset-x-0 top-full max-h-[calc(100dvh-4rem)] overflow-y-auto border-y border-slate-800 bg-slate-950/95 px-4 pb-4 backdrop-blur lg:hidden"
        >
          <ul className="grid gap-1 pt-2">
            {user ? (
              // The bar has no room for the greeting on a phone.
              <li className="truncate px-3 py-2 text-sm text-slate-400 sm:hidden">
                Welcome, {user.username}
              </li>
            ) : null}
            {sectionButtons(
              'w-full rounded-md px-3 py-2 text-left text-slate-200 hover:bg-slate-800',
            ).map((button) => (
              <li key={button.key}>{button}</li>
            ))}
            {pageLink ? (
              <li className="pt-1" onClick={() => setMenuOpen(false)}>
                {pageLink}
              </li>
            ) : null}
          </ul>
        </nav>
      ) : null}
    </header>
  );
}
