import { Link, useSearchParams } from 'react-router';
import { shopRules } from '../../contracts/shop-rules';
import { useSearchResults } from '../features/search/use-product-search';
import { Spinner } from '../components/ui/spinner';
import { ProductGrid } from '../features/catalog/product-grid';
import { categoriesOf, filterAndSort, parseSort, sortOptions } from '../features/catalog/shop-filters';
import { useProducts } from '../features/catalog/use-products';

/**
 * All visible products, with the category and sort kept in the address (?category=&sort=); with
 * ?search= the products the search finds (Enter in the search dialog opens this page).
 */
export default function ShopPage() {
  const [params, setParams] = useSearchParams();
  const search = (params.get('search') ?? '').trim();
  const searching = search.length >= shopRules.searchMinLength;
  const all = useProducts();
  const found = useSearchResults(search);
  const products = searching ? found : all;
  const category = params.get('category');
  const sort = parseSort(params.get('sort'));
  const update = (key: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );

  const categories = products.data ? categoriesOf(products.data) : [];
  const shown = products.data ? filterAndSort(products.data, category, sort) : [];
  const chip = (active: boolean) =>
    `rounded-full border px-4 py-1.5 text-sm font-medium ${active ? 'border-mango-600 bg-mango-500 text-ink-900' : 'border-ink-500/30 bg-white hover:bg-mango-50'}`;

  return (
    <section className="space-y-6">
      <h1 className="text-4xl font-semibold">Shop Mangoes</h1>
      {searching && (
        <p className="flex flex-wrap items-center gap-3" role="status">
          <span>
            Results for <strong>“{search}”</strong>
            {products.data ? `: ${shown.length} ${shown.length === 1 ? 'product' : 'products'}` : ''}
          </span>
          <Link to="/shop" className="rounded-full border border-ink-500/30 bg-white px-3 py-1 text-sm font-semibold hover:bg-mango-50">
            Clear search
          </Link>
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div role="group" aria-label="Category" className="flex flex-wrap gap-2">
          <button type="button" className={chip(!category)} aria-pressed={!category} onClick={() => update('category', null)}>All</button>
          {categories.map((name) => (
            <button key={name} type="button" className={chip(category === name)} aria-pressed={category === name} onClick={() => update('category', name)}>
              {name}
            </button>
          ))}
        </div>
        <label className="flex items-center gap-2 text-sm font-medium">
          Sort by
          <select name="sort" value={sort} onChange={(e) => update('sort', e.target.value === 'featured' ? null : e.target.value)} className="rounded-lg border border-ink-500/30 bg-white px-3 py-2">
            {sortOptions.map((option) => (
              <option key={option.value} value={option.value}>{option.label}</option>
            ))}
          </select>
        </label>
      </div>
      {products.isPending ? <Spinner /> : products.isError ? <p role="alert">We couldn't load our mangoes. Please refresh the page.</p> : shown.length === 0 ? (
        <p className="text-ink-500">{searching ? 'No products found. Try another search term.' : 'No mangoes in this category right now.'}</p>
      ) : (
        <ProductGrid products={shown} eagerCount={4} lcpFirst />
      )}
    </section>
  );
}
