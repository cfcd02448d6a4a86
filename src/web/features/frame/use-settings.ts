import { useQuery } from '@tanstack/react-query';
import type { PublicSettings } from '../../../contracts/settings';
import { cacheTimes } from '../../../contracts/shop-rules';
import { apiRequest } from '../../lib/api-client';

export const settingsQueryKey = ['settings'] as const;

async function fetchSettings(signal: AbortSignal): Promise<PublicSettings> {
  try {
    return await apiRequest<PublicSettings>('/api/settings', { signal });
  } catch (error) {
    // Spec 8: a failed settings fetch is logged only; callers show their fallbacks instead.
    if (!signal.aborted) console.warn('Could not load site settings', error);
    throw error;
  }
}

/** Spec 7: GET /api/settings, cached for 5 minutes. */
export function useSettings() {
  return useQuery({
    queryKey: settingsQueryKey,
    queryFn: ({ signal }) => fetchSettings(signal),
    staleTime: cacheTimes.settingsMs,
  });
}
