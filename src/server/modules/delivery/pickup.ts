import { randomInt } from 'node:crypto';
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import { addDays, formatDay } from '../../../contracts/dates';
import type { DeliverySettings } from '../../../contracts/delivery';
import type { PaymentMethod } from '../../../contracts/order';
import { type PickupDayOption, pickupCodeAlphabet, pickupCodeLength, type PickupHours } from '../../../contracts/pickup';
import { weekdayOf } from '../../../contracts/days';
import type { Db, Tx } from '../../db/client';
import { pickupDays } from '../../db/schema';
import { BadRequest, Conflict } from '../../lib/errors';
import { firstPackingDay, firstPackingDayFor, holidayIn, packingRegion, tooSoonToTransfer } from './calendar';

/** How far ahead pickup days are offered and accepted, in days. */
export const pickupHorizonDays = 60;

/** A day's pickup hours, or null when the shop has none that weekday. */
export function pickupHoursOn(settings: DeliverySettings, date: string): PickupHours | null {
  return settings.pickup.hours[weekdayOf(date)];
}

/**
 * Why boxes cannot be collected on `date`: a reason shoppers read, null when they can, or
 * undefined for a weekday with no pickup hours (never offered). The shop's closed dates close
 * pickup too, and the public holidays where it packs (its region's anniversary day included).
 */
export function pickupWhyNot(settings: DeliverySettings, date: string, booked: number): string | null | undefined {
  if (!pickupHoursOn(settings, date)) return undefined;
  const closed = settings.pickup.closedDates.find((row) => row.date === date) ?? settings.closedDates.find((row) => row.date === date);
  if (closed) return `Closed: ${closed.reason}`;
  const holiday = holidayIn(packingRegion, date);
  if (holiday) return holiday;
  if (booked + 1 > settings.pickup.ordersPerDay) return 'Fully booked';
  return null;
}

/** The pickup days checkout offers, soonest first from the first day boxes ordered now are packed. */
export function pickupOptions(settings: DeliverySettings, now: Date, booked: ReadonlyMap<string, number>, wanted = 10, payment?: PaymentMethod): PickupDayOption[] {
  if (!settings.pickup.enabled) return [];
  const first = firstPackingDay(now, settings.cutoffTime);
  const payableFrom = firstPackingDayFor(now, settings.cutoffTime, payment);
  const options: PickupDayOption[] = [];
  let available = 0;
  for (let date = first, step = 0; step < pickupHorizonDays && available < wanted; date = addDays(date, 1), step += 1) {
    let reason = pickupWhyNot(settings, date, booked.get(date) ?? 0);
    if (reason === undefined) continue;
    if (reason === null && date < payableFrom) reason = tooSoonToTransfer;
    if (reason === null) available += 1;
    options.push({ date, hours: pickupHoursOn(settings, date)!, state: reason === null ? { available: true } : { available: false, reason } });
  }
  return options;
}

/** Orders booked per pickup day from `from` to `to`. */
export async function pickupsBookedBetween(db: Db | Tx, from: string, to: string): Promise<Map<string, number>> {
  const rows = await db.select().from(pickupDays).where(and(gte(pickupDays.date, from), lte(pickupDays.date, to)));
  return new Map(rows.map((row) => [row.date, row.bookedOrders]));
}

/** The dates offered now, with the orders already booked. */
export async function pickupDates(db: Db | Tx, settings: DeliverySettings, now: Date, payment?: PaymentMethod): Promise<PickupDayOption[]> {
  if (!settings.pickup.enabled) return [];
  const from = firstPackingDay(now, settings.cutoffTime);
  return pickupOptions(settings, now, await pickupsBookedBetween(db, from, addDays(from, pickupHorizonDays)), 10, payment);
}

/** Why `date` cannot be a pickup day at `now` (a 400 on the field), whatever is booked; null when it can. */
export function pickupDayRefusal(settings: DeliverySettings, date: string, now: Date): BadRequest | null {
  const refuse = (message: string) => new BadRequest(message, { pickupDate: message });
  const first = firstPackingDay(now, settings.cutoffTime);
  if (date < first) return refuse(`${formatDay(date)} is too soon for pickup now. Please choose a later day.`);
  if (date >= addDays(first, pickupHorizonDays)) return refuse('That pickup day is too far ahead. Please choose one of the days offered.');
  const reason = pickupWhyNot(settings, date, 0);
  if (reason === undefined) return refuse(`There is no pickup on ${formatDay(date)}. Please choose one of the days offered.`);
  if (reason !== null) return refuse(`${formatDay(date)} is not available for pickup (${reason}). Please choose another day.`);
  return null;
}

/**
 * Checks the pickup day the shopper chose and takes one of its places in `tx`, with a conditional
 * update: of parallel orders only as many as the day holds succeed. A full day answers 409 with
 * the next free one; any other refusal is a 400 on the field.
 */
export async function bookPickupDay(tx: Tx, settings: DeliverySettings, date: string, now: Date): Promise<void> {
  const refused = pickupDayRefusal(settings, date, now);
  if (refused) throw refused;
  await tx.insert(pickupDays).values({ date, bookedOrders: 0 }).onConflictDoNothing();
  const [claimed] = await tx
    .update(pickupDays)
    .set({ bookedOrders: sql`${pickupDays.bookedOrders} + 1` })
    .where(and(eq(pickupDays.date, date), sql`${pickupDays.bookedOrders} + 1 <= ${settings.pickup.ordersPerDay}`))
    .returning({ booked: pickupDays.bookedOrders });
  if (claimed) return;
  const next = (await pickupDates(tx, settings, now)).find((option) => option.state.available);
  const message = next
    ? `${formatDay(date)} is now fully booked for pickup. The next free pickup day is ${formatDay(next.date)}.`
    : `${formatDay(date)} is now fully booked for pickup, and no other pickup day is free in the coming weeks.`;
  throw new Conflict(message, { pickupDate: message }, next ? { nextPickupDate: next.date } : undefined);
}

/** Gives a pickup day back the place an order held there. */
export async function releasePickupDay(tx: Tx, date: string): Promise<void> {
  await tx
    .update(pickupDays)
    .set({ bookedOrders: sql`greatest(${pickupDays.bookedOrders} - 1, 0)` })
    .where(eq(pickupDays.date, date));
}

/** A new pickup code: 6 characters from 31, about 887 million codes; shown with the order number, so never guessed alone. */
export function newPickupCode(): string {
  return Array.from({ length: pickupCodeLength }, () => pickupCodeAlphabet[randomInt(pickupCodeAlphabet.length)]).join('');
}
