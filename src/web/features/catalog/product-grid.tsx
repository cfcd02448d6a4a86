import { Link } from 'react-router';
import type { Product } from '../../../contracts/product';
import { formatPrice } from '../../lib/format';

/** DESIGN.md: 1 column at 390 px, 2 at 640, 3 at 1024, 4 at 1280. */
export function ProductGrid({ products, eagerCount = 0 }: { products: Product[]; eagerCount?: number }) {
  return (
    <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
      {products.map((product, index) => (
        <li key={product.id} className="overflow-hidden rounded-2xl bg-white shadow-sm transition-shadow hover:shadow-md">
          <Link to={`/product/${product.id}`} className="block">
            <img
              src={product.imageUrl}
              alt={product.name}
              width={800}
              height={600}
              loading={index < eagerCount ? 'eager' : 'lazy'}
              className="aspect-[4/3] w-full object-cover"
            />
            <div className="space-y-1 p-5">
              <p className="text-sm text-ink-500">{product.category}</p>
              <h3 className="text-lg font-semibold">{product.name}</h3>
              <p className="font-semibold tabular-nums">{formatPrice(product.price)}</p>
            </div>
          </Link>
        </li>
      ))}
    </ul>
  );
}
