import { lazy, Suspense } from 'react';
import { Dialog, DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { closePreOrderSignIn, usePreOrderChoice } from './pre-order-store';

const PreOrderSignInForm = lazy(() => import('./pre-order-form'));

/** Spec 2: 'Almost There!' appears over any page when a visitor tries to complete a pre-order. */
export default function PreOrderSignInPanel() {
  const product = usePreOrderChoice();
  return (
    <Dialog open={product !== null} onOpenChange={(open) => !open && closePreOrderSignIn()} title="Almost There!" titled>
      {product && (
        <div className="grid gap-5">
          <header className="pr-8">
            <DialogTitle className="font-serif text-2xl font-semibold">Almost There!</DialogTitle>
            <DialogDescription className="mt-1 text-ink-500">Sign In to Complete Your {product.productName} Pre-Order!</DialogDescription>
          </header>
          <Suspense fallback={<Spinner label="Loading sign-in..." compact />}>
            <PreOrderSignInForm key={product.productId} product={product} />
          </Suspense>
        </div>
      )}
    </Dialog>
  );
}
