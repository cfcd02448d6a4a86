import { lazy, Suspense } from 'react';
import { useOpenedOnce } from '../../components/ui/on-demand';
import { usePreOrderChoice } from './pre-order-store';

const PreOrderSignInPanel = lazy(() => import('./pre-order-sign-in-panel'));

/** Spec 2's 'Almost There!' dialog; its code loads when a visitor first tries to complete a pre-order. */
export function PreOrderSignIn() {
  const opened = useOpenedOnce(usePreOrderChoice() !== null);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <PreOrderSignInPanel />
    </Suspense>
  );
}
