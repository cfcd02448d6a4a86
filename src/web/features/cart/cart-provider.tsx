import { useQuery, useQueryClient } from '../../lib/query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
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

  const addItem = useCallback(
    async (productId: number, quantity: number, announce?: { title: string; description?: string; duration?: number }) => {
      if (userId === null) {
        toast({ title: 'Authentication Required', description: 'Please login to add items to cart', variant: 'destructive' });
        return false;
      }
      try {
        const next = await postCartItem(userId, productId, quantity);
        replace(next);
        toast(announce ?? { title: 'Added to Cart', duration: toastDurations.cart });
        const line = next.items.find((item) => item.productId === productId);
        if (line) trackAddToCart({ id: productId, name: line.product.name, price: line.product.price }, quantity);
        return true;
      } catch (error) {
        toast({ title: 'Failed to add item to cart', description: serverMessage(error), variant: 'destructive' });
        return false;
      }
    },
    [userId, replace],
  );

  // Spec 5: update, remove and clear do nothing without a user and a loaded cart.
  const updateItem = useCallback(
    async (itemId: number, quantity: number) => {
      if (userId === null || !cart) return;
      try {
        replace(await putCartItem(userId, itemId, quantity));
      } catch {
        toast({ title: 'Failed to update cart. Please try again.', variant: 'destructive' });
      }
    },
    [userId, cart, replace],
  );

  const removeItem = useCallback(
    async (itemId: number) => {
      if (userId === null || !cart) return;
      try {
        replace(await deleteCartItem(userId, itemId));
        toast({ title: 'Removed from Cart', duration: toastDurations.cart });
      } catch {
        toast({ title: 'Failed to remove item from cart', variant: 'destructive' });
      }
    },
    [userId, cart, replace],
  );

  const clear = useCallback(async () => {
    if (userId === null || !cart) return;
    try {
      await deleteCart(userId);
      replace({ ...cart, items: [], itemCount: 0, totalPrice: 0 });
      toast({ title: 'Cart Cleared', duration: toastDurations.cart });
    } catch {
      toast({ title: 'Failed to clear your cart', variant: 'destructive' });
    }
  }, [userId, cart, replace]);

  const reload = useCallback(async () => {
    if (userId !== null) await queryClient.invalidateQueries({ queryKey: cartQueryKey(userId) });
  }, [userId, queryClient]);

  const value = useMemo<CartState>(
    () => ({
      cart,
      loading: userId !== null && query.isPending,
      itemCount: cart?.items.reduce((sum, item) => sum + item.quantity, 0) ?? 0,
      drawerOpen,
      setDrawerOpen,
      addItem,
      updateItem,
      removeItem,
      clear,
      reload,
    }),
    [cart, userId, query.isPending, drawerOpen, addItem, updateItem, removeItem, clear, reload],
  );
  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}

export function useCart(): CartState {
  const state = useContext(CartContext);
  if (!state) throw new Error('useCart needs <CartProvider>');
  return state;
}
