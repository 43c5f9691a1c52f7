import { lazy, Suspense } from 'react';

// The shop (its schemas, the character drawings) loads only when someone opens /shop.
const ShopView = lazy(() => import('#client/features/shop/shop-view.tsx'));

export function ShopPage() {
  return (
    <Suspense fallback={<div className="min-h-[60vh]" aria-busy="true" />}>
      <ShopView />
    </Suspense>
  );
}
