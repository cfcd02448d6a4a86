import { useQuery } from '../../lib/query';
import type { Product } from '../../../contracts/product';
import { cacheTimes } from '../../../contracts/shop-rules';
import { apiRequest } from '../../lib/api-client';

/** A product id as the address gives it, or null for one that cannot be a product. */
export function productId(param: string | undefined): number | null {
  const id = Number(param);
  return /^\d{1,9}$/.test(param ?? '') && id > 0 ? id : null;
}

export const productQueryKey = (id: number) => ['products', id] as const;
/** The product page is about this product: a 404 makes the page a 404. */
export const productQuery = (id: number) => ({ queryKey: productQueryKey(id), path: `/api/products/${id}`, subject: true });

// staleTime: the product the server put in the page is not fetched again on hydration.
export function useProduct(id: number | null) {
  return useQuery({
    queryKey: productQueryKey(id ?? 0),
    queryFn: ({ signal }) => apiRequest<Product | null>(`/api/products/${id}`, { signal }),
    enabled: id !== null,
    staleTime: cacheTimes.productsStaleMs,
  });
}
