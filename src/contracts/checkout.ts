import { z } from 'zod';
import { chosenDayField } from './calendar-fields';
import { looksRural } from './delivery';
import { checkoutPaymentMethods, nzRegions } from './order';
import { fulfilments } from './pickup';
import { optionalText, requiredText } from './text';
import { phoneField } from './user';

/** Issue rules: where an order goes; prefilled from the profile, optionally saved back to it. */
export const shippingDetailsSchema = z.object({
  name: requiredText('Name is required', 2, 100),
  phone: phoneField,
  street: requiredText('Street address is required', 5, 200),
  suburb: optionalText(80),
  city: requiredText('City is required', 2, 80),
  postcode: z
    .string({ error: 'Postcode must be 4 digits' })
    .trim()
    .regex(/^\d{4}$/, 'Postcode must be 4 digits'),
  region: z.enum(nzRegions, { error: 'Choose a region' }),
  deliveryInstructions: optionalText(300),
  /** The shopper says the address is rural; an RD number in the address says so too (`looksRural`). */
  rural: z.boolean({ error: 'Rural delivery must be true or false' }).optional().default(false),
  saveToProfile: z.boolean().optional().default(false),
});
export type ShippingDetails = z.output<typeof shippingDetailsSchema>;

const promoCodeField = z
  .string({ error: 'Promo code must be text' })
  .trim()
  .max(40, 'Promo code must be at most 40 characters')
  .transform((code) => code.toUpperCase())
  .optional();

/**
 * POST /api/checkout/quote: what the order would cost; prices come from the server only. `rural`
 * prices the rural surcharge in (the order itself decides from the address it is sent).
 */
export const quoteRequestSchema = z.object({
  promoCode: promoCodeField,
  rural: z.boolean({ error: 'Rural delivery must be true or false' }).optional().default(false),
  /** Collected from the shop: no delivery fee, no rural surcharge. */
  fulfilment: z.enum(fulfilments, { error: 'Choose delivery or pickup' }).optional().default('delivery'),
});

/** A delivery date as checkout sends it. */
export const deliveryDateField = chosenDayField('Choose a delivery date');

/** Whether an order of these lines needs a delivery date now: pre-orders get theirs when their boxes are allocated. */
export const needsDeliveryDate = (lines: ReadonlyArray<{ isPreOrder: boolean }>): boolean => lines.length > 0 && !lines.some((line) => line.isPreOrder);

/** In-stock and pre-order boxes together: the shopper may have the in-stock ones sent first. */
export const canSendSeparately = (lines: ReadonlyArray<{ isPreOrder: boolean }>): boolean => lines.some((line) => line.isPreOrder) && lines.some((line) => !line.isPreOrder);

/** Boxes an order adds to its dispatch day: every box on it. */
export const boxesOf = (lines: ReadonlyArray<{ quantity: number }>): number => lines.reduce((sum, line) => sum + line.quantity, 0);

/** The rural surcharge applies: the shopper ticked it, or the address has a Rural Delivery number. */
export const isRuralAddress = (shipping: { rural?: boolean; street: string; suburb?: string; city: string }): boolean =>
  Boolean(shipping.rural) || looksRural(shipping.street, shipping.suburb ?? '', shipping.city);

/** The longest gift message: it goes on a card in the box. */
export const giftMessageMaxLength = 300;

/** Characters as a person counts them (an emoji is one), the same count PostgreSQL's char_length keeps. */
export const characterCount = (text: string) => [...text].length;

/**
 * A gift: the shipping details are the recipient's, and the message (empty for none) is printed
 * on the packing slip that goes in the box. Line breaks are kept; other control characters are not.
 */
export const giftSchema = z.strictObject(
  {
    message: z
      .string({ error: 'The gift message must be text' })
      // eslint-disable-next-line no-control-regex -- dropping control characters is the point
      .transform((text) => text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000B-\u001F\u007F]/g, '').trim())
      .refine((text) => characterCount(text) <= giftMessageMaxLength, `A gift message can be at most ${giftMessageMaxLength} characters`)
      .optional()
      .default(''),
  },
  { error: 'A gift is an object with a message' },
);

/** POST /api/orders: lines come from the shopper's cart on the server, never from the request. */
export const placeOrderSchema = z
  .object({
  /** Delivered by courier (the default), or collected from the shop on `pickupDate`. */
  fulfilment: z.enum(fulfilments, { error: 'Choose delivery or pickup' }).default('delivery'),
  /** Where a delivery goes; a pickup needs none (the order carries the account holder's name and phone). */
  shipping: shippingDetailsSchema.optional(),
  /** A pickup order's day, from GET /api/pickup/dates. */
  pickupDate: chosenDayField('Choose a pickup day').optional(),
  promoCode: promoCodeField,
  /** Required when every line is in stock; a pre-order gets its date when its boxes are allocated. */
  deliveryDate: deliveryDateField.optional(),
  paymentMethod: z.enum(checkoutPaymentMethods, { error: 'Choose a payment method' }).default('bank_transfer'),
  /**
   * A cart of in-stock and pre-order boxes: send the in-stock ones on `deliveryDate` and the
   * pre-orders when they arrive (two orders, one payment, no extra delivery charge), or (false,
   * the default) everything together once the pre-orders arrive. Ignored for any other cart.
   */
  sendSeparately: z.boolean({ error: 'Choose how to send your boxes' }).default(false),
  /** Sent as a gift: to the shipping details, with this message; the buyer's profile is never changed by it. */
  gift: giftSchema.optional(),
  idempotencyKey: z
    .string({ error: 'A checkout key is required' })
    .regex(/^[A-Za-z0-9_-]{16,80}$/, 'A checkout key is required'),
  /** The total the shopper was shown, in cents: if prices changed since, the order is refused, not charged differently. */
  expectedTotalCents: z.number({ error: 'Expected total must be a whole number of cents' }).int('Expected total must be a whole number of cents').min(0).optional(),
  })
  .superRefine((order, context) => {
    if (order.fulfilment === 'delivery' && !order.shipping) context.addIssue({ code: 'custom', path: ['shipping'], message: 'Delivery details are required' });
    if (order.fulfilment === 'pickup' && !order.pickupDate) context.addIssue({ code: 'custom', path: ['pickupDate'], message: 'Choose a pickup day' });
    if (order.fulfilment === 'pickup' && order.gift) context.addIssue({ code: 'custom', path: ['gift'], message: 'A gift goes to its recipient by courier: choose delivery to send it' });
  });
export type PlaceOrderInput = z.input<typeof placeOrderSchema>;

/** POST /api/orders in a rush: the 429's message; checkout keeps its order key and tries again. */
export const ordersBusyMessage = 'Many people are ordering right now. Your place is kept: please try again in a moment.';

/**
 * How long checkout waits before sending a placement again after that 429: half a second on
 * average, spread at random so the waiting shoppers do not all come back at once, a little longer
 * after the first tries. Short, so the shop is never left idle while shoppers wait.
 */
export function rushRetryPauseMs(attempt: number): number {
  return (250 + Math.random() * 500) * Math.min(attempt, 2);
}
