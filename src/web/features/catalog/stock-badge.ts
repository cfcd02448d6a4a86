import type { Product } from '../../../contracts/product';

export type StockBadge = 'Out of Stock' | 'Low Stock' | 'In Stock' | 'Available for Pre-Order' | 'Pre-Orders Full' | 'Pre-Orders Open Soon';

/**
 * Spec 4: stock 0 is Out of Stock; above 0 with isLowStock is Low Stock; else In Stock or pre-order.
 * A pre-order product whose limit is reached, or whose pre-orders open later, says so (the shop's
 * additions).
 */
export function stockBadge(product: Pick<Product, 'stock' | 'isLowStock' | 'isPreOrder' | 'preOrdersFull'>, opensLater = false): StockBadge {
  if (product.isPreOrder) return opensLater ? 'Pre-Orders Open Soon' : product.preOrdersFull ? 'Pre-Orders Full' : 'Available for Pre-Order';
  if (product.stock === 0) return 'Out of Stock';
  return product.isLowStock ? 'Low Stock' : 'In Stock';
}
