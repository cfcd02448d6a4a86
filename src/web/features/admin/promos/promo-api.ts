import type { AdminPromoCode, AdminPromoPage, PromoCodeFields, PromoCodeUpdate } from '../../../../contracts/promo-admin';
import { apiRequest } from '../../../lib/api-client';

export interface PromoFilters {
  q?: string;
  page: number;
  pageSize: number;
}

export const promoCodesKey = ['admin', 'promo-codes'] as const;
export const promoPageKey = (filters: PromoFilters) => [...promoCodesKey, filters] as const;
/** The storefront's banner and checkout read this; an admin change refreshes it in the same tab. */
export const activePromosKey = ['promo-codes'] as const;

export function fetchPromoPage(filters: PromoFilters, signal?: AbortSignal) {
  const params = new URLSearchParams({ page: String(filters.page), pageSize: String(filters.pageSize) });
  if (filters.q) params.set('q', filters.q);
  return apiRequest<AdminPromoPage>(`/api/admin/promo-codes?${params}`, { signal });
}

export const createPromo = (fields: PromoCodeFields) => apiRequest<AdminPromoCode>('/api/admin/promo-codes', { method: 'POST', body: fields });

export const updatePromo = (id: number, fields: PromoCodeUpdate) => apiRequest<AdminPromoCode>(`/api/admin/promo-codes/${id}`, { method: 'PUT', body: fields });

export const deletePromo = (id: number) => apiRequest<{ message: string }>(`/api/admin/promo-codes/${id}`, { method: 'DELETE' });
