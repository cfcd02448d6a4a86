import { z } from 'zod';
import { closedDatesField, timeOfDayField } from './calendar-fields';
import { type DayKey, dayKeys } from './days';
import type { DeliveryDayState } from './delivery';

/**
 * Click-and-collect (issue 28): shoppers collect their boxes from the shop on a day it is open for
 * pickup. Public holidays where the shop packs come from the delivery calendar; these are the
 * shop's own hours, capacity and closed dates.
 */

const time = timeOfDayField;

const pickupHoursSchema = z
  .strictObject({ open: time, close: time })
  .refine((hours) => hours.close > hours.open, { path: ['close'], message: 'Closing must be after opening' });
export type PickupHours = z.output<typeof pickupHoursSchema>;

export const pickupSettingsSchema = z.strictObject({
  /** Offered at checkout. */
  enabled: z.boolean({ error: 'Must be true or false' }),
  /** Where shoppers collect: shown at checkout, on the order and in its e-mails. */
  address: z.string({ error: 'Give the pickup address' }).trim().min(5, 'Give the pickup address').max(200, 'Address must be at most 200 characters'),
  /** Each weekday's pickup hours, or null when there is no pickup that day. */
  hours: z.strictObject(Object.fromEntries(dayKeys.map((day) => [day, pickupHoursSchema.nullable()])) as Record<DayKey, z.ZodNullable<typeof pickupHoursSchema>>),
  /** Orders that can be collected on one day. */
  ordersPerDay: z.number({ error: 'Enter a number of orders' }).int('Enter a whole number of orders').min(0, 'Cannot be negative').max(10_000, 'At most 10000 orders'),
  /** Days with no pickup (besides public holidays and the shop's closed dates). */
  closedDates: closedDatesField,
});
export type PickupSettings = z.output<typeof pickupSettingsSchema>;

const shopHours = { open: '10:00', close: '16:00' };

/** A new shop offers no pickup until staff turn it on; its hours are ready: Tuesday to Saturday, 10 to 4. */
export const defaultPickupSettings: PickupSettings = {
  enabled: false,
  address: '24 Karaka Street, Mount Eden, Auckland 1024',
  hours: { Mon: null, Tue: shopHours, Wed: shopHours, Thu: shopHours, Fri: shopHours, Sat: shopHours, Sun: null },
  ordersPerDay: 20,
  closedDates: [],
};

/** How an order reaches the shopper. */
export const fulfilments = ['delivery', 'pickup'] as const;
export type Fulfilment = (typeof fulfilments)[number];

/** One day checkout offers for pickup: the same shape as a delivery date, with the hours. */
export interface PickupDayOption {
  date: string;
  state: DeliveryDayState;
  hours: PickupHours;
}

/** GET /api/pickup/dates. */
export interface PickupDates {
  enabled: boolean;
  address: string;
  dates: PickupDayOption[];
}

/** A pickup order's code, shown to the shopper and checked at the counter: no look-alike characters. */
export const pickupCodeAlphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const pickupCodeLength = 6;

/** What an order says about its pickup: the code, and where and when, as promised when it was placed (the day is its `deliveryDate`). */
export interface OrderPickupView {
  code: string;
  address: string;
  /** "10:00–16:00". */
  hours: string;
}

export const hoursText = (hours: PickupHours) => `${hours.open}–${hours.close}`;

