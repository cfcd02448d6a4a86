import type { Product } from './product';

/**
 * "Notify me" is offered while a product cannot be bought: out of stock, or a pre-order whose
 * limit is reached (hidden products are never shown). No schema library here: the home page's
 * seasonal chart uses it.
 */
export function waitlistOpen(product: Pick<Product, 'isPreOrder' | 'stock' | 'preOrdersFull'>): boolean {
  return product.isPreOrder ? product.preOrdersFull : product.stock === 0;
}
