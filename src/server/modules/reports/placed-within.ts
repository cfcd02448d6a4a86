import { and, gte, lt, type SQL, sql } from 'drizzle-orm';
import { addDays, reportTimeZone } from '../../../contracts/reports';
import { orders } from '../../db/schema';

/** The start of a New Zealand calendar day as a moment. */
export const nzMidnight = (date: string) => sql`(${date}::date)::timestamp at time zone ${reportTimeZone}`;

/** Orders placed on the range's New Zealand days: every report table covers these. */
export function placedWithin(from: string, to: string): SQL {
  return and(gte(orders.createdAt, nzMidnight(from)), lt(orders.createdAt, nzMidnight(addDays(to, 1))))!;
}
