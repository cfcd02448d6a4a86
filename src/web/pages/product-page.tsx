import { OriginLine } from '../features/catalog/origin-line';
import { Truck } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { Product } from '../../contracts/product';
import { shopRules } from '../../contracts/shop-rules';
import { Spinner } from '../components/ui/spinner';
import { ProductBadges } from '../features/catalog/product-badges';
import { ProductGrid } from '../features/catalog/product-grid';
import { ProductRating } from '../features/catalog/product-rating';
import { PurchasePanel } from '../features/catalog/purchase-panel';
import { ReadyToEat } from '../features/catalog/ready-to-eat';
import { SeasonBoxOffer } from '../features/season-box/season-box-offer';
import { StockLabel } from '../features/catalog/stock-label';
import { productId, useProduct } from '../features/catalog/use-product';
import { useProducts } from '../features/catalog/use-products';
import { trackViewContent } from '../lib/analytics-events';
import { formatDate, formatNzd, formatPrice } from '../lib/format';
import { ResponsiveImage } from '../components/ui/responsive-image';
import { ProductReviewsSection } from '../features/reviews/product-reviews-section';
import { VerifiedRating } from '../features/reviews/verified-rating';

const otherProductCount = 4;

/** A few other visible varieties: the same category first, then the rest in shop order. */
function OtherProducts({ product }: { product: Product }) {
  const products = useProducts();
  if (!products.data) return null;
  const others = products.data.filter((p) => p.id !== product.id);
  const picked = [...others.filter((p) => p.category === product.category), ...others.filter((p) => p.category !== product.category)].slice(0, otherProductCount);
  if (!picked.length) return null;
  return (
    <section aria-labelledby="other-products" className="mt-16 space-y-6">
      <h2 id="other-products" className="text-2xl font-semibold">You might also like</h2>
      <ProductGrid products={picked} />
    </section>
  );
}

function NotFound() {
  return (
    <section className="py-16 text-center">
      <h1 className="text-3xl font-semibold">Product not found</h1>
      <p className="mt-3 text-ink-500">This mango isn't in our shop right now.</p>
      <Link to="/shop" className="mt-6 inline-block font-semibold text-mango-700 hover:underline">Browse all varieties</Link>
    </section>
  );
}

export default function ProductPage() {
  const id = productId(useParams().id);
  // The review e-mail's link: the form is wanted now, wherever it is on the page.
  const writing = useSearchParams()[0].get('review') === 'write';
  const product = useProduct(id);
  const viewed = product.data;
  // Spec 7: ViewContent once per product shown.
  useEffect(() => {
    if (viewed) trackViewContent(viewed);
  }, [viewed]);
  if (product.isPending && id !== null) return <Spinner />;
  if (!product.data) return <NotFound />;
  const p = product.data;
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-6 text-sm text-ink-500">
        <Link to="/shop" className="hover:text-mango-700 hover:underline">Shop</Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">{p.name}</span>
      </nav>
      <article className="grid gap-8 md:grid-cols-2 md:gap-12">
        <ResponsiveImage src={p.imageUrl} image={p.image} alt={p.name} sizes="(min-width: 1200px) 576px, (min-width: 768px) calc(50vw - 40px), calc(100vw - 32px)" box={{ width: 800, height: 600 }} loading="lcp" className="aspect-[4/3] w-full rounded-3xl object-cover shadow-sm" />
        <div className="space-y-4">
          <ProductBadges product={p} />
          <p className="text-sm text-ink-500">{p.category}</p>
          <h1 className="text-4xl font-semibold">{p.name}</h1>
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
            <ProductRating rating={p.rating} large outOfFive />
            <VerifiedRating productId={p.id} />
          </div>
          <p className="text-3xl font-semibold tabular-nums">{formatPrice(p.price)}</p>
          <p className="text-ink-500">{p.boxInfo || shopRules.defaultBoxInfo}</p>
          <OriginLine product={p} className="font-medium" />
          <StockLabel product={p} />
          <ReadyToEat product={p} />
          {p.isPreOrder && p.expectedAvailabilityDate && <p>Expected availability: {formatDate(p.expectedAvailabilityDate)}</p>}
          <PurchasePanel product={p} />
          <SeasonBoxOffer key={p.id} product={p} />
          <p className="leading-relaxed">{p.description}</p>
          <p className="flex gap-3 rounded-2xl bg-mango-50 p-4 text-sm">
            <Truck className="size-5 shrink-0 text-mango-700" aria-hidden="true" />
            <span>
              Standard shipping {formatNzd(shopRules.defaultShippingCents)} flat anywhere in New Zealand. Delivered fresh in {shopRules.freshDeliveryClaim} from dispatch.
            </span>
          </p>
        </div>
      </article>
      <ProductReviewsSection key={p.id} productId={p.id} loadNow={writing} />
      <OtherProducts product={p} />
    </>
  );
}
