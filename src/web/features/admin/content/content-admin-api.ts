import type { QueryClient } from '../../../lib/query';
import type {
  AdminBanner,
  AdminPage,
  AdminPageSummary,
  AdminTestimonial,
  BannerInput,
  BannerUpdate,
  PageInput,
  PageUpdate,
  TestimonialInput,
  TestimonialUpdate,
} from '../../../../contracts/content-admin';
import { apiRequest } from '../../../lib/api-client';

export const staffTestimonialsKey = ['admin', 'testimonials'] as const;
export const staffBannersKey = ['admin', 'banners'] as const;
export const staffPagesKey = ['admin', 'pages'] as const;
export const staffPageKey = (slug: string) => ['admin', 'page', slug] as const;

export const fetchStaffTestimonials = (signal?: AbortSignal) => apiRequest<AdminTestimonial[]>('/api/admin/testimonials', { signal });
export const createTestimonial = (input: TestimonialInput) => apiRequest<AdminTestimonial>('/api/admin/testimonials', { method: 'POST', body: input });
export const updateTestimonial = (id: number, change: TestimonialUpdate) => apiRequest<AdminTestimonial>(`/api/admin/testimonials/${id}`, { method: 'PUT', body: change });
export const deleteTestimonial = (id: number) => apiRequest<{ message: string }>(`/api/admin/testimonials/${id}`, { method: 'DELETE' });
export const orderTestimonials = (ids: number[]) => apiRequest<AdminTestimonial[]>('/api/admin/testimonials/order', { method: 'PUT', body: { ids } });

export const fetchStaffBanners = (signal?: AbortSignal) => apiRequest<AdminBanner[]>('/api/admin/content/banners', { signal });
export const createBanner = (input: BannerInput) => apiRequest<AdminBanner>('/api/admin/content/banners', { method: 'POST', body: input });
export const updateBanner = (id: number, change: BannerUpdate) => apiRequest<AdminBanner>(`/api/admin/content/banners/${id}`, { method: 'PUT', body: change });
export const deleteBanner = (id: number) => apiRequest<{ message: string }>(`/api/admin/content/banners/${id}`, { method: 'DELETE' });
export const orderBanners = (ids: number[]) => apiRequest<AdminBanner[]>('/api/admin/content/banners/order', { method: 'PUT', body: { ids } });

export const fetchStaffPages = (signal?: AbortSignal) => apiRequest<AdminPageSummary[]>('/api/admin/content/pages', { signal });
export const fetchStaffPage = (slug: string, signal?: AbortSignal) => apiRequest<AdminPage>(`/api/admin/content/pages/${encodeURIComponent(slug)}`, { signal });
export const createPage = (input: PageInput) => apiRequest<AdminPage>('/api/admin/content/pages', { method: 'POST', body: input });
export const updatePage = (slug: string, change: PageUpdate) => apiRequest<AdminPage>(`/api/admin/content/pages/${encodeURIComponent(slug)}`, { method: 'PUT', body: change });
export const deletePage = (slug: string) => apiRequest<{ message: string }>(`/api/admin/content/pages/${encodeURIComponent(slug)}`, { method: 'DELETE' });

/**
 * After a write, the staff list and the storefront's own copy (the keys its testimonials
 * carousel, farm gallery and content pages cache under) are fetched again.
 */
export function refreshTestimonials(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: staffTestimonialsKey });
  void queryClient.invalidateQueries({ queryKey: ['testimonials'] });
}

export function refreshBanners(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: staffBannersKey });
  void queryClient.invalidateQueries({ queryKey: ['banners'] });
}

export function refreshPages(queryClient: QueryClient, slug: string): void {
  void queryClient.invalidateQueries({ queryKey: staffPagesKey });
  void queryClient.invalidateQueries({ queryKey: staffPageKey(slug) });
  void queryClient.invalidateQueries({ queryKey: ['content-page', slug] });
}
