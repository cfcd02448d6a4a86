import { z } from 'zod';
import { addDays, isInShopYears, nzToday, yearsMessage } from './dates';

/** The GST return periods Inland Revenue allows: one, two or six months. */
export const gstPeriods = ['monthly', 'two-monthly', 'six-monthly'] as const;
export type GstPeriod = (typeof gstPeriods)[number];
export const gstPeriodMonths: Record<GstPeriod, number> = { monthly: 1, 'two-monthly': 2, 'six-monthly': 6 };
export const gstPeriodLabels: Record<GstPeriod, string> = { monthly: 'Monthly', 'two-monthly': 'Two-monthly', 'six-monthly': 'Six-monthly' };

const monthPattern = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The month before today's (New Zealand) month: a return is filed for a period that has ended. */
export function lastMonth(today = nzToday()): string {
  return addDays(`${today.slice(0, 8)}01`, -1).slice(0, 7);
}

/** The first and last day of the period of `months` months ending with the month `ending` (YYYY-MM). */
export function gstPeriodDays(ending: string, months: number): { from: string; to: string } {
  const [year, month] = ending.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - months, 1)).toISOString().slice(0, 10);
  const last = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  return { from: first, to: last };
}

/**
 * GET /api/admin/reports/gst-return (and .csv): the period's length and the month it ends with.
 * Two-monthly periods end in odd or even months and six-monthly ones in any month, as the shop
 * registered with Inland Revenue, so any ending month is taken. The default is last month.
 */
export const gstReturnQuerySchema = z
  .strictObject({
    period: z.enum(gstPeriods, { error: 'Choose monthly, two-monthly or six-monthly' }).default('two-monthly'),
    ending: z
      .string({ error: 'Ending must be a month' })
      .regex(monthPattern, { message: 'Ending must be a month (YYYY-MM)', abort: true })
      .refine(isInShopYears, yearsMessage('Ending', 'month'))
      .optional(),
  })
  .transform((query) => {
    const ending = query.ending ?? lastMonth();
    return { period: query.period, ending, ...gstPeriodDays(ending, gstPeriodMonths[query.period]) };
  })
  .superRefine((query, context) => {
    if (query.from > nzToday()) context.addIssue({ code: 'custom', path: ['ending'], message: 'That period has not started yet' });
  });
export type GstReturnQuery = z.output<typeof gstReturnQuerySchema>;

/**
 * The sales side of a GST return (the GST101A form's boxes 5 to 10, and the refunds' part of box
 * 13), in dollars with 2 decimals. Sales are orders paid in the period (GST included, delivery and
 * surcharges included, discounts taken off); refunds are money given back in the period.
 */
export interface GstReturnView {
  period: GstPeriod;
  from: string;
  to: string;
  /** Box 5: total sales and income, GST included. */
  totalSales: number;
  /** Box 6: zero-rated supplies (exports): none, as the shop delivers in New Zealand only. */
  zeroRated: number;
  /** Box 7: box 5 less box 6. */
  taxableSales: number;
  /** Box 8: 3/23 of box 7, to the cent. */
  gstOnSales: number;
  /** Box 9: adjustments: none come from the shop's sales. */
  adjustments: number;
  /** Box 10: box 8 plus box 9. */
  totalGstCollected: number;
  /** Each order's GST part (3/23 of its total, rounded on its own), added up. */
  ordersGst: number;
  /** Box 8 less the orders' GST parts: cents from rounding each order on its own. */
  roundingDifference: number;
  orders: number;
  /** Money given back in the period, GST included. */
  refundsTotal: number;
  refunds: number;
  /** 3/23 of the refunds: a credit adjustment, entered in box 13 with any others. */
  refundsGst: number;
  /** Each refund's GST part, added up, and the difference as above. */
  refundsGstParts: number;
  refundsRoundingDifference: number;
}
