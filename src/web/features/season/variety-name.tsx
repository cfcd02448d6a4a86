import { Bell } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { waitlistOpen } from '../../../contracts/availability';
import type { Product } from '../../../contracts/product';
import { Dialog, DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';

// The form loads when a shopper first asks, not with the home page.
const NotifyMe = lazy(() => import('../waitlist/notify-me').then((module) => ({ default: module.NotifyMe })));

/**
 * A chart row's variety: a link to its product while it can be bought, and a "Notify me" bell
 * while it is sold out or its pre-orders are full. A variety the shop does not sell is its name.
 */
export function VarietyName({ name, product }: { name: string; product: Product | undefined }) {
  const [asking, setAsking] = useState(false);
  if (!product) return <>{name}</>;
  if (!waitlistOpen(product)) {
    return (
      <Link to={`/product/${product.id}`} className="underline decoration-mango-500/60 underline-offset-4 hover:text-mango-700">
        {name}
      </Link>
    );
  }
  return (
    <span className="inline-flex items-center gap-1">
      {name}
      <button
        type="button"
        onClick={() => setAsking(true)}
        aria-label={`Notify me when ${name} is back`}
        title="Notify me"
        className="-my-2 inline-flex size-9 items-center justify-center rounded-full text-mango-700 hover:bg-mango-500/20"
      >
        <Bell className="size-4" aria-hidden="true" />
      </button>
      <Dialog open={asking} onOpenChange={setAsking} title={`Notify me when ${name} is back`} titled>
        <div className="grid gap-4">
          <header className="pr-8">
            <DialogTitle className="font-serif text-2xl font-semibold">Notify me when {name} is back</DialogTitle>
            <DialogDescription className="mt-1 text-ink-500">
              {product.name} {product.isPreOrder ? 'is fully pre-ordered' : 'is sold out'} for now.
            </DialogDescription>
          </header>
          <Suspense fallback={<Spinner compact label="Loading..." />}>
            <NotifyMe product={product} startOpen />
          </Suspense>
        </div>
      </Dialog>
    </span>
  );
}
