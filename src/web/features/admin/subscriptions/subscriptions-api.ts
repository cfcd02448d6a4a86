import type {
  AdminSubscriptionDetail,
  AdminSubscriptionSummary,
  SubscriptionForecast,
  SubscriptionRunResult,
  SubscriptionStatus,
  SubscriptionStopState,
} from '../../../../contracts/subscriptions';
import { apiRequest } from '../../../lib/api-client';

export interface AdminSubscriptionPage {
  subscriptions: AdminSubscriptionSummary[];
  total: number;
  page: number;
  pageSize: number;
  counts: Record<SubscriptionStatus, number>;
}

/** The list's pills: every season box, or those of one status. */
export type SubscriptionFilter = SubscriptionStatus | 'all';

export const staffSubscriptionsKey = (filter: SubscriptionFilter, page: number) => ['admin', 'subscriptions', 'list', filter, page] as const;
export const staffSubscriptionKey = (id: number) => ['admin', 'subscription', id] as const;
export const forecastKey = ['admin', 'subscriptions', 'forecast'] as const;
export const stopStateKey = ['admin', 'subscriptions', 'stop-all'] as const;

/** The forecast as a spreadsheet: a plain link, the browser downloads it with its session cookie. */
export const forecastCsvPath = '/api/admin/subscriptions/forecast.csv';

export const fetchStaffSubscriptions = (filter: SubscriptionFilter, page: number, signal?: AbortSignal) =>
  apiRequest<AdminSubscriptionPage>(`/api/admin/subscriptions?${new URLSearchParams(filter === 'all' ? { page: String(page) } : { status: filter, page: String(page) })}`, { signal });

export const fetchStaffSubscription = (id: number, signal?: AbortSignal) => apiRequest<AdminSubscriptionDetail>(`/api/admin/subscriptions/${id}`, { signal });

export const fetchForecast = (signal?: AbortSignal) => apiRequest<SubscriptionForecast>('/api/admin/subscriptions/forecast', { signal });

export const fetchStopState = (signal?: AbortSignal) => apiRequest<SubscriptionStopState>('/api/admin/subscriptions/stop-all', { signal });

/** Stops every run (true) or turns them back on (false); the answer is the state after. */
export const putStopped = (stopped: boolean) => apiRequest<SubscriptionStopState>('/api/admin/subscriptions/stop-all', { method: stopped ? 'POST' : 'DELETE' });

/** One delivery date's run, started before its cut-off; a 409 while season boxes are stopped. */
export const postRun = (deliveryDate: string) => apiRequest<SubscriptionRunResult>('/api/admin/subscription-runs', { method: 'POST', body: { deliveryDate } });
