import { useQuery } from '@tanstack/react-query';
import type { Testimonial } from '../../../contracts/content';
import { cacheTimes } from '../../../contracts/shop-rules';
import { apiRequest } from '../../lib/api-client';

export const testimonialsQueryKey = ['testimonials'] as const;

async function fetchTestimonials(signal: AbortSignal): Promise<Testimonial[]> {
  try {
    return await apiRequest<Testimonial[]>('/api/testimonials', { signal });
  } catch (error) {
    // Spec 8: a testimonials load error is hidden from shoppers; the built-in ones are shown instead.
    if (!signal.aborted) console.warn('Could not load testimonials', error);
    throw error;
  }
}

/** Spec 7: GET /api/testimonials, cached for 5 minutes. */
export function useTestimonials() {
  return useQuery({
    queryKey: testimonialsQueryKey,
    queryFn: ({ signal }) => fetchTestimonials(signal),
    staleTime: cacheTimes.testimonialsMs,
  });
}
