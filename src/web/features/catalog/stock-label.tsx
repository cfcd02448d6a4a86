import type { Product } from '../../../contracts/product';
import { useOpening } from '../pre-order/opening';
import { stockBadge } from './stock-badge';

const tone = {
  'In Stock': 'text-leaf-700',
  'Low Stock': 'text-mango-700',
  'Out of Stock': 'text-danger-600',
  'Available for Pre-Order': 'text-ink-900',
  'Pre-Orders Full': 'text-danger-600',
  'Pre-Orders Open Soon': 'text-mango-700',
} as const;

export function StockLabel({ product }: { product: Product }) {
  const badge = stockBadge(product, useOpening(product).opensLater);
  return <p className={`text-sm font-semibold ${tone[badge]}`}>{badge}</p>;
}
