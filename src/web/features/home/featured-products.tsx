import { Link } from 'react-router';
import { shopRules } from '../../../contracts/shop-rules';
import { Spinner } from '../../components/ui/spinner';
import { ProductGrid } from '../catalog/product-grid';
import { useProducts } from '../catalog/use-products';

/** Spec 2 and 9: the home page shows the first 3 products and a link to the full shop. */
export function FeaturedProducts() {
  const products = useProducts();
  return (
    <section aria-labelledby="varieties" className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="varieties" className="text-3xl font-semibold">Our Mango Varieties</h2>
        <Link to="/shop" className="font-semibold underline decoration-mango-500 decoration-2 underline-offset-4 hover:decoration-mango-600">View All Varieties</Link>
      </div>
      {products.isPending ? <Spinner /> : products.isError ? <p role="alert">We couldn't load our mangoes. Please refresh the page.</p> : (
        // The home page shows exactly 3 products (spec 9): three columns on wide screens fill the row.
        <div className="xl:[&>ul]:grid-cols-3">
          <ProductGrid products={products.data.slice(0, shopRules.homeProductCount)} eagerCount={3} />
        </div>
      )}
    </section>
  );
}
