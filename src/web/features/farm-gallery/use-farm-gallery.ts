import { useQuery } from '@tanstack/react-query';
import type { Banner } from '../../../contracts/content';
import { apiRequest } from '../../lib/api-client';

export const farmGalleryQueryKey = ['banners', 'farm_gallery'] as const;

/** Spec 7: GET /api/content/banners/location/farm_gallery. */
export function useFarmGallery() {
  return useQuery({
    queryKey: farmGalleryQueryKey,
    // Spec 8: a failed load is logged only; callers show their fallbacks.
    queryFn: ({ signal }) => apiRequest<Banner[]>('/api/content/banners/location/farm_gallery', { signal, warnOnFailure: 'Could not load the farm gallery' }),
  });
}
