import { useQuery } from '../../lib/query';
import type { PublicSettings } from '../../../contracts/settings';
import { cacheTimes } from '../../../contracts/shop-rules';
import { apiRequest } from '../../lib/api-client';

export const settingsQueryKey = ['settings'] as const;
export const settingsQuery = { queryKey: settingsQueryKey, path: '/api/settings' };

/** Spec 7: GET /api/settings, cached for 5 minutes. */
export function useSettings() {
  return useQuery({
    queryKey: settingsQueryKey,
    // Spec 8: a failed load is logged only; callers show their fallbacks.
    queryFn: ({ signal }) => apiRequest<PublicSettings>('/api/settings', { signal, warnOnFailure: 'Could not load site settings' }),
    staleTime: cacheTimes.settingsMs,
  });
}
