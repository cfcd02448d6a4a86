import { useQuery } from '@tanstack/react-query';
import type { Product } from '../../../contracts/product';
import { apiRequest } from '../../lib/api-client';

export function useProduct(id: number) {
  return useQuery({
    queryKey: ['products', id],
    queryFn: ({ signal }) => apiRequest<Product>(`/api/products/${id}`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
}
