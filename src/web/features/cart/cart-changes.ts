import { useCallback, useMemo } from 'react';
import { toastDurations } from '../../../contracts/shop-rules';
import { toast } from '../../components/ui/toast';
import type { Cart } from '../../../contracts/cart';
import { apiRequest } from '../../lib/api-client';
import { changeTimeoutMs } from './cart-api';
import { useCartQueue } from './cart-provider';

const putCartItem = (userId: number, itemId: number, quantity: number) =>
  apiRequest<Cart>(`/api/cart/${userId}/items/${itemId}`, { method: 'PUT', body: { quantity }, signal: AbortSignal.timeout(changeTimeoutMs) });

const deleteCartItem = (userId: number, itemId: number) => apiRequest<Cart>(`/api/cart/${userId}/items/${itemId}`, { method: 'DELETE', signal: AbortSignal.timeout(changeTimeoutMs) });

const deleteCart = (userId: number) => apiRequest<unknown>(`/api/cart/${userId}`, { method: 'DELETE', signal: AbortSignal.timeout(changeTimeoutMs) });

interface CartChanges {
  updateItem(itemId: number, quantity: number): Promise<void>;
  removeItem(itemId: number): Promise<void>;
  clear(): Promise<void>;
}

/**
 * A line's plus, minus and remove, and clearing the cart (spec 4 and 5), in the cart's queue
 * (cart-provider.tsx). Only the cart's lines and the cart page make them, so their code comes with
 * those, not with every page. Without a user and a loaded cart they do nothing (spec 5).
 */
export function useCartChanges(): CartChanges {
  const { userId, cart, replace, enqueue, generation, targets, publishTargets } = useCartQueue();

  const updateItem = useCallback(
    async (itemId: number, quantity: number) => {
      if (userId === null || !cart) return;
      const alreadyQueued = targets.current.has(itemId);
      targets.current.set(itemId, quantity);
      publishTargets();
      if (alreadyQueued) return;
      const current = generation.current;
      await enqueue(current, async () => {
        for (;;) {
          const wanted = targets.current.get(itemId);
          if (current !== generation.current || wanted === undefined) return;
          try {
            const next = await putCartItem(userId, itemId, wanted);
            if (current !== generation.current) return;
            replace(next);
            if (targets.current.get(itemId) === wanted) {
              targets.current.delete(itemId);
              publishTargets();
              return;
            }
          } catch {
            if (current !== generation.current) return;
            targets.current.delete(itemId);
            publishTargets();
            toast({ title: 'Failed to update cart. Please try again.', variant: 'destructive' });
            return;
          }
        }
      }).catch(() => undefined);
    },
    [userId, cart, replace, enqueue, generation, targets, publishTargets],
  );

  const removeItem = useCallback(
    async (itemId: number) => {
      if (userId === null || !cart) return;
      targets.current.delete(itemId);
      publishTargets();
      const current = generation.current;
      try {
        const next = await enqueue(current, () => deleteCartItem(userId, itemId));
        if (current !== generation.current) return;
        replace(next);
        toast({ title: 'Removed from Cart', duration: toastDurations.cart });
      } catch {
        if (current === generation.current) toast({ title: 'Failed to remove item from cart', variant: 'destructive' });
      }
    },
    [userId, cart, replace, enqueue, generation, targets, publishTargets],
  );

  const clear = useCallback(async () => {
    if (userId === null || !cart) return;
    targets.current.clear();
    publishTargets();
    const current = generation.current;
    try {
      await enqueue(current, () => deleteCart(userId));
      if (current !== generation.current) return;
      replace({ ...cart, items: [], itemCount: 0, totalPrice: 0 });
      toast({ title: 'Cart Cleared', duration: toastDurations.cart });
    } catch {
      if (current === generation.current) toast({ title: 'Failed to clear your cart', variant: 'destructive' });
    }
  }, [userId, cart, replace, enqueue, generation, targets, publishTargets]);

  return useMemo(() => ({ updateItem, removeItem, clear }), [updateItem, removeItem, clear]);
}
