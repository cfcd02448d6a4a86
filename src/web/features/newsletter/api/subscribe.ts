import type { SubscribeAnswer, SubscribeInput } from '../../../../contracts/newsletter';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/newsletter: stores the subscription and mails a welcome with an unsubscribe link. */
export const postNewsletterSubscription = (input: SubscribeInput) =>
  apiRequest<SubscribeAnswer>('/api/newsletter', { method: 'POST', body: input });
