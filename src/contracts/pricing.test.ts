import { describe, expect, it } from 'vitest';
import { discountCents, orderTotals, promoRefusal, type PromoTerms } from './pricing';

const now = new Date('2026-11-22T00:00:00Z');
const promo: PromoTerms = {
  code: 'MANGO10',
  discountType: 'percentage',
  discountValue: 10,
  minimumOrderCents: null,
  startsAt: null,
  endsAt: null,
  isActive: true,
  maxUses: null,
  maxUsesPerCustomer: null,
  usedCount: 0,
};

describe('order totals', () => {
  it('adds shipping to the lines, takes off the discount and shows the GST part of the total', () => {
    const totals = orderTotals([{ unitPriceCents: 6499, quantity: 2 }, { unitPriceCents: 4499, quantity: 1 }], 1200, 1750);
    expect(totals).toEqual({ subtotalCents: 17497, shippingCents: 1200, ruralSurchargeCents: 0, discountCents: 1750, totalCents: 16947, gstCents: 2210 });
  });

  it('adds a rural surcharge to shipping, never discounts it, and counts its GST', () => {
    const totals = orderTotals([{ unitPriceCents: 6499, quantity: 2 }], 1200, 20000, 500);
    // The promo takes the whole $129.98 of fruit; $12.00 + $5.00 of delivery is still paid.
    expect(totals).toEqual({ subtotalCents: 12998, shippingCents: 1700, ruralSurchargeCents: 500, discountCents: 12998, totalCents: 1700, gstCents: 222 });
  });

  it('never discounts more than the subtotal, so shipping is still paid', () => {
    expect(orderTotals([{ unitPriceCents: 500, quantity: 1 }], 1200, 5000)).toMatchObject({ discountCents: 500, totalCents: 1200, gstCents: 157 });
  });

  it('rounds a percentage discount to the cent and caps a fixed one at the subtotal', () => {
    expect(discountCents(promo, 6499)).toBe(650);
    expect(discountCents({ discountType: 'fixed', discountValue: 2000 }, 1500)).toBe(1500);
  });
});

describe('promo code rules', () => {
  it.each([
    ['an unknown code', null, 10_000, 0, 'unknown'],
    ['an inactive code', { ...promo, isActive: false }, 10_000, 0, 'inactive'],
    ['a code before its window', { ...promo, startsAt: new Date('2026-12-01T00:00:00Z') }, 10_000, 0, 'not_started'],
    ['a code after its window', { ...promo, endsAt: new Date('2026-11-21T00:00:00Z') }, 10_000, 0, 'expired'],
    ['an order under the minimum', { ...promo, minimumOrderCents: 5000 }, 4999, 0, 'below_minimum'],
    ['a code with no uses left', { ...promo, maxUses: 3, usedCount: 3 }, 10_000, 0, 'used_up'],
    ['a customer at their limit', { ...promo, maxUsesPerCustomer: 1 }, 10_000, 1, 'customer_limit'],
  ] as const)('refuses %s', (_name, terms, subtotal, uses, reason) => {
    expect(promoRefusal(terms, subtotal, now, uses)).toBe(reason);
  });

  it('accepts a code at exactly its minimum and with one use left', () => {
    expect(promoRefusal({ ...promo, minimumOrderCents: 5000, maxUses: 3, usedCount: 2, maxUsesPerCustomer: 2 }, 5000, now, 1)).toBeNull();
  });
});
