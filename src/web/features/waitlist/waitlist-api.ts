import { useQuery } from '../../lib/query';
import type { JoinWaitlistInput, WaitlistEntryView, WaitlistJoinAnswer } from '../../../contracts/waitlist';
import { apiRequest } from '../../lib/api-client';
import { useAuth } from '../auth/auth-provider';

export const waitlistKey = ['account', 'waitlist'] as const;

export const joinWaitlist = (body: JoinWaitlistInput) => apiRequest<WaitlistJoinAnswer>('/api/waitlist', { method: 'POST', body });

export const leaveWaitlist = (entryId: number) => apiRequest<void>(`/api/account/waitlist/${entryId}`, { method: 'DELETE' });

/** The signed-in shopper's waitlists; nothing is asked for a visitor. */
export function useMyWaitlists() {
  const { user } = useAuth();
  return useQuery({
    queryKey: [...waitlistKey, user?.id ?? null],
    queryFn: ({ signal }) => apiRequest<WaitlistEntryView[]>('/api/account/waitlist', { signal }),
    enabled: Boolean(user),
  });
}
