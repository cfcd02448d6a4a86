import type { ClaimRequest, ClaimView, OrderClaims } from '../../../contracts/claims';
import { apiRequest } from '../../lib/api-client';

export const orderClaimsKey = (number: string) => ['orders', number, 'claims'] as const;

export const fetchOrderClaims = (number: string, signal?: AbortSignal) => apiRequest<OrderClaims>(`/api/orders/${encodeURIComponent(number)}/claims`, { signal });

/** The claim goes as a form: its details as a JSON field, the photos as files beside it. */
export function sendClaim(number: string, claim: ClaimRequest, photos: File[]): Promise<ClaimView> {
  const form = new FormData();
  form.append('claim', JSON.stringify(claim));
  for (const photo of photos) form.append('photos', photo, photo.name);
  return apiRequest<ClaimView>(`/api/orders/${encodeURIComponent(number)}/claims`, { method: 'POST', body: form });
}
