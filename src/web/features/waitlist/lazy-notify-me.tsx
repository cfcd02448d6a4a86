import { lazy, Suspense } from 'react';
import type { Product } from '../../../contracts/product';

// The form's code (fields, validation, the API) loads with the first product that needs it.
const NotifyMe = lazy(() => import('./notify-me').then((module) => ({ default: module.NotifyMe })));

/** "Notify me", loaded on demand; its space stays empty for the moment it loads. */
export function LazyNotifyMe({ product, waitsFor }: { product: Pick<Product, 'id' | 'name'>; waitsFor?: 'back' | 'opening' }) {
  return (
    <Suspense fallback={<div className="h-10" />}>
      <NotifyMe product={product} waitsFor={waitsFor} />
    </Suspense>
  );
}
