import { Bell } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { soldOut } from '../../../contracts/availability';
import type { Product } from '../../../contracts/product';
import { useOpening } from '../pre-order/opening';

// The dialog and its form load when a shopper first asks, not with the home page.
const NotifyDialog = lazy(() => import('../waitlist/notify-dialog'));

/**
 * A chart row's variety: a link to its product while it can be bought, and a "Notify me" bell
 * while it is sold out or its pre-orders are full. A variety the shop does not sell is its name.
 */
export function VarietyName({ name, product }: { name: string; product: Product | undefined }) {
  const [asking, setAsking] = useState<boolean | null>(null);
  const opening = useOpening(product ?? { isPreOrder: false, preOrdersOpenAt: null });
  if (!product) return <>{name}</>;
  if (!soldOut(product) && !opening.opensLater) {
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
        aria-label={product.isPreOrder && !product.preOrdersFull ? `Notify me when pre-orders for ${name} open` : `Notify me when ${name} is back`}
        title="Notify me"
        className="-my-2 inline-flex size-9 items-center justify-center rounded-full text-mango-700 hover:bg-mango-500/20"
      >
        <Bell className="size-4" aria-hidden="true" />
      </button>
      {asking !== null && (
        <Suspense fallback={null}>
          <NotifyDialog name={name} product={product} open={asking} onOpenChange={setAsking} />
        </Suspense>
      )}
    </span>
  );
}
