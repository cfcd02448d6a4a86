import { OriginLine } from './origin-line';
import { Link } from 'react-router';
import type { Product } from '../../../contracts/product';
import { shopRules } from '../../../contracts/shop-rules';
import { formatDate, formatPrice } from '../../lib/format';
import { cutDescription } from './card-text';
import { CardPurchase } from './card-purchase';
import { ProductBadges } from './product-badges';
import { ProductRating } from './product-rating';
import { QuickView } from './quick-view';
import { StockLabel } from './stock-label';
import { type ImageLoading, ResponsiveImage } from '../../components/ui/responsive-image';

/** Spec 2's product card: image and title lead to /product/{id}. */
function ProductCard({ product, loading }: { product: Product; loading: ImageLoading }) {
  return (
    <article className="relative flex h-full flex-col overflow-hidden rounded-2xl bg-white shadow-sm transition-shadow hover:shadow-md">
      <div className="absolute right-3 top-3">
        <QuickView product={product} />
      </div>
      <Link to={`/product/${product.id}`} tabIndex={-1} aria-hidden="true">
        <ResponsiveImage src={product.imageUrl} image={product.image} alt="" sizes={cardImageSizes} box={{ width: 800, height: 600 }} loading={loading} className="aspect-[4/3] w-full object-cover" />
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-5">
        <div className="flex items-start justify-between gap-2">
          <ProductBadges product={product} />
          <ProductRating rating={product.rating} className="ml-auto shrink-0" />
        </div>
        <p className="text-sm text-ink-500">{product.category}</p>
        <h3 className="text-lg font-semibold">
          <Link to={`/product/${product.id}`} className="hover:text-mango-700">{product.name}</Link>
        </h3>
        <p className="text-sm text-ink-500">{cutDescription(product.description)}</p>
        <p className="text-sm">{product.boxInfo || shopRules.defaultBoxInfo}</p>
        <OriginLine product={product} className="text-sm text-ink-500" />
        {product.isPreOrder && product.expectedAvailabilityDate && (
          <p className="text-sm">Expected availability: {formatDate(product.expectedAvailabilityDate)}</p>
        )}
        <div className="mt-auto flex items-end justify-between pt-2">
          <p className="text-xl font-semibold tabular-nums">{formatPrice(product.price)}</p>
          <StockLabel product={product} />
        </div>
        <div className="pt-1">
          <CardPurchase product={product} />
        </div>
      </div>
    </article>
  );
}

/** DESIGN.md: 1 column at 390 px, 2 at 640, 3 at 1024, 4 at 1280, in 1200 px less 16 px each side and 24 px gaps. */
const cardImageSizes = '(min-width: 1280px) 274px, (min-width: 1024px) calc((100vw - 80px) / 3), (min-width: 640px) calc((100vw - 56px) / 2), calc(100vw - 32px)';

/**
 * `eagerCount`: the cards above the fold, loaded at once; the rest wait until they near the screen.
 * `lcpFirst`: the first card's picture is the page's largest on arrival, so it is fetched first.
 */
export function ProductGrid({ products, eagerCount = 0, lcpFirst = false }: { products: Product[]; eagerCount?: number; lcpFirst?: boolean }) {
  return (
    <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
      {products.map((product, index) => (
        // Cards beyond the first screen are laid out and painted when they near it (content-visibility),
        // so a phone's first view of a long list styles a few cards, not all of them.
        <li key={product.id} className={index < eagerCount ? undefined : '[contain-intrinsic-size:auto_560px] [content-visibility:auto]'}>
          <ProductCard product={product} loading={index === 0 && lcpFirst ? 'lcp' : index < eagerCount ? 'eager' : 'lazy'} />
        </li>
      ))}
    </ul>
  );
}
