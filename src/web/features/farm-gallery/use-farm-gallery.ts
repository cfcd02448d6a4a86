import { useQuery } from '../../lib/query';
import type { Banner } from '../../../contracts/content';
import { cacheTimes } from '../../../contracts/shop-rules';
import { apiRequest } from '../../lib/api-client';

export const farmGalleryQueryKey = ['banners', 'farm_gallery'] as const;
export const farmGalleryQuery = { queryKey: farmGalleryQueryKey, path: '/api/content/banners/location/farm_gallery' };

/** Spec 7: GET /api/content/banners/location/farm_gallery. */
export function useFarmGallery() {
  return useQuery({
    queryKey: farmGalleryQueryKey,
    // Spec 8: a failed load is logged only; callers show their fallbacks.
    queryFn: ({ signal }) => apiRequest<Banner[]>(farmGalleryQuery.path, { signal, warnOnFailure: 'Could not load the farm gallery' }),
    staleTime: cacheTimes.pageContentMs,
  });
}
