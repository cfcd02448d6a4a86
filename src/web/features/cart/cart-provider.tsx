import { useQuery, useQueryClient } from '../../lib/query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { Cart } from '../../../contracts/cart';
import { toastDurations } from '../../../contracts/shop-rules';
import { toast } from '../../components/ui/toast';
import type * as TrackingEvents from '../../lib/analytics-events';
import { ApiError } from '../../lib/api-client';
import { useAuth } from '../auth/auth-provider';
import { cartQueryKey, fetchCart, postCartItem } from './cart-api';

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
  /** Reads the cart from the server again (an order placed empties it there). */
  reload(): Promise<void>;
}

/**
 * The queue the cart's changes wait in, for the changes a line or the cart page makes
 * (cart-changes.ts): their code comes with the controls that make them, not with every page.
 */
export interface CartQueue {
  userId: number | null;
  cart: Cart | null;
  /** Shows the server's answer as the cart. */
  replace(next: Cart): void;
  /** Runs `send` after every change before it, unless the generation it was made in (`made`) is over by then. */
  enqueue<T>(made: number, send: () => Promise<T>): Promise<T>;
  /** Bumped whenever what is queued must no longer land (another user, a reload). */
  generation: { readonly current: number };
  /** Quantities pressed for and not yet answered, by line id; `publishTargets` shows them. */
  targets: { readonly current: Map<number, number> };
  publishTargets(): void;
}

const CartContext = createContext<CartState | null>(null);
const CartQueueContext = createContext<CartQueue | null>(null);

/**
 * The tracking events' code, asked for as an add starts (not with every page), so it is usually
 * here by the time the add is answered and AddToCart goes before anything the shopper does next.
 */
function loadTrackingEvents(): Promise<typeof TrackingEvents | null> {
  return import('../../lib/analytics-events').catch((error: unknown) => {
    console.warn('Analytics could not send AddToCart:', error);
    return null;
  });
}

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
/** /auth with a way back to this page and the item to add once signed in (AuthPage reads both). */
function signInToAdd(productId: number, quantity: number): string {
  const here = `${window.location.pathname}${window.location.search}`;
  return `/auth?${new URLSearchParams({ redirect: here, add: `${productId}x${quantity}` }).toString()}`;
}

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
        // The notice leads to sign-in, which brings the shopper back here with this item added.
        toast({ title: 'Authentication Required', description: 'Please login to add items to cart', variant: 'destructive', action: { label: 'Sign in', to: signInToAdd(productId, quantity) } });
        return false;
      }
      const current = generation.current;
      const tracking = loadTrackingEvents();
      try {
        const next = await enqueue(current, () => postCartItem(userId, productId, quantity));
        if (current !== generation.current) return false;
        replace(next);
        toast(announce ?? { title: 'Added to Cart', duration: toastDurations.cart });
        const line = next.items.find((item) => item.productId === productId);
        if (line) {
          const added = { id: productId, name: line.product.name, price: line.product.price };
          // A tracking tool that throws must not turn a done add into an error.
          void tracking.then((events) => events?.trackAddToCart(added, quantity)).catch((error: unknown) => console.warn('Analytics could not send AddToCart:', error));
        }
        return true;
      } catch (error) {
        if (current === generation.current) toast({ title: 'Failed to add item to cart', description: serverMessage(error), variant: 'destructive' });
        return false;
      }
    },
    [userId, replace, enqueue],
  );

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
      reload,
    }),
    [cart, userId, query.isPending, pendingQuantities, drawerOpen, addItem, reload],
  );
  const cartQueue = useMemo<CartQueue>(
    () => ({ userId, cart, replace, enqueue, generation, targets, publishTargets }),
    [userId, cart, replace, enqueue, publishTargets],
  );
  return (
    <CartContext.Provider value={value}>
      <CartQueueContext.Provider value={cartQueue}>{children}</CartQueueContext.Provider>
    </CartContext.Provider>
  );
}

export function useCart(): CartState {
  const state = useContext(CartContext);
  if (!state) throw new Error('useCart needs <CartProvider>');
  return state;
}

export function useCartQueue(): CartQueue {
  const queue = useContext(CartQueueContext);
  if (!queue) throw new Error('useCartQueue needs <CartProvider>');
  return queue;
}
