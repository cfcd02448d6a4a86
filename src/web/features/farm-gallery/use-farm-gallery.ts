import { useQuery } from '@tanstack/react-query';
import type { Banner } from '../../../contracts/content';
import { apiRequest } from '../../lib/api-client';

export const farmGalleryQueryKey = ['banners', 'farm_gallery'] as const;

async function fetchFarmGallery(signal: AbortSignal): Promise<Banner[]> {
  try {
    return await apiRequest<Banner[]>('/api/content/banners/location/farm_gallery', { signal });
  } catch (error) {
    // Spec 8: a failed banner fetch is logged only; the gallery falls back to its built-in images.
    if (!signal.aborted) console.warn('Could not load the farm gallery', error);
    throw error;
  }
}

/** Spec 7: GET /api/content/banners/location/farm_gallery. */
export function useFarmGallery() {
  return useQuery({
    queryKey: farmGalleryQueryKey,
    queryFn: ({ signal }) => fetchFarmGallery(signal),
  });
}
