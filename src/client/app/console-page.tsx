import { lazy, Suspense } from 'react';
import { Router } from 'wouter';
import { useBrowserLocation } from 'wouter/use-browser-location';
import { CONSOLE_PAGE } from '#shared/api/paths.ts';
import ConsoleApp from '#client/features/console/console-app.tsx';
import { useAuthDialog } from '#client/lib/auth-dialog-store.ts';
import { PageFactsProvider, type PageFacts } from '#client/lib/site-config.ts';
import { useToasts } from '#client/lib/toast-store.ts';
import { SiteHeader } from './site-header.tsx';

/** The site's header in the console: its links (home, shop) load those pages, not routes here. */
const fullPageLoads = (): [string, (to: string) => void] => [
  window.location.pathname,
  (to) => window.location.assign(to),
];

const PrizeWeekPage = lazy(() => import('./pages/prize-week-page.tsx'));

/** The Prize week route, loaded when opened. */
function PrizeWeek() {
  return (
    <Suspense fallback={null}>
      <PrizeWeekPage />
    </Suspense>
  );
}

const AuthDialog = lazy(() => import('#client/features/auth/auth-dialog.tsx'));
const Toaster = lazy(() => import('#client/ui/toaster.tsx'));

/**
 * The operator console's page (/admin), started by its own entry (console-main.tsx) so that
 * nothing of it is in the site's first load: the site's header (to sign in), the console, the
 * sign-in dialog and the toasts.
 */
export function ConsolePage({ facts }: { facts: PageFacts }) {
  const { everOpened } = useAuthDialog();
  const toasts = useToasts();
  return (
    <PageFactsProvider facts={facts}>
      <Router hook={fullPageLoads}>
        <div className="flex min-h-screen flex-col">
          <SiteHeader />
          <main className="flex-1">
            <Router hook={useBrowserLocation} base={CONSOLE_PAGE}>
              <ConsoleApp prizeWeek={PrizeWeek} />
            </Router>
          </main>
        </div>
        <Suspense fallback={null}>
          {everOpened && <AuthDialog />}
          {toasts.length > 0 && <Toaster />}
        </Suspense>
      </Router>
    </PageFactsProvider>
  );
}
