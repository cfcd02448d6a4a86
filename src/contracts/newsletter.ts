import { z } from 'zod';
import { emailField } from './text';

/** POST /api/newsletter: the e-mail rules of sign-in (spec 5); unknown fields are refused. */
export const subscribeSchema = z.strictObject({ email: emailField });
export type SubscribeInput = z.input<typeof subscribeSchema>;

/**
 * GET and POST /api/newsletter/unsubscribe?token=: opened from a mail (GET asks to confirm, POST
 * unsubscribes), so it never fails validation with JSON; a missing or malformed token reads as an
 * invalid link on the HTML page.
 */
export const unsubscribeQuerySchema = z.object({
  token: z.string().min(20).max(200).optional().catch(undefined),
});

/** The same answer whether the address was new, already subscribed or coming back. */
export interface SubscribeAnswer {
  message: string;
}
