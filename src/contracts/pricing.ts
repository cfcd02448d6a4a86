import { gstPartOfCents } from './money';

/** A promo code as the pricing rules see it (values in cents or whole percent). */
export interface PromoTerms {
  code: string;
  discountType: 'percentage' | 'fixed';
  /** Whole percent for 'percentage', cents for 'fixed'. */
  discountValue: number;
  minimumOrderCents: number | null;
  startsAt: Date | null;
  endsAt: Date | null;
  isActive: boolean;
  maxUses: number | null;
  maxUsesPerCustomer: number | null;
  usedCount: number;
}

export interface Totals {
  subtotalCents: number;
  /** Shipping with any rural surcharge: what the order stores. */
  shippingCents: number;
  /** The rural surcharge part of `shippingCents` (0 for a town address). */
  ruralSurchargeCents: number;
  discountCents: number;
  totalCents: number;
  /** Prices include GST 15%: the GST part of the total, round(total * 3 / 23). */
  gstCents: number;
}

/** Why a code does not apply, in words a shopper reads beside the promo field. */
export type PromoRefusal =
  | 'unknown'
  | 'inactive'
  | 'not_started'
  | 'expired'
  | 'below_minimum'
  | 'used_up'
  | 'customer_limit';

export const promoRefusalMessages: Record<PromoRefusal, string> = {
  unknown: "We don't recognise that promo code.",
  inactive: 'This promo code is no longer available.',
  not_started: "This promo code isn't active yet.",
  expired: 'This promo code has expired.',
  below_minimum: 'Your order is below the minimum for this promo code.',
  used_up: 'This promo code has been fully redeemed.',
  customer_limit: "You've already used this promo code.",
};

/**
 * Whether a code applies to an order of `subtotalCents` placed `now` by a customer who has used it
 * `customerUses` times before; null when it applies.
 */
export function promoRefusal(promo: PromoTerms | null, subtotalCents: number, now: Date, customerUses: number): PromoRefusal | null {
  if (!promo) return 'unknown';
  if (!promo.isActive) return 'inactive';
  if (promo.startsAt && now < promo.startsAt) return 'not_started';
  if (promo.endsAt && now >= promo.endsAt) return 'expired';
  if (promo.maxUses !== null && promo.usedCount >= promo.maxUses) return 'used_up';
  if (promo.maxUsesPerCustomer !== null && customerUses >= promo.maxUsesPerCustomer) return 'customer_limit';
  if (promo.minimumOrderCents !== null && subtotalCents < promo.minimumOrderCents) return 'below_minimum';
  return null;
}

/** The discount of an applicable code: never more than the subtotal. */
export function discountCents(promo: Pick<PromoTerms, 'discountType' | 'discountValue'>, subtotalCents: number): number {
  const raw = promo.discountType === 'percentage' ? Math.round((subtotalCents * promo.discountValue) / 100) : promo.discountValue;
  return Math.min(Math.max(raw, 0), subtotalCents);
}

/**
 * Subtotal + shipping (+ rural surcharge) - discount = total (never below $0.00), and its GST part.
 * A promo discounts the fruit only, never the delivery.
 */
export function orderTotals(lines: Array<{ unitPriceCents: number; quantity: number }>, baseShippingCents: number, discount: number, ruralSurchargeCents = 0): Totals {
  const subtotalCents = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  const discountApplied = Math.min(Math.max(discount, 0), subtotalCents);
  const shippingCents = baseShippingCents + ruralSurchargeCents;
  const totalCents = Math.max(subtotalCents + shippingCents - discountApplied, 0);
  return { subtotalCents, shippingCents, ruralSurchargeCents, discountCents: discountApplied, totalCents, gstCents: gstPartOfCents(totalCents) };
}
