import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Route, Switch } from 'wouter';
import { useAuthDialog } from '#client/lib/auth-dialog-store.ts';
import { createQueryClient } from '#client/lib/query-client.ts';
import { Toaster } from '#client/ui/toaster.tsx';
import { HomePage } from './pages/home-page.tsx';
import { NotFoundPage } from './pages/not-found-page.tsx';
import { ShopPage } from './pages/shop-page.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

// A meme's own page is a shared link's landing: its code loads only there.
const MemePage = lazy(() => import('./pages/meme-page.tsx'));

// The dialog (forms, validation, zod) loads the first time someone opens it.
const AuthDialog = lazy(() => import('#client/features/auth/auth-dialog.tsx'));

function AuthDialogWhenWanted() {
  const { everOpened } = useAuthDialog();
  return everOpened ? (
    <Suspense fallback={null}>
      <AuthDialog />
    </Suspense>
  ) : null;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <div className="flex min-h-screen flex-col">
        <SiteHeader />
        <main className="flex-1">
          <Switch>
            <Route path="/" component={HomePage} />
            <Route path="/shop" component={ShopPage} />
            <Route path="/memes/:id">
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
            <Route component={NotFoundPage} />
          </Switch>
        </main>
        <SiteFooter />
      </div>
      <AuthDialogWhenWanted />
      <Toaster />
    </QueryClientProvider>
  );
}
