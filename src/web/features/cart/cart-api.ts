import type { Cart } from '../../../contracts/cart';
import { apiRequest } from '../../lib/api-client';

/** Spec 7's cart calls, scoped by user id; every change answers the whole cart. */
export const cartQueryKey = (userId: number) => ['cart', userId] as const;

export const fetchCart = (userId: number, signal?: AbortSignal) => apiRequest<Cart>(`/api/cart/${userId}`, { signal });

export const postCartItem = (userId: number, productId: number, quantity: number) =>
  apiRequest<Cart>(`/api/cart/${userId}/items`, { method: 'POST', body: { productId, quantity } });

export const putCartItem = (userId: number, itemId: number, quantity: number) =>
  apiRequest<Cart>(`/api/cart/${userId}/items/${itemId}`, { method: 'PUT', body: { quantity } });

export const deleteCartItem = (userId: number, itemId: number) => apiRequest<Cart>(`/api/cart/${userId}/items/${itemId}`, { method: 'DELETE' });

export const deleteCart = (userId: number) => apiRequest<unknown>(`/api/cart/${userId}`, { method: 'DELETE' });
