import type { CheckoutPaymentMethod } from '../../../contracts/order';
import type { SubscribeInput, SubscriptionChange, SubscriptionView } from '../../../contracts/subscriptions';
import { apiRequest } from '../../lib/api-client';
import { useQuery, useQueryClient } from '../../lib/query';
import { useAuth } from '../auth/auth-provider';

export const seasonBoxesKey = ['account', 'season-boxes'] as const;

const path = (id: number) => `/api/subscriptions/${id}`;

export const subscribe = (input: SubscribeInput) => apiRequest<SubscriptionView>('/api/subscriptions', { method: 'POST', body: input });

/** The signed-in shopper's season boxes, live ones first; nothing is asked for a visitor. */
export function useSeasonBoxes() {
  const { user } = useAuth();
  return useQuery({
    queryKey: [...seasonBoxesKey, user?.id ?? null],
    queryFn: async ({ signal }) => (await apiRequest<{ subscriptions: SubscriptionView[] }>('/api/subscriptions', { signal })).subscriptions,
    enabled: Boolean(user),
  });
}

/** How a new season box can be paid in this shop now (bank transfer once there is an account; card with Stripe set up). */
export function useSeasonBoxPayments() {
  const { user } = useAuth();
  return useQuery({
    queryKey: [...seasonBoxesKey, 'payments', user?.id ?? null],
    queryFn: async ({ signal }) => (await apiRequest<{ paymentMethods: CheckoutPaymentMethod[] }>('/api/subscriptions', { signal })).paymentMethods,
    enabled: Boolean(user),
  });
}

/** Stripe's page to save the card of a season box waiting for it. */
export const cardSetupFor = (id: number) => apiRequest<{ cardSetupUrl: string }>(`${path(id)}/card`, { method: 'POST' });

/** What the shopper can do to one season box; each answers the season box as it is now. */
export const seasonBoxActions = {
  change: (id: number, change: SubscriptionChange) => apiRequest<SubscriptionView>(path(id), { method: 'PATCH', body: change }),
  skip: (id: number, date: string) => apiRequest<SubscriptionView>(`${path(id)}/deliveries/${date}/skip`, { method: 'POST' }),
  undoSkip: (id: number, date: string) => apiRequest<SubscriptionView>(`${path(id)}/deliveries/${date}/skip`, { method: 'DELETE' }),
  pause: (id: number, resumeOn: string | null) => apiRequest<SubscriptionView>(`${path(id)}/pause`, { method: 'POST', body: { resumeOn } }),
  resume: (id: number) => apiRequest<SubscriptionView>(`${path(id)}/resume`, { method: 'POST' }),
  cancel: (id: number) => apiRequest<SubscriptionView>(path(id), { method: 'DELETE' }),
};

/** Puts an answer in the list in place of the season box it was, so the panel shows it at once. */
export function useKeepSeasonBox() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return (view: SubscriptionView) => {
    const key = [...seasonBoxesKey, user?.id ?? null];
    const list = queryClient.getQueryData<SubscriptionView[]>(key) ?? [];
    queryClient.setQueryData(key, list.some((one) => one.id === view.id) ? list.map((one) => (one.id === view.id ? view : one)) : [...list, view]);
  };
}
