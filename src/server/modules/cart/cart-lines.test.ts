import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cart } from '../../../contracts/cart';
import type { ApiErrorBody } from '../../../contracts/errors';
import { as, createTestShop, registerAndSignIn, type TestShop } from '../../testing/test-app';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(async () => shop?.close());

let shoppers = 0;
/** A new signed-in shopper whose cart holds 2 Alphonso (line 0) and 1 Kesar (line 1). */
async function shopperWithCart() {
  shoppers += 1;
  const { user, cookie } = await registerAndSignIn(shop.app, { username: `lineshopper${shoppers}`, email: `lines${shoppers}@example.nz` });
  const call = (options: InjectOptions) => as(shop.app, cookie)(options);
  await call({ method: 'POST', url: `/api/cart/${user.id}/items`, payload: { productId: 1, quantity: 2 } });
  const filled = (await call({ method: 'POST', url: `/api/cart/${user.id}/items`, payload: { productId: 2, quantity: 1 } })).json<Cart>();
  return {
    id: user.id,
    cookie,
    call,
    lineIds: filled.items.map((line) => line.id),
    cart: async () => (await call({ method: 'GET', url: `/api/cart/${user.id}` })).json<Cart>(),
  };
}

describe('PUT /api/cart/:userId/items/:itemId', () => {
  it('sets the quantity of a line and answers the whole cart', async () => {
    const shopper = await shopperWithCart();
    const response = await shopper.call({ method: 'PUT', url: `/api/cart/${shopper.id}/items/${shopper.lineIds[0]}`, payload: { quantity: 5 } });
    expect(response.statusCode).toBe(200);
    const cart = response.json<Cart>();
    expect(cart.items.map((line) => [line.productId, line.quantity])).toEqual([[1, 5], [2, 1]]);
    // 5 x $64.99 + 1 x $59.99, in cents.
    expect(cart).toMatchObject({ userId: shopper.id, itemCount: 6, totalPrice: (5 * 6499 + 5999) / 100 });
  });

  it('refuses a quantity above the stock with 400 and leaves the line as it was', async () => {
    const shopper = await shopperWithCart();
    const before = await shopper.cart();
    const response = await shopper.call({ method: 'PUT', url: `/api/cart/${shopper.id}/items/${shopper.lineIds[1]}`, payload: { quantity: 26 } });
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>().fieldErrors).toEqual({ quantity: 'Only 25 of Kesar Mangoes available' });
    expect(await shopper.cart()).toEqual(before);
  });

  it.each([
    ['zero', 'Quantity must be at least 1', 0],
    ['negative', 'Quantity must be at least 1', -1],
    ['fractional', 'Quantity must be a whole number', 2.5],
  ])('refuses a %s quantity with 400', async (_label, message, quantity) => {
    const shopper = await shopperWithCart();
    const before = await shopper.cart();
    const response = await shopper.call({ method: 'PUT', url: `/api/cart/${shopper.id}/items/${shopper.lineIds[0]}`, payload: { quantity } });
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>().fieldErrors?.quantity).toBe(message);
    expect(await shopper.cart()).toEqual(before);
  });

  it('refuses unknown fields by name', async () => {
    const shopper = await shopperWithCart();
    const response = await shopper.call({ method: 'PUT', url: `/api/cart/${shopper.id}/items/${shopper.lineIds[0]}`, payload: { quantity: 1, productId: 12 } });
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>().fieldErrors).toEqual({ productId: 'Unknown field: productId' });
  });

  it('answers 404 for a line of another cart and for a line that does not exist', async () => {
    const shopper = await shopperWithCart();
    const other = await shopperWithCart();
    for (const itemId of [other.lineIds[0], 999999]) {
      const response = await shopper.call({ method: 'PUT', url: `/api/cart/${shopper.id}/items/${itemId}`, payload: { quantity: 3 } });
      expect(response.statusCode).toBe(404);
      expect(response.json<ApiErrorBody>()).toEqual({ message: 'This item is not in your cart' });
    }
    expect((await other.cart()).items[0]!.quantity).toBe(2);
  });
});

describe('DELETE /api/cart/:userId/items/:itemId', () => {
  it('removes one line and answers the rest of the cart', async () => {
    const shopper = await shopperWithCart();
    const response = await shopper.call({ method: 'DELETE', url: `/api/cart/${shopper.id}/items/${shopper.lineIds[0]}` });
    expect(response.statusCode).toBe(200);
    const cart = response.json<Cart>();
    expect(cart.items.map((line) => line.id)).toEqual([shopper.lineIds[1]]);
    expect(cart).toMatchObject({ itemCount: 1, totalPrice: 59.99 });
    const again = await shopper.call({ method: 'DELETE', url: `/api/cart/${shopper.id}/items/${shopper.lineIds[0]}` });
    expect(again.statusCode).toBe(404);
    expect(again.json<ApiErrorBody>()).toEqual({ message: 'This item is not in your cart' });
  });

  it('answers 404 for a line of another cart and leaves that cart alone', async () => {
    const shopper = await shopperWithCart();
    const other = await shopperWithCart();
    const response = await shopper.call({ method: 'DELETE', url: `/api/cart/${shopper.id}/items/${other.lineIds[1]}` });
    expect(response.statusCode).toBe(404);
    expect((await other.cart()).items).toHaveLength(2);
  });
});

describe('DELETE /api/cart/:userId', () => {
  it('clears the cart and answers the empty cart', async () => {
    const shopper = await shopperWithCart();
    const response = await shopper.call({ method: 'DELETE', url: `/api/cart/${shopper.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json<Cart>()).toEqual({ userId: shopper.id, items: [], itemCount: 0, totalPrice: 0 });
    expect(await shopper.cart()).toEqual({ userId: shopper.id, items: [], itemCount: 0, totalPrice: 0 });
  });
});

describe("another shopper's cart", () => {
  it.each([
    ['GET', '', undefined],
    ['POST', '/items', { productId: 1, quantity: 1 }],
    ['PUT', '/items/LINE', { quantity: 9 }],
    ['DELETE', '/items/LINE', undefined],
    ['DELETE', '', undefined],
  ] as const)('answers 403 to %s /api/cart/{otherUserId}%s and changes nothing', async (method, suffix, payload) => {
    const shopper = await shopperWithCart();
    const victim = await shopperWithCart();
    const before = await victim.cart();
    const url = `/api/cart/${victim.id}${suffix.replace('LINE', String(victim.lineIds[0]))}`;
    const response = await shopper.call({ method, url, ...(payload && { payload }) });
    expect(response.statusCode).toBe(403);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'You can only use your own cart.' });
    expect(await victim.cart()).toEqual(before);
  });
});

describe('the cart of a visitor', () => {
  it.each([
    ['GET', '/api/cart/1', undefined],
    ['POST', '/api/cart/1/items', { productId: 1, quantity: 1 }],
    ['PUT', '/api/cart/1/items/1', { quantity: 2 }],
    ['DELETE', '/api/cart/1/items/1', undefined],
    ['DELETE', '/api/cart/1', undefined],
  ] as const)('answers 401 to %s %s', async (method, url, payload) => {
    const response = await shop.app.inject({ method, url, ...(payload && { payload }) });
    expect(response.statusCode).toBe(401);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'Please sign in to continue.' });
  });
});
