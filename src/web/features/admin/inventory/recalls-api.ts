import type { RecallInput, RecallSummary, RecallView } from '../../../../contracts/recalls';
import { apiRequest } from '../../../lib/api-client';

export const recallsKey = ['admin', 'recalls'] as const;
export const recallKey = (batchId: number) => ['admin', 'recalls', batchId] as const;

export const fetchRecalls = (signal?: AbortSignal) => apiRequest<{ recalls: RecallSummary[] }>('/api/admin/recalls', { signal });
export const fetchRecall = (batchId: number, signal?: AbortSignal) => apiRequest<RecallView>(`/api/admin/batches/${batchId}/recall`, { signal });
export const postRecall = (batchId: number, input: RecallInput) => apiRequest<RecallView>(`/api/admin/batches/${batchId}/recall`, { method: 'POST', body: input });
export const postCloseRecall = (batchId: number) => apiRequest<RecallView>(`/api/admin/batches/${batchId}/recall/close`, { method: 'POST' });
export const postReleaseHold = (orderNumber: string) => apiRequest<void>(`/api/admin/orders/${orderNumber}/release-hold`, { method: 'POST' });
export const recallCsvPath = (batchId: number) => `/api/admin/batches/${batchId}/recall.csv`;
