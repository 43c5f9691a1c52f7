import { lazy, Suspense } from 'react';
import { Route, Router, Switch } from 'wouter';
import { memberPaths, memePaths } from '#shared/api/paths.ts';
import { useAppeal } from '#client/lib/appeal-store.ts';
import { useAuthDialog } from '#client/lib/auth-dialog-store.ts';
import { lazyNearOrIdle, lazyWhenIdle } from '#client/lib/hydrate-later.ts';
import { PageFactsProvider, type PageFacts } from '#client/lib/site-config.ts';
import { useToasts } from '#client/lib/toast-store.ts';
import { HomePage } from './pages/home-page.tsx';
import { NotFoundPage } from './pages/not-found-page.tsx';
import { ShopPage } from './pages/shop-page.tsx';
import { SiteHeader } from './site-header.tsx';

// A meme's own page is a shared link's landing: its code loads only there.
const MemePage = lazy(() => import('./pages/meme-page.tsx'));
// So is a member's page.
const MemberPage = lazy(() => import('./pages/member-page.tsx'));

// The dialog (forms, validation, zod) loads the first time someone opens it.
const AuthDialog = lazy(() => import('#client/features/auth/auth-dialog.tsx'));
// A suspended member's appeal form, and the decision on an appeal: loaded when wanted.
const AppealDialog = lazy(() => import('#client/features/appeal/appeal-dialog.tsx'));
const AppealNotice = lazy(() => import('#client/features/appeal/appeal-notice.tsx'));
// The toasts' code (Radix's toast, a tenth of the page's JavaScript) loads with the first toast.
const Toaster = lazy(() => import('#client/ui/toaster.tsx'));
// Raid mode is rare: its notice, and the read of whether it is on, wait until the page is idle.
const RaidNotice = lazyWhenIdle(() => import('./raid-notice.tsx'));
// The footer is at the bottom of every page: it comes alive as it comes near, or when idle.
const SiteFooter = lazyNearOrIdle(
  'contact',
  async () => (await import('./site-footer.tsx')).SiteFooter,
);

function AuthDialogWhenWanted() {
  const { everOpened } = useAuthDialog();
  return everOpened ? (
    <Suspense fallback={null}>
      <AuthDialog />
    </Suspense>
  ) : null;
}

function AppealWhenWanted() {
  const { everOpened, notice } = useAppeal();
  return (
    <Suspense fallback={null}>
      {everOpened && <AppealDialog />}
      {notice && <AppealNotice />}
    </Suspense>
  );
}

function ToasterWhenWanted() {
  return useToasts().length > 0 ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

/**
 * The whole site. The server renders it once per page at start (`ssrPath` names the page), the
 * browser hydrates that HTML; `facts` are the site's facts the page was rendered with.
 */
export function App({ facts, ssrPath }: { facts: PageFacts; ssrPath?: string }) {
  return (
    <PageFactsProvider facts={facts}>
      <Router ssrPath={ssrPath}>
        <div className="flex min-h-screen flex-col">
          <SiteHeader />
          <Suspense fallback={null}>
            <RaidNotice />
          </Suspense>
          <main className="flex-1">
            <Switch>
              <Route path="/" component={HomePage} />
              <Route path="/shop" component={ShopPage} />
              <Route path={memePaths.page}>
                {(params) =>
                  /^[1-9][0-9]{0,9}$/.test(params.id) ? (
                    <Suspense fallback={null}>
                      <MemePage id={Number(params.id)} />
                    </Suspense>
                  ) : (
                    <NotFoundPage />
                  )
                }
              </Route>
              <Route path={memberPaths.page}>
                {(params) => (
                  <Suspense fallback={<div className="min-h-[60vh]" aria-busy="true" />}>
                    <MemberPage username={params.username} />
                  </Suspense>
                )}
              </Route>
              <Route component={NotFoundPage} />
            </Switch>
          </main>
          <Suspense fallback={null}>
            <SiteFooter />
          </Suspense>
        </div>
        <AuthDialogWhenWanted />
        <AppealWhenWanted />
        <ToasterWhenWanted />
      </Router>
    </PageFactsProvider>
  );
}
