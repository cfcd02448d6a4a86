import type { Product } from '../../../contracts/product';

/** "$45.00 a box as a season box (10% off)" needs the percent only when there is one. */
export function discountWords(discountPercent: number): string {
  return discountPercent > 0 ? ` (${discountPercent}% off)` : '';
}

/** Whether a product is offered as a season box today: subscribable, from stock rather than a pre-order, its season not over. */
export function offersSeasonBox(product: Pick<Product, 'subscribable' | 'isPreOrder' | 'seasonEndsOn'>, today: string): boolean {
  return product.subscribable && !product.isPreOrder && (product.seasonEndsOn === null || product.seasonEndsOn >= today);
}
