import { z } from 'zod';
import { chosenDayField } from './calendar-fields';
import { shippingDetailsSchema } from './checkout';
import type { DayKey } from './days';
import { checkoutPaymentMethods, type CheckoutPaymentMethod, type NzRegion } from './order';

import { subscriptionIntervals, type SubscriptionInterval } from './season-box-terms';

export { dayWords, intervalDays, intervalLabels, subscriberPriceCents, subscriptionIntervals, type SubscriptionInterval, weekdayNames } from './season-box-terms';

/** `awaiting_card`: subscribed by card, the card not saved with Stripe yet (no box comes until it is). */
export const subscriptionStatuses = ['awaiting_card', 'active', 'paused', 'cancelled', 'ended'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];
export const subscriptionStatusLabels: Record<SubscriptionStatus, string> = { awaiting_card: 'Waiting for your card', active: 'Active', paused: 'Paused', cancelled: 'Cancelled', ended: 'Season ended' };

/**
 * One delivery of a subscription: `scheduled` until its run, then `ordered` (an order was made),
 * `skipped` (by the shopper, or unpaid by the packing cut-off), or `missed` (too little stock at
 * the run). `paused`: it falls in a pause and will not come.
 */
export const deliveryStates = ['scheduled', 'skipped', 'ordered', 'missed', 'paused'] as const;
export type SeasonBoxDeliveryState = (typeof deliveryStates)[number];

/** The most boxes one subscription takes per delivery. */
export const maxBoxesPerDelivery = 10;
/** How many coming deliveries the account and a subscription's answer list. */
export const comingDeliveriesShown = 6;
/** The staff forecast's reach: what an importer orders fruit by. */
export const forecastWeeks = 8;

const quantityField = z
  .number({ error: 'Quantity must be a whole number' })
  .int('Quantity must be a whole number')
  .min(1, 'Quantity must be at least 1')
  .max(maxBoxesPerDelivery, `At most ${maxBoxesPerDelivery} boxes a delivery`);
const productIdField = z.number({ error: 'Choose a product' }).int('Choose a product').positive('Choose a product');

/** POST /api/subscriptions. The delivery weekday is the first delivery date's. */
export const subscribeSchema = z.strictObject({
  productId: productIdField,
  quantity: quantityField,
  every: z.enum(subscriptionIntervals, { error: 'Choose every week or every fortnight' }),
  firstDeliveryDate: chosenDayField('Choose the first delivery date'),
  shipping: shippingDetailsSchema,
  paymentMethod: z.enum(checkoutPaymentMethods, { error: 'Choose a payment method' }),
});
export type SubscribeInput = z.input<typeof subscribeSchema>;

/** PATCH /api/subscriptions/:id: the product or quantity, for the next box only or for every box from the next one. */
export const changeSubscriptionSchema = z
  .strictObject({
    productId: productIdField.optional(),
    quantity: quantityField.optional(),
    scope: z.enum(['next', 'all'], { error: 'Choose the next box only or every box' }),
  })
  .refine((input) => input.productId !== undefined || input.quantity !== undefined, { message: 'Change the product or the quantity', path: ['quantity'] });
export type SubscriptionChange = z.input<typeof changeSubscriptionSchema>;

/** POST /api/subscriptions/:id/pause: an optional day to start again (the first box on or after it comes). */
export const pauseSchema = z.strictObject({ resumeOn: chosenDayField('Choose the day to start again').nullable().optional() }).nullish();

/** POST /api/admin/subscription-runs. */
export const startRunSchema = z.strictObject({ deliveryDate: chosenDayField('Choose a delivery date') });

export interface SeasonBoxDelivery {
  date: string;
  /** The day its boxes are packed and sent. */
  dispatchDate: string;
  /** Until this instant (ISO) the shopper may skip or change it; the run makes its order then. */
  cutoffAt: string;
  state: SeasonBoxDeliveryState;
  productId: number;
  productName: string;
  quantity: number;
  /** The box's price now: the product's price less the subscriber discount, times the quantity, with delivery. */
  totalCents: number;
  /** This box alone differs from the subscription (a next-box change). */
  changedForThisBox: boolean;
  /** Before its cut-off: skip, undo and change still work. */
  open: boolean;
  /** Why it was skipped or missed, in words shoppers read. */
  note: string | null;
  orderNumber: string | null;
}

export interface SubscriptionView {
  id: number;
  status: SubscriptionStatus;
  product: { id: number; name: string; imageUrl: string; priceCents: number; subscriberDiscountPercent: number };
  quantity: number;
  every: SubscriptionInterval;
  /** The delivery weekday ("Fri"). */
  weekday: DayKey;
  firstDeliveryDate: string;
  /** The season's last box (the product's season end), or null while staff have not set one. */
  lastDeliveryDate: string | null;
  paymentMethod: CheckoutPaymentMethod;
  shipping: { name: string; phone: string; street: string; suburb: string; city: string; postcode: string; region: NzRegion; deliveryInstructions: string };
  pausedUntil: string | null;
  /** One box's unit price now, the subscriber discount taken off. */
  unitPriceCents: number;
  deliveryCents: number;
  createdAt: string;
  coming: SeasonBoxDelivery[];
  /** Subscribed by card and the card not saved yet: Stripe's page to save it (only in the answer that made it, or asked again). */
  cardSetupUrl?: string | null;
}

/** Staff: a subscription in the list, and its whole history. */
export interface AdminSubscriptionSummary {
  id: number;
  status: SubscriptionStatus;
  customer: { id: number; name: string; email: string };
  productId: number;
  productName: string;
  quantity: number;
  every: SubscriptionInterval;
  weekday: DayKey;
  paymentMethod: CheckoutPaymentMethod;
  nextDeliveryDate: string | null;
  createdAt: string;
}

export interface SubscriptionHistoryEntry {
  date: string;
  state: Exclude<SeasonBoxDeliveryState, 'scheduled' | 'paused'>;
  note: string | null;
  orderNumber: string | null;
  orderStatus: string | null;
  totalCents: number | null;
}

export interface AdminSubscriptionDetail extends AdminSubscriptionSummary {
  subscription: SubscriptionView;
  history: SubscriptionHistoryEntry[];
}

export interface SubscriptionRunResult {
  deliveryDate: string;
  /** Orders this start made (a second start makes none). */
  ordered: number;
  /** Subscriptions short of stock this time (mailed). */
  missed: number;
  /** The run's subscriptions already done before this start. */
  alreadyDone: number;
  stopped: boolean;
}

export interface ForecastRow {
  productId: number;
  productName: string;
  /** Boxes per delivery date. */
  boxes: Record<string, number>;
  total: number;
}

export interface SubscriptionForecast {
  from: string;
  to: string;
  dates: string[];
  products: ForecastRow[];
}

export interface SubscriptionStopState {
  stopped: boolean;
  since: string | null;
}
