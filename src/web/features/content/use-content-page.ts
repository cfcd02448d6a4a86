import { useQuery } from '../../lib/query';
import type { ContentPage } from '../../../contracts/content';
import { cacheTimes } from '../../../contracts/shop-rules';
import { apiRequest } from '../../lib/api-client';

/** A content page is about its page: a 404 makes the page a 404. */
export const contentPageQuery = (slug: string) => ({ queryKey: ['content-page', slug] as const, path: `/api/content/pages/${encodeURIComponent(slug)}`, subject: true });

export function useContentPage(slug: string) {
  const { queryKey, path } = contentPageQuery(slug);
  return useQuery({
    queryKey,
    queryFn: ({ signal }) => apiRequest<ContentPage | null>(path, { signal }),
    staleTime: cacheTimes.pageContentMs,
  });
}
