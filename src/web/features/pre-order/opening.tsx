import { useQueryClient } from '../../lib/query';
import { useEffect, useRef } from 'react';
import { formatOpening } from '../../../contracts/availability';
import type { Product } from '../../../contracts/product';
import { formatTimeLeft, useTimeUntil } from '../../lib/shop-clock';
import { productsQueryKey } from '../catalog/use-products';

type Opening = Pick<Product, 'isPreOrder' | 'preOrdersOpenAt'>;

/**
 * Whether the product's pre-orders open later, by the shop's clock, and how long until they do.
 * It turns by itself at the instant: the component drawing it then offers "Pre-order".
 */
export function useOpening(product: Opening): { opensLater: boolean; left: number } {
  const left = useTimeUntil(product.isPreOrder ? product.preOrdersOpenAt : null);
  const opensLater = left !== null && left > 0;
  // At the instant the products are asked for again: staff may have moved the opening meanwhile,
  // and the page then counts down to the new time instead of turning.
  const queryClient = useQueryClient();
  const counted = useRef(false);
  useEffect(() => {
    if (opensLater) counted.current = true;
    else if (counted.current) {
      counted.current = false;
      void queryClient.invalidateQueries({ queryKey: productsQueryKey });
    }
  }, [opensLater, queryClient]);
  return { opensLater, left: left ?? 0 };
}

/** "Opens Friday 4 December at 7:00 pm", and the time left, ticking. */
export function OpeningNotice({ product, left, compact = false }: { product: Opening; left: number; compact?: boolean }) {
  if (!product.preOrdersOpenAt) return null;
  return (
    <div className={compact ? 'text-sm' : 'rounded-2xl bg-mango-50 p-4'}>
      <p className="font-semibold">
        Opens <time dateTime={product.preOrdersOpenAt}>{formatOpening(product.preOrdersOpenAt)}</time>
      </p>
      <p className={compact ? 'text-ink-500' : 'text-sm text-ink-500'}>
        Pre-orders open in{' '}
        <span role="timer" className="font-semibold tabular-nums text-ink-900">
          {formatTimeLeft(left)}
        </span>
      </p>
    </div>
  );
}
