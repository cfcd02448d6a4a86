import type { Product } from '../../../contracts/product';
import { stockBadge } from './stock-badge';

const tone = {
  'In Stock': 'text-leaf-700',
  'Low Stock': 'text-mango-700',
  'Out of Stock': 'text-danger-600',
  'Available for Pre-Order': 'text-ink-900',
  'Pre-Orders Full': 'text-danger-600',
} as const;

export function StockLabel({ product }: { product: Product }) {
  const badge = stockBadge(product);
  return <p className={`text-sm font-semibold ${tone[badge]}`}>{badge}</p>;
}
