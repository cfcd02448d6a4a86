import { Spinner } from '../components/ui/spinner';
import { ProductGrid } from '../features/catalog/product-grid';
import { useProducts } from '../features/catalog/use-products';
import { usePageTitle } from '../lib/page-title';

export default function ShopPage() {
  usePageTitle('Shop');
  const products = useProducts();
  return (
    <section className="space-y-6">
      <h1 className="text-4xl font-semibold">Shop Mangoes</h1>
      {products.isPending ? <Spinner /> : products.isError ? <p role="alert">We couldn't load our mangoes. Please refresh the page.</p> : (
        <ProductGrid products={products.data} eagerCount={4} />
      )}
    </section>
  );
}
