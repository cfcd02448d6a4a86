import { describe, expect, it } from 'vitest';
import { placeOrderSchema, shippingDetailsSchema } from './checkout';

const shipping = {
  name: 'Aroha Ngata',
  phone: '021 123 4567',
  street: '12 Ponsonby Road',
  city: 'Auckland',
  postcode: '1011',
  region: 'Auckland',
};

describe('shipping details', () => {
  it('accepts a New Zealand address and trims it', () => {
    expect(shippingDetailsSchema.parse({ ...shipping, city: ' Auckland ', suburb: 'Ponsonby' })).toMatchObject({ city: 'Auckland', suburb: 'Ponsonby', deliveryInstructions: '', saveToProfile: false });
  });

  it.each([
    ['postcode', '101', 'Postcode must be 4 digits'],
    ['region', 'Queensland', 'Choose a region'],
    ['phone', '12345678', 'Must be a valid NZ mobile number format'],
    ['street', 'Rd', 'Street address is required'],
  ])('refuses a bad %s with its message', (field, value, message) => {
    const result = shippingDetailsSchema.safeParse({ ...shipping, [field]: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: [field], message });
  });
});

describe('placing an order', () => {
  it('takes no prices or lines from the request and upper-cases the promo code', () => {
    const parsed = placeOrderSchema.parse({ shipping, promoCode: ' mango10 ', idempotencyKey: 'k'.repeat(24), totalCents: 1, lines: [{ productId: 1, priceCents: 1 }] });
    expect(parsed).toEqual({ fulfilment: 'delivery', shipping: expect.any(Object), promoCode: 'MANGO10', paymentMethod: 'bank_transfer', sendSeparately: false, idempotencyKey: 'k'.repeat(24) });
  });
});
