import { z } from 'zod';
import { isCalendarDate, isInShopYears, isInstantInShopYears, yearsMessage } from './dates';
import { emailPattern } from './email';

export { emailPattern };

/** A string field whose every failure (missing, wrong type, too short) reads as one message. */
export function requiredText(message: string, min: number, max: number, tooLong?: string) {
  return z
    .string({ error: message })
    .trim()
    .min(min, message)
    .max(max, tooLong ?? `Must be at most ${max} characters`);
}

/**
 * Shop paths only (/uploads/..., /images/...): the shop's Content-Security-Policy shows no other
 * site's pictures, and no scheme (javascript:, data:, //) reaches an <img>. Staff upload pictures instead.
 */
export const isImageUrl = (url: string) => /^\/[^/\\]/.test(url);
export const imageUrlMessage = 'Image URL must be a shop path like /uploads/...: upload the picture';

/** A required picture: `required` is what a missing one reads. */
export function imageUrlField(required: string) {
  return z.string({ error: required }).trim().min(1, required).max(500, 'Image URL must be at most 500 characters').refine(isImageUrl, imageUrlMessage);
}

/**
 * A calendar day typed as YYYY-MM-DD: "From must be a date (YYYY-MM-DD)", "From must be a real
 * date"; `missing` is what an absent one reads. A malformed day stops here, so a rule chained
 * after (not in the past...) only ever sees a real day and adds no second message.
 */
export function calendarDateField(label: string, missing = `${label} must be a date`) {
  return z
    .string({ error: missing })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: `${label} must be a date (YYYY-MM-DD)`, abort: true })
    .refine(isCalendarDate, { message: `${label} must be a real date`, abort: true })
    .refine(isInShopYears, { message: yearsMessage(label), abort: true });
}

/**
 * An instant staff set (a promo's start, a pre-order opening): ISO 8601 with its offset, in the
 * shop's years. `error` is what a malformed one reads; `label` names it in the years' message.
 */
export function instantField(label: string, error: string) {
  return z.iso.datetime({ offset: true, error, abort: true }).refine(isInstantInShopYears, yearsMessage(label, 'date and time'));
}

/** A staff note beside a change (a stock adjustment, a status step, a shipment). */
export const noteField = z.string({ error: 'Note must be text' }).trim().max(300, 'Note must be at most 300 characters').optional();

export function optionalText(max: number) {
  return z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .optional()
    .default('');
}



/** Spec 5: e-mail at least 5 characters, then the pattern; trimmed and lower-cased. */
export const emailField = z
  .string({ error: 'Email address is required' })
  .trim()
  .min(5, 'Email address is required')
  .max(254, 'Please enter a valid email address')
  .regex(emailPattern, 'Please enter a valid email address')
  .transform((email) => email.toLowerCase());
