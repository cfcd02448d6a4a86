import type { Product } from '../../../contracts/product';

/** Spec 2: Bestseller, Organic and Pre-Order badges; DESIGN.md colours with AA text contrast. */
export function ProductBadges({ product }: { product: Product }) {
  const badges = [
    product.isBestseller && { label: 'Bestseller', className: 'bg-blush-500 text-ink-900' },
    product.isOrganic && { label: 'Organic', className: 'bg-leaf-700 text-white' },
    product.isPreOrder && { label: 'Pre-Order', className: 'bg-mango-500 text-ink-900' },
  ].filter((badge): badge is { label: string; className: string } => Boolean(badge));
  if (!badges.length) return null;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Badges">
      {badges.map((badge) => (
        <li key={badge.label} className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${badge.className}`}>
          {badge.label}
        </li>
      ))}
    </ul>
  );
}
