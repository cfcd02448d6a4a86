import { Check } from 'lucide-react';
import { useState } from 'react';
import { soldOut } from '../../../contracts/availability';
import type { Product } from '../../../contracts/product';
import { shopRules, toastDurations } from '../../../contracts/shop-rules';
import { Button } from '../../components/ui/button';
import { QuantityStepper } from '../../components/ui/quantity-stepper';
import { formatDate } from '../../lib/format';
import { useAuth } from '../auth/auth-provider';
import { useCart } from '../cart/cart-provider';
import { openPreOrderSignIn } from '../pre-order/pre-order-store';
import { OpeningNotice, useOpening } from '../pre-order/opening';
import { LazyNotifyMe } from '../waitlist/lazy-notify-me';
import { useSuccessReset } from './use-success-reset';

/**
 * Quantity and Add to Cart (or Pre-Order Now); after adding, a 2-second success state (spec 4, 9).
 * A visitor's pre-order opens the pre-order sign-in modal; `beforeSignIn` lets a dialog close first.
 */
export function PurchasePanel({ product, beforeSignIn }: { product: Product; beforeSignIn?: () => void }) {
  const { user } = useAuth();
  const { addItem } = useCart();
  const [quantity, setQuantity] = useState(1);
  const [state, setState] = useState<'idle' | 'busy' | 'added'>('idle');
  const max = product.isPreOrder ? shopRules.maxPreOrderQuantityPerLine : product.stock;
  const opening = useOpening(product);

  useSuccessReset(state === 'added', () => {
    setState('idle');
    setQuantity(1);
  });

  if (opening.opensLater) {
    return (
      <div className="grid gap-3">
        <OpeningNotice product={product} left={opening.left} />
        <LazyNotifyMe product={product} waitsFor="opening" />
      </div>
    );
  }

  if (soldOut(product)) {
    return (
      <div className="grid gap-3">
        <Button disabled className="w-full sm:w-auto sm:justify-self-start">{product.isPreOrder ? 'Pre-Orders Full' : 'Out of Stock'}</Button>
        <LazyNotifyMe product={product} />
      </div>
    );
  }

  async function add() {
    if (product.isPreOrder && !user) {
      beforeSignIn?.();
      return openPreOrderSignIn({ productId: product.id, productName: product.name });
    }
    setState('busy');
    const announce = product.isPreOrder
      ? {
          title: 'Pre-Order Placed',
          description: `${product.name} has been pre-ordered successfully. Expected availability: ${product.expectedAvailabilityDate ? formatDate(product.expectedAvailabilityDate) : 'to be confirmed'}`,
          duration: toastDurations.preOrder,
        }
      : undefined;
    setState((await addItem(product.id, quantity, announce)) ? 'added' : 'idle');
  }

  return (
    <div className="flex flex-wrap items-center gap-4">
      <QuantityStepper value={quantity} max={max} onChange={setQuantity} label={`Quantity of ${product.name}`} disabled={state !== 'idle'} />
      <Button onClick={() => void add()} disabled={state !== 'idle'} className="min-w-40">
        {state === 'added' ? (
          <>
            <Check className="size-4" aria-hidden="true" /> Added!
          </>
        ) : state === 'busy' ? (
          'Adding...'
        ) : product.isPreOrder ? (
          'Pre-Order Now'
        ) : (
          'Add to Cart'
        )}
      </Button>
    </div>
  );
}
