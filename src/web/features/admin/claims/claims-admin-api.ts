import type { AdminClaimDetail, AdminClaimList, ClaimApproval, ClaimStatus } from '../../../../contracts/claims';
import { apiRequest } from '../../../lib/api-client';

export type ClaimFilter = ClaimStatus | 'open' | 'all';

export const staffClaimsKey = (status: ClaimFilter) => ['admin', 'claims', status] as const;
export const staffClaimKey = (id: number) => ['admin', 'claim', id] as const;

export const fetchStaffClaims = (status: ClaimFilter, signal?: AbortSignal) => apiRequest<AdminClaimList>(`/api/admin/claims?status=${status}`, { signal });
export const fetchStaffClaim = (id: number, signal?: AbortSignal) => apiRequest<AdminClaimDetail>(`/api/admin/claims/${id}`, { signal });
export const startClaimReview = (id: number) => apiRequest<AdminClaimDetail>(`/api/admin/claims/${id}/review`, { method: 'POST' });
export const approveClaim = (id: number, approval: ClaimApproval) => apiRequest<AdminClaimDetail>(`/api/admin/claims/${id}/approve`, { method: 'POST', body: approval });
export const declineClaim = (id: number, reason: string) => apiRequest<AdminClaimDetail>(`/api/admin/claims/${id}/decline`, { method: 'POST', body: { reason } });
