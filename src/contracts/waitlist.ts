import { z } from 'zod';
import { emailField } from './text';

/**
 * POST /api/waitlist: a signed-in shopper sends the product only (their account's address is
 * used); a visitor sends an address too, which is confirmed through a mailed link.
 */
export const joinWaitlistSchema = z.strictObject({
  productId: z.number({ error: 'Choose a product' }).int('Choose a product').positive('Choose a product'),
  email: emailField.optional(),
});
export type JoinWaitlistInput = z.input<typeof joinWaitlistSchema>;

/**
 * `subscribed`: on the list now; `already subscribed`: was on it before; `confirm by e-mail`: a
 * visitor's address gets a mail (a confirm link, or a note that it is already on the list), so
 * the answer never tells a visitor whether somebody else's address is on a list.
 */
export type WaitlistJoinState = 'subscribed' | 'already subscribed' | 'confirm by e-mail';

export interface WaitlistJoinAnswer {
  state: WaitlistJoinState;
  message: string;
}

/** GET and POST /api/waitlist/manage?token=, /api/waitlist/unsubscribe?token=: opened from a mail. */
export const waitlistTokenQuerySchema = z.object({
  token: z.string().min(20).max(200).optional().catch(undefined),
});

/** A shopper's own waiting entry (GET /api/account/waitlist). */
export interface WaitlistEntryView {
  id: number;
  productId: number;
  productName: string;
  /** ISO time the shopper joined. */
  joinedAt: string;
}

/** Per product, for staff: confirmed entries waiting, visitors yet to confirm, e-mails sent. */
export interface WaitlistCount {
  productId: number;
  productName: string;
  waiting: number;
  unconfirmed: number;
  notified: number;
}
