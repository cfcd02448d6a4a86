import { Eye } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type { Product } from '../../../contracts/product';
import { useOpenedOnce } from '../../components/ui/on-demand';

// The dialog's own code comes with it, not after it: one wait on the first open, not two.
const QuickViewDialog = lazy(async () => (await Promise.all([import('./quick-view-dialog'), import('../../components/ui/dialog-panel')]))[0]);

/** Spec 2's Quick View: the product's details and purchase controls without leaving the list. */
export function QuickView({ product }: { product: Product }) {
  const [open, setOpen] = useState(false);
  const opened = useOpenedOnce(open);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label={`Quick View of ${product.name}`}
        className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-white/90 text-ink-900 shadow-sm backdrop-blur hover:bg-mango-50"
      >
        <Eye className="size-4" aria-hidden="true" />
      </button>
      {opened && (
        <Suspense fallback={null}>
          <QuickViewDialog product={product} open={open} setOpen={setOpen} />
        </Suspense>
      )}
    </>
  );
}
