import { useQuery } from '../../lib/query';
import type { Product } from '../../../contracts/product';
import { cacheTimes } from '../../../contracts/shop-rules';
import { apiRequest } from '../../lib/api-client';

export const productsQueryKey = ['products'] as const;
export const productsQuery = { queryKey: productsQueryKey, path: '/api/products' };

/** Spec 7: the product list is stale after 5 minutes, kept 10, never refetched on focus or mount. */
export function useProducts() {
  return useQuery({
    queryKey: productsQueryKey,
    queryFn: ({ signal }) => apiRequest<Product[]>('/api/products', { signal }),
    staleTime: cacheTimes.productsStaleMs,
    gcTime: cacheTimes.productsKeepMs,
    refetchOnMount: false,
  });
}
