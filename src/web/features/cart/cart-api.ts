import type { Cart } from '../../../contracts/cart';
import { apiRequest } from '../../lib/api-client';

/**
 * Spec 7's cart calls, scoped by user id; every change answers the whole cart (a line's changes
 * and clearing the cart are in cart-changes.ts, with the controls that make them). Changes go one
 * at a time (cart-provider.tsx), so one that never answers would hold every later one: it is given
 * up after this long, and the shopper is told it failed.
 */
export const changeTimeoutMs = 15_000;

export const cartQueryKey = (userId: number) => ['cart', userId] as const;

export const fetchCart = (userId: number, signal?: AbortSignal) => apiRequest<Cart>(`/api/cart/${userId}`, { signal });

export const postCartItem = (userId: number, productId: number, quantity: number) =>
  apiRequest<Cart>(`/api/cart/${userId}/items`, { method: 'POST', body: { productId, quantity }, signal: AbortSignal.timeout(changeTimeoutMs) });
