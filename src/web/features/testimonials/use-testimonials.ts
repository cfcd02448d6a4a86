import { useQuery } from '../../lib/query';
import type { Testimonial } from '../../../contracts/content';
import { cacheTimes } from '../../../contracts/shop-rules';
import { apiRequest } from '../../lib/api-client';

export const testimonialsQueryKey = ['testimonials'] as const;
export const testimonialsQuery = { queryKey: testimonialsQueryKey, path: '/api/testimonials' };

/** Spec 7: GET /api/testimonials, cached for 5 minutes. */
export function useTestimonials() {
  return useQuery({
    queryKey: testimonialsQueryKey,
    // Spec 8: a failed load is logged only; callers show their fallbacks.
    queryFn: ({ signal }) => apiRequest<Testimonial[]>('/api/testimonials', { signal, warnOnFailure: 'Could not load testimonials' }),
    staleTime: cacheTimes.testimonialsMs,
  });
}
