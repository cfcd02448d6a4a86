import type { Treatment } from '../../../../contracts/origin';
import { keepPreviousData, useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { ArrowDown, ArrowUp, Plus } from 'lucide-react';
import { useState } from 'react';
import {
  type AdminProductRow,
  type ProductShowFilter,
  productShowFilters,
  productShowLabels,
  type ProductSortKey,
  productSortKeys,
} from '../../../../contracts/admin-products';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { formatDate, formatPrice } from '../../../lib/format';
import { formatDateTime } from '../../../../contracts/dates';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { Pager } from '../shared/pager';
import { SearchBox } from '../shared/search-box';
import { useLastPageWhenPastEnd, useUrlFilters } from '../shared/use-url-filters';
import { ProductEditor } from './product-editor';
import { adminProductsKey, archiveProduct, deleteProduct, fetchProductPage, type ProductTableQuery, updateProduct } from './products-api';

const pageSize = 25;

function queryOf(params: URLSearchParams, page: number): ProductTableQuery {
  const sort = params.get('sort') ?? '';
  const show = params.get('show') ?? '';
  return {
    q: params.get('q') || undefined,
    show: (productShowFilters as readonly string[]).includes(show) ? (show as ProductShowFilter) : 'active',
    sort: (productSortKeys as readonly string[]).includes(sort) ? (sort as ProductSortKey) : 'name',
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
    page,
    pageSize,
  };
}

/** The small print under a product's name: pre-order date and opening, badges, archived. */
function productNotes(product: AdminProductRow): string[] {
  return [
    product.isPreOrder ? `Pre-order${product.expectedAvailabilityDate ? ` · ${formatDate(product.expectedAvailabilityDate)}` : ''}` : '',
    product.isPreOrder && product.preOrdersOpenAt ? `Opening ${formatDateTime(product.preOrdersOpenAt)} (NZ)` : '',
    product.isBestseller ? 'Bestseller' : '',
    product.isOrganic ? 'Organic' : '',
    product.archivedAt ? `Archived ${formatDate(product.archivedAt)}` : '',
  ].filter(Boolean);
}

type Pending = { kind: 'delete' | 'archive'; product: AdminProductRow };

/** Issue 5: every product, hidden and archived ones too, searched, sorted and paged on the server. */
export function AdminProducts() {
  const queryClient = useQueryClient();
  const { params, page, update } = useUrlFilters();
  const query = queryOf(params, page);
  const [editing, setEditing] = useState<AdminProductRow | 'new' | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const table = useQuery({ queryKey: adminProductsKey(query), queryFn: ({ signal }) => fetchProductPage(query, signal), placeholderData: keepPreviousData, retry: false });
  useLastPageWhenPastEnd(table.data, page, update);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['products'] });
    await queryClient.invalidateQueries({ queryKey: ['admin'] });
  };

  const visibility = useMutation({
    mutationFn: (product: AdminProductRow) => updateProduct(product.id, { isHidden: !product.isHidden }),
    async onSuccess(saved) {
      await refresh();
      toast({ title: saved.isHidden ? 'Hidden from the shop' : 'Shown in the shop', description: saved.name });
    },
    onError: (error) => toast({ title: 'The product was not changed', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  const remove = useMutation({
    mutationFn: async ({ kind, product }: Pending): Promise<void> => {
      if (kind === 'delete') await deleteProduct(product.id);
      else await archiveProduct(product.id, true);
    },
    async onSuccess(_result, { kind, product }) {
      setPending(null);
      await refresh();
      toast({ title: kind === 'delete' ? 'Product deleted' : 'Product archived', description: product.name });
    },
    async onError(error) {
      setPending(null);
      // A product ordered meanwhile can no longer be deleted: the list shows Archive for it now.
      await refresh();
      toast({ title: 'The product was not changed', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
    },
  });
  const restore = useMutation({
    mutationFn: (product: AdminProductRow) => archiveProduct(product.id, false),
    async onSuccess(saved) {
      await refresh();
      toast({ title: 'Product restored', description: `${saved.name} is back among the products, still hidden from the shop.` });
    },
    onError: (error) => toast({ title: 'The product was not restored', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });

  const sortBy = (key: ProductSortKey) => update({ sort: key, dir: query.sort === key && query.dir === 'asc' ? 'desc' : 'asc' });
  const header = (key: ProductSortKey, label: string, align = 'text-left') => (
    <th scope="col" className={`py-2 font-semibold ${align}`} aria-sort={query.sort === key ? (query.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
      <button type="button" onClick={() => sortBy(key)} className="inline-flex items-center gap-1 hover:underline">
        {label}
        {query.sort === key && (query.dir === 'asc' ? <ArrowUp className="size-3.5" aria-hidden="true" /> : <ArrowDown className="size-3.5" aria-hidden="true" />)}
      </button>
    </th>
  );
  const data = table.data;
  const categories = [...new Set(data?.products.map((p) => p.category) ?? [])].sort();
  const usualOrigin = mostCommonOrigin(data?.products ?? []);

  return (
    <section className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-4xl font-semibold">Products</h1>
        <Button onClick={() => setEditing('new')}>
          <Plus className="size-4" aria-hidden="true" /> New product
        </Button>
      </div>

      <div className="grid gap-3 rounded-2xl bg-white p-4 sm:grid-cols-[1fr_14rem]">
        <SearchBox label="Search name, category or description" initial={query.q ?? ''} onSearch={(q) => update({ q })} />
        <label className="grid gap-1.5 text-sm font-medium">
          Show
          <select
            className="rounded-lg border border-ink-500/30 bg-white px-3 py-2.5 text-base outline-none focus:border-mango-600 focus:ring-2 focus:ring-mango-500/40"
            value={query.show}
            onChange={(event) => update({ show: event.target.value === 'active' ? '' : event.target.value })}>
            {productShowFilters.map((show) => (
              <option key={show} value={show}>
                {productShowLabels[show]}
              </option>
            ))}
          </select>
        </label>
      </div>

      {table.isPending ? (
        <Spinner compact />
      ) : table.isError ? (
        <p role="alert" className="text-danger-600">
          {errorMessage(table.error, 'The products could not be loaded.')}
        </p>
      ) : data && data.products.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-ink-500">No products match. {query.q ? 'Try another search.' : ''}</p>
      ) : (
        data && (
          <div className="overflow-x-auto rounded-2xl bg-white p-4">
            <table className="w-full min-w-[52rem] text-left text-sm">
              <caption className="sr-only">Products</caption>
              <thead>
                <tr className="border-b border-ink-500/30">
                  {header('name', 'Product')}
                  {header('category', 'Category')}
                  {header('price', 'Price', 'text-right')}
                  {header('stock', 'Stock', 'text-right')}
                  {header('rating', 'Rating', 'text-right')}
                  <th scope="col" className="py-2 pl-4 font-semibold">
                    In the shop
                  </th>
                  <th scope="col" className="relative py-2 font-semibold">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.products.map((product) => (
                  <tr key={product.id} className="border-b border-mango-50 align-middle">
                    <th scope="row" className="py-2 font-medium">
                      <div className="flex items-center gap-3">
                        <img src={product.imageUrl} alt="" width={44} height={44} className="size-11 shrink-0 rounded-lg bg-mango-50 object-cover" loading="lazy" />
                        <div>
                          {product.name}
                          <p className="pt-0.5 text-xs font-normal text-ink-500">{productNotes(product).join(' · ')}</p>
                        </div>
                      </div>
                    </th>
                    <td className="py-2">{product.category}</td>
                    <td className="py-2 text-right tabular-nums">{formatPrice(product.price)}</td>
                    <td className="py-2 text-right tabular-nums">
                      {product.stock}
                      {!product.isPreOrder && product.isLowStock && <span className="block text-xs text-mango-700">Low stock</span>}
                      {!product.isPreOrder && product.stock === 0 && <span className="block text-xs text-danger-600">Out of stock</span>}
                    </td>
                    <td className="py-2 text-right tabular-nums">{product.rating.toFixed(1)}</td>
                    <td className="py-2 pl-4">
                      {product.archivedAt ? (
                        <span className="text-ink-500">Archived</span>
                      ) : (
                        <button
                          type="button"
                          role="switch"
                          aria-checked={!product.isHidden}
                          aria-label={`Show ${product.name} in the shop`}
                          disabled={visibility.isPending}
                          onClick={() => visibility.mutate(product)}
                          className="inline-flex items-center gap-2">
                          <span className={`relative h-6 w-11 rounded-full transition-colors ${product.isHidden ? 'bg-ink-500/40' : 'bg-leaf-700'}`}>
                            <span className={`absolute top-0.5 size-5 rounded-full bg-white shadow transition-all ${product.isHidden ? 'left-0.5' : 'left-[1.375rem]'}`} />
                          </span>
                          <span aria-hidden="true">{product.isHidden ? 'Hidden' : 'Shown'}</span>
                        </button>
                      )}
                    </td>
                    <td className="py-2">
                      <div className="flex justify-end gap-2">
                        <Button variant="outline" className="px-3 py-1.5" onClick={() => setEditing(product)} aria-label={`Edit ${product.name}`}>
                          Edit
                        </Button>
                        {product.archivedAt ? (
                          <Button variant="ghost" className="px-3 py-1.5" onClick={() => restore.mutate(product)} disabled={restore.isPending} aria-label={`Restore ${product.name}`}>
                            Restore
                          </Button>
                        ) : (
                          <Button
                            variant="ghost"
                            className="px-3 py-1.5 text-danger-600"
                            onClick={() => setPending({ kind: product.orderCount > 0 ? 'archive' : 'delete', product })}
                            aria-label={`${product.orderCount > 0 ? 'Archive' : 'Delete'} ${product.name}`}>
                            {product.orderCount > 0 ? 'Archive' : 'Delete'}
                          </Button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager total={data.total} page={data.page} pageSize={data.pageSize} noun={['product', 'products']} onPage={(next) => update({ page: next })} />
          </div>
        )
      )}

      {editing && <ProductEditor product={editing === 'new' ? null : editing} categories={categories} usualOrigin={usualOrigin} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'archive' ? `Archive ${pending.product.name}?` : `Delete ${pending?.product.name ?? ''}?`}
        confirmLabel={pending?.kind === 'archive' ? 'Archive product' : 'Delete product'}
        busy={remove.isPending}
        onConfirm={() => pending && remove.mutate(pending)}
        description={
          pending?.kind === 'archive'
            ? `It is on ${pending.product.orderCount === 1 ? '1 order' : `${pending.product.orderCount} orders`}, so it is kept for them: it leaves the shop and this list, and can be restored from the Archived filter.`
            : "It is on no order. It leaves the shop and shoppers' carts for good. This cannot be undone."
        }
        onCancel={() => setPending(null)}
      />
    </section>
  );
}

/** The origin and treatment most of the shop's products have: a new product starts from it, for the owner to confirm. */
function mostCommonOrigin(rows: ReadonlyArray<{ originSetting: { country: string | null; treatment: Treatment | null } }>): { country: string; treatment: Treatment } | null {
  const counts = new Map<string, number>();
  for (const { originSetting } of rows) {
    if (originSetting.country && originSetting.treatment) {
      const key = `${originSetting.country}:${originSetting.treatment}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const [best] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (!best) return null;
  const [country, treatment] = best[0].split(':') as [string, Treatment];
  return { country, treatment };
}
