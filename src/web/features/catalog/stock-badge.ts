import type { Product } from '../../../contracts/product';

export type StockBadge = 'Out of Stock' | 'Low Stock' | 'In Stock' | 'Available for Pre-Order' | 'Pre-Orders Full';

/**
 * Spec 4: stock 0 is Out of Stock; above 0 with isLowStock is Low Stock; else In Stock or pre-order.
 * A pre-order product whose limit is reached says so (the shop's addition).
 */
export function stockBadge(product: Pick<Product, 'stock' | 'isLowStock' | 'isPreOrder' | 'preOrdersFull'>): StockBadge {
  if (product.isPreOrder) return product.preOrdersFull ? 'Pre-Orders Full' : 'Available for Pre-Order';
  if (product.stock === 0) return 'Out of Stock';
  return product.isLowStock ? 'Low Stock' : 'In Stock';
}
