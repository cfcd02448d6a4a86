import { lazy, Suspense } from 'react';
import { useOpenedOnce } from '../../components/ui/on-demand';
import { usePreOrderChoice } from './pre-order-store';

const PreOrderSignInPanel = lazy(() => {
  // The dialog's panel and the form are asked for with it, not each once the one before has run.
  void import('../../components/ui/dialog-panel').catch(() => undefined);
  void import('./pre-order-form').catch(() => undefined);
  return import('./pre-order-sign-in-panel');
});

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
