import { useQuery } from '../../lib/query';
import { useEffect, useState } from 'react';
import type { Product } from '../../../contracts/product';
import { shopRules } from '../../../contracts/shop-rules';
import { apiRequest } from '../../lib/api-client';

/** The term once typing has paused for the spec's 300 ms. */
function useDebounced(value: string, delayMs: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/** The products GET /api/products?search= finds for `term` (one cache entry, shared by the dialog and /shop?search=). */
export function useSearchResults(term: string) {
  return useQuery({
    queryKey: ['products', 'search', term],
    queryFn: ({ signal }) => apiRequest<Product[]>(`/api/products?search=${encodeURIComponent(term)}`, { signal }),
    enabled: term.length >= shopRules.searchMinLength,
  });
}

/** Spec 5 and 7: GET /api/products?search= runs only for more than 2 characters, after a 300 ms pause. */
export function useProductSearch(term: string) {
  const debounced = useDebounced(term.trim(), shopRules.searchDebounceMs);
  const enabled = debounced.length >= shopRules.searchMinLength;
  const query = useSearchResults(debounced);
  useEffect(() => {
    // Spec 8: a failed search is logged only.
    if (query.error) console.warn('Search failed', query.error);
  }, [query.error]);
  return { debounced, enabled, results: enabled ? query.data : undefined, searching: enabled && query.isFetching };
}
