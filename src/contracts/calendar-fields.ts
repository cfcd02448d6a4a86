import { z } from 'zod';
import { isCalendarDate, isInShopYears } from './dates';

/** A time of day as staff type it: 24-hour HH:MM. */
export const timeOfDayField = z
  .string({ error: 'Use 24-hour HH:MM' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use 24-hour HH:MM');

/** A calendar day in the delivery and pickup settings: "Date must be a date", "Date must be a real date". */
export const settingsDayField = (label: string) =>
  z
    .string({ error: `${label} must be a date` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: `${label} must be a date`, abort: true })
    // No year rule here: stored settings are read with this schema, and one date refused would
    // reset the whole row to its defaults. These dates are compared as text, never sent to SQL.
    .refine(isCalendarDate, `${label} must be a real date`);

/** Dates closed with the reason shoppers read (delivery, or pickup): each date once, a year of them at most. */
export const closedDatesField = z
  .array(
    z.strictObject({
      date: settingsDayField('Date'),
      reason: z.string({ error: 'Reason must be text' }).trim().min(1, 'Give a reason shoppers will see').max(120, 'Reason must be at most 120 characters'),
    }),
  )
  .max(366, 'At most 366 dates')
  .refine((rows) => new Set(rows.map((row) => row.date)).size === rows.length, 'Each date once');

/** A day a shopper chose at checkout (a delivery day, a pickup day): every failure reads as `message`. */
export const chosenDayField = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message, abort: true })
    .refine((day) => isCalendarDate(day) && isInShopYears(day), message);
