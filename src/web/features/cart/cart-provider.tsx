import { useQuery, useQueryClient } from '../../lib/query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { Cart } from '../../../contracts/cart';
import { toastDurations } from '../../../contracts/shop-rules';
import { toast } from '../../components/ui/toast';
import { trackAddToCart } from '../../lib/analytics';
import { ApiError } from '../../lib/api-client';
import { useAuth } from '../auth/auth-provider';
import { cartQueryKey, deleteCart, deleteCartItem, fetchCart, postCartItem, putCartItem } from './cart-api';

interface CartState {
  cart: Cart | null;
  loading: boolean;
  /** Quantities pressed for but not yet answered by the server, by cart line id. */
  pendingQuantities: ReadonlyMap<number, number>;
  /** The cart's total in cents, with the quantities pressed for in place of the server's. */
  subtotal: number;
  itemCount: number;
  drawerOpen: boolean;
  setDrawerOpen(open: boolean): void;
  /** `announce` replaces the 'Added to Cart' toast (a pre-order has its own). */
  addItem(productId: number, quantity: number, announce?: { title: string; description?: string; duration?: number }): Promise<boolean>;
  updateItem(itemId: number, quantity: number): Promise<void>;
  removeItem(itemId: number): Promise<void>;
  clear(): Promise<void>;
  /** Reads the cart from the server again (an order placed empties it there). */
  reload(): Promise<void>;
}

const CartContext = createContext<CartState | null>(null);

function serverMessage(error: unknown): string | undefined {
  return error instanceof ApiError ? error.body?.message : undefined;
}

/**
 * Spec 4: the cart reloads whenever the signed-in user changes and is empty without one; every
 * change replaces it with the server's answer, except clear, which empties it locally.
 *
 * Changes go to the server one at a time, in the order they were made, so answers cannot arrive
 * out of order. Presses on a line's plus and minus while its update is on its way move that
 * line's pending quantity, which the line shows at once; when the answer comes, one more update
 * sends the latest quantity. Removing the line, clearing the cart, reloading it or another user
 * drops what was pending: a change still queued is not sent, and the answer of one on its way is
 * not shown (a reload reads the cart once it is answered).
 */
export function CartProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const queryClient = useQueryClient();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const query = useQuery({
    queryKey: cartQueryKey(userId ?? 0),
    queryFn: ({ signal }) => fetchCart(userId!, signal),
    enabled: userId !== null,
  });

  useEffect(() => {
    if (query.error) {
      toast({ title: 'Error', description: `Failed to fetch your cart: ${serverMessage(query.error) ?? 'Unknown error'}`, variant: 'destructive' });
    }
  }, [query.error]);

  const cart = userId === null ? null : (query.data ?? null);
  const replace = useCallback((next: Cart) => queryClient.setQueryData(cartQueryKey(next.userId), next), [queryClient]);

  const queue = useRef<Promise<unknown>>(Promise.resolve());
  /** Bumped whenever what is queued must no longer land (another user, a reload). */
  const generation = useRef(0);
  const targets = useRef(new Map<number, number>());
  const [pendingQuantities, setPendingQuantities] = useState<ReadonlyMap<number, number>>(() => new Map());
  const publishTargets = useCallback(() => setPendingQuantities(new Map(targets.current)), []);
  /** Runs `send` after every change before it, unless what it was made for (`made`) is gone by then. */
  const enqueue = useCallback(<T,>(made: number, send: () => Promise<T>): Promise<T> => {
    const run = queue.current.then(() => (made === generation.current ? send() : Promise.reject(new Error('The cart changed hands'))));
    queue.current = run.catch(() => undefined);
    return run;
  }, []);
  const dropQueued = useCallback(() => {
    generation.current += 1;
    targets.current.clear();
    publishTargets();
  }, [publishTargets]);
  useEffect(() => dropQueued, [userId, dropQueued]);

  const addItem = useCallback(
    async (productId: number, quantity: number, announce?: { title: string; description?: string; duration?: number }) => {
      if (userId === null) {
        toast({ title: 'Authentication Required', description: 'Please login to add items to cart', variant: 'destructive' });
        return false;
      }
      const current = generation.current;
      try {
        const next = await enqueue(current, () => postCartItem(userId, productId, quantity));
        if (current !== generation.current) return false;
        replace(next);
        toast(announce ?? { title: 'Added to Cart', duration: toastDurations.cart });
        const line = next.items.find((item) => item.productId === productId);
        if (line) trackAddToCart({ id: productId, name: line.product.name, price: line.product.price }, quantity);
        return true;
      } catch (error) {
        if (current === generation.current) toast({ title: 'Failed to add item to cart', description: serverMessage(error), variant: 'destructive' });
        return false;
      }
    },
    [userId, replace, enqueue],
  );

  // Spec 5: update, remove and clear do nothing without a user and a loaded cart.
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
    [userId, cart, replace, enqueue, publishTargets],
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
    [userId, cart, replace, enqueue, publishTargets],
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
  }, [userId, cart, replace, enqueue, publishTargets]);

  const reload = useCallback(async () => {
    dropQueued();
    if (userId === null) return;
    // After the change on its way, if any: its answer must not land after the cart read here.
    await enqueue(generation.current, () => queryClient.invalidateQueries({ queryKey: cartQueryKey(userId) })).catch(() => undefined);
  }, [userId, queryClient, dropQueued, enqueue]);

  const value = useMemo<CartState>(
    () => ({
      cart,
      loading: userId !== null && query.isPending,
      pendingQuantities,
      subtotal: cart ? cart.totalPrice + cart.items.reduce((sum, item) => sum + item.product.price * ((pendingQuantities.get(item.id) ?? item.quantity) - item.quantity), 0) : 0,
      itemCount: cart?.items.reduce((sum, item) => sum + (pendingQuantities.get(item.id) ?? item.quantity), 0) ?? 0,
      drawerOpen,
      setDrawerOpen,
      addItem,
      updateItem,
      removeItem,
      clear,
      reload,
    }),
    [cart, userId, query.isPending, pendingQuantities, drawerOpen, addItem, updateItem, removeItem, clear, reload],
  );
  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}

export function useCart(): CartState {
  const state = useContext(CartContext);
  if (!state) throw new Error('useCart needs <CartProvider>');
  return state;
}
