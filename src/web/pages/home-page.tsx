import { Link } from 'react-router';
import { shopRules } from '../../contracts/shop-rules';
import { Spinner } from '../components/ui/spinner';
import { ProductGrid } from '../features/catalog/product-grid';
import { useProducts } from '../features/catalog/use-products';
import { SeasonalChart } from '../features/season/seasonal-chart';
import { usePageTitle } from '../lib/page-title';

export default function HomePage() {
  usePageTitle();
  const products = useProducts();
  return (
    <div className="space-y-12">
      <section className="grid items-center gap-8 rounded-3xl bg-mango-50 p-8 md:grid-cols-2">
        <div className="space-y-5">
          <h1 className="text-4xl font-semibold leading-tight md:text-5xl">Premium Mangoes Delivered Fresh to Your Door</h1>
          <p className="text-lg text-ink-500">Alphonso, Kesar, Banganapalli and more, from family orchards in India to homes across New Zealand.</p>
          <div className="flex gap-3">
            <Link to="/shop" className="rounded-full bg-mango-500 px-6 py-3 font-semibold text-ink-900 hover:bg-mango-600">Shop Now</Link>
            <Link to="/about" className="rounded-full border border-ink-900 px-6 py-3 font-semibold hover:bg-white">Learn More</Link>
          </div>
        </div>
        <img src="/images/mascot.svg" alt="A smiling mango waving hello" width={480} height={480} className="mx-auto w-64 md:w-80" />
      </section>
      <section aria-labelledby="varieties" className="space-y-6">
        <div className="flex items-end justify-between">
          <h2 id="varieties" className="text-3xl font-semibold">Our Mango Varieties</h2>
          <Link to="/shop" className="font-semibold text-mango-600 hover:underline">View All Varieties</Link>
        </div>
        {products.isPending ? <Spinner /> : products.isError ? <p role="alert">We couldn't load our mangoes. Please refresh the page.</p> : (
          <ProductGrid products={products.data.slice(0, shopRules.homeProductCount)} eagerCount={3} />
        )}
      </section>
      <section aria-labelledby="seasonal-chart" className="min-w-0">
        <SeasonalChart headingId="seasonal-chart" />
      </section>
    </div>
  );
}
