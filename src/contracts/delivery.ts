import { z } from 'zod';
import { closedDatesField, settingsDayField, timeOfDayField } from './calendar-fields';
import { type DayKey, dayKeys } from './days';
import { type NzRegion, nzRegions } from './order';
import { defaultPickupSettings, pickupSettingsSchema } from './pickup';

/**
 * Delivery that fits fresh fruit: each region's delivery weekdays and how many days its boxes are
 * on the road, one cut-off for packing today, the boxes the shop can pack per dispatch day, and
 * dates staff close. Public holidays come from a holiday library on the server, never from here.
 */

/** The South Island's regions: two days on the road by default, one for the North Island. */
export const southIslandRegions: readonly NzRegion[] = ['Tasman', 'Nelson', 'Marlborough', 'West Coast', 'Canterbury', 'Otago', 'Southland'];


export const regionDeliverySchema = z.strictObject({
  /** The weekdays a courier delivers to the region for the shop; empty: the shop does not deliver there. */
  days: z
    .array(z.enum(dayKeys, { error: 'Choose weekdays' }), { error: 'Choose weekdays' })
    .max(7)
    .refine((days) => new Set(days).size === days.length, 'Each weekday once'),
  /** Days from dispatch to delivery: 1 is next day. */
  leadDays: z.number({ error: 'Lead time must be a number of days' }).int('Lead time must be whole days').min(1, 'Lead time is at least 1 day').max(5, 'Lead time is at most 5 days'),
});
export type RegionDelivery = z.output<typeof regionDeliverySchema>;

export const deliverySettingsSchema = z.strictObject({
  regions: z.strictObject(Object.fromEntries(nzRegions.map((region) => [region, regionDeliverySchema])) as Record<NzRegion, typeof regionDeliverySchema>),
  /** Orders placed before this New Zealand time are packed the same working day. */
  cutoffTime: timeOfDayField,
  /** Boxes the shop can pack on one dispatch day, unless a date says otherwise. */
  boxesPerDay: z.number({ error: 'Enter a number of boxes' }).int('Enter a whole number of boxes').min(0, 'Cannot be negative').max(100_000, 'At most 100000 boxes'),
  capacityOverrides: z
    .array(
      z.strictObject({
        date: settingsDayField('Date'),
        boxes: z.number({ error: 'Enter a number of boxes' }).int('Enter a whole number of boxes').min(0, 'Cannot be negative').max(100_000, 'At most 100000 boxes'),
      }),
    )
    .max(366, 'At most 366 dates')
    .refine((rows) => new Set(rows.map((row) => row.date)).size === rows.length, 'Each date once'),
  /** Dates nothing is dispatched or delivered (a delayed shipment, a holiday of the shop's own). */
  closedDates: closedDatesField,
  /** Added to an order going to a rural address (GST included), in cents. */
  ruralSurchargeCents: z.number({ error: 'Surcharge must be an amount in dollars' }).int('Surcharge must be whole cents').min(0, 'Cannot be negative').max(10_000, 'At most $100.00'),
  /** Click-and-collect at the shop; settings saved before it existed read as the default (off). */
  pickup: pickupSettingsSchema.default(defaultPickupSettings),
});
export type DeliverySettings = z.output<typeof deliverySettingsSchema>;

/**
 * PUT /api/admin/delivery: the same settings, where a body without `pickup` (a page or script from
 * before click-and-collect) leaves the stored pickup settings as they are, instead of resetting them.
 */
export const deliverySettingsUpdateSchema = deliverySettingsSchema.extend({ pickup: pickupSettingsSchema.optional() });
export type DeliverySettingsUpdate = z.output<typeof deliverySettingsUpdateSchema>;

const weekdays: DayKey[] = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'];

/**
 * Delivery a new shop starts with: the North Island Tuesday to Friday, next day; the South Island
 * Wednesday to Friday, two days on the road. Neither leaves fruit in a depot over a weekend.
 */
export const defaultDeliverySettings: DeliverySettings = {
  regions: Object.fromEntries(
    nzRegions.map((region) => [region, southIslandRegions.includes(region) ? { days: weekdays.slice(2), leadDays: 2 } : { days: weekdays.slice(1), leadDays: 1 }]),
  ) as Record<NzRegion, RegionDelivery>,
  cutoffTime: '12:00',
  boxesPerDay: 40,
  capacityOverrides: [],
  closedDates: [],
  ruralSurchargeCents: 500,
  pickup: defaultPickupSettings,
};

/** Why a delivery date cannot be chosen, as checkout shows it. */
export type DeliveryDayState = { available: true } | { available: false; reason: string };

/** One date checkout offers for the address's region. */
export interface DeliveryDayOption {
  date: string;
  /** The day the boxes are packed and handed to the courier. */
  dispatchDate: string;
  state: DeliveryDayState;
}

/** A rural address: a Rural Delivery number ("RD 2") in any line of it. */
export function looksRural(...lines: string[]): boolean {
  return lines.some((line) => /\bR\.?\s?D\.?\s*\d{1,2}\b/i.test(line));
}
