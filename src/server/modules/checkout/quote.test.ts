import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestShop, registerAndSignIn, type TestShop } from '../../testing/test-app';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(async () => shop?.close());

let shoppers = 0;
async function shopperWithCart(lines: Array<[productId: number, quantity: number]>) {
  shoppers += 1;
  const { user, cookie } = await registerAndSignIn(shop.app, { username: `quoter${shoppers}`, email: `quote${shoppers}@example.nz` });
  const call = as(shop.app, cookie);
  for (const [productId, quantity] of lines) {
    expect((await call({ method: 'POST', url: `/api/cart/${user.id}/items`, payload: { productId, quantity } })).statusCode).toBe(200);
  }
  return (payload: Record<string, unknown> = {}) => call({ method: 'POST', url: '/api/checkout/quote', payload });
}

describe('POST /api/checkout/quote', () => {
  it('asks a visitor to sign in', async () => {
    const response = await shop.app.inject({ method: 'POST', url: '/api/checkout/quote', payload: {} });
    expect(response.statusCode).toBe(401);
  });

  it('refuses an empty cart', async () => {
    const response = await (await shopperWithCart([]))();
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: 'Your cart is empty' });
  });

  it('prices the cart with $12 shipping and shows the GST part of the total', async () => {
    const quote = await shopperWithCart([[1, 2], [3, 1]]);
    const response = await quote({ total: 1, subtotal: 1, lines: [{ productId: 1, price: 0.01 }] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ subtotal: 174.97, shipping: 12, discount: 0, total: 186.97, gst: 24.39, promo: null, paymentMethods: ['bank_transfer'] });
    expect(response.json().lines).toHaveLength(2);
  });

  it('applies a percentage code', async () => {
    const response = await (await shopperWithCart([[1, 2], [3, 1]]))({ promoCode: ' mango10 ' });
    expect(response.json()).toMatchObject({ subtotal: 174.97, discount: 17.5, total: 169.47, gst: 22.1, promo: { code: 'MANGO10', applied: true } });
  });

  it('says why a code does not apply and charges the full price', async () => {
    const quote = await shopperWithCart([[3, 1]]);
    expect((await quote({ promoCode: 'FIRSTBOX' })).json()).toMatchObject({
      discount: 0,
      total: 56.99,
      promo: { code: 'FIRSTBOX', applied: false, message: 'Your order is below the minimum for this promo code.' },
    });
    expect((await quote({ promoCode: 'NOPE' })).json()).toMatchObject({ promo: { applied: false, message: "We don't recognise that promo code." } });
  });
});
