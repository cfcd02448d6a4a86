import { useQuery } from '@tanstack/react-query';
import type { ContentPage } from '../../../contracts/content';
import { apiRequest } from '../../lib/api-client';

export function useContentPage(slug: string) {
  return useQuery({
    queryKey: ['content-page', slug],
    queryFn: ({ signal }) => apiRequest<ContentPage>(`/api/content/pages/${encodeURIComponent(slug)}`, { signal }),
  });
}
