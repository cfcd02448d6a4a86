import { lazy, Suspense } from 'react';
import { useOpenedOnce } from '../../components/ui/on-demand';
import { useCart } from './cart-provider';

const CartDrawerPanel = lazy(() => import('./cart-drawer-panel'));

/** Spec 2's cart drawer; its code loads when it is first opened. */
export function CartDrawer() {
  const { drawerOpen } = useCart();
  if (!useOpenedOnce(drawerOpen)) return null;
  return (
    <Suspense fallback={null}>
      <CartDrawerPanel />
    </Suspense>
  );
}
