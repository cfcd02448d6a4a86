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
/** A new signed-in shopper with an empty cart, and shortcuts to their cart routes. */
async function newShopper() {
  shoppers += 1;
  const { user, cookie } = await registerAndSignIn(shop.app, { username: `cartshopper${shoppers}`, email: `cart${shoppers}@example.nz` });
  const call = (options: InjectOptions) => as(shop.app, cookie)(options);
  return {
    id: user.id,
    cookie,
    cart: async () => (await call({ method: 'GET', url: `/api/cart/${user.id}` })).json<Cart>(),
    add: (payload: Record<string, unknown>) => call({ method: 'POST', url: `/api/cart/${user.id}/items`, payload }),
  };
}

/** Spec 3's derived totals, recomputed in cents so float noise cannot hide a wrong sum. */
function expectedTotals(cart: Cart) {
  const cents = cart.items.reduce((sum, line) => sum + Math.round(line.product.price * 100) * line.quantity, 0);
  return { itemCount: cart.items.reduce((sum, line) => sum + line.quantity, 0), totalPrice: cents / 100 };
}

describe('GET /api/cart/:userId', () => {
  it('answers an empty cart in the spec shape', async () => {
    const shopper = await newShopper();
    const response = await as(shop.app, shopper.cookie)({ method: 'GET', url: `/api/cart/${shopper.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json<Cart>()).toEqual({ userId: shopper.id, items: [], itemCount: 0, totalPrice: 0 });
    expect(response.headers['cache-control']).toBe('private, no-store');
  });
});

describe('POST /api/cart/:userId/items', () => {
  it('adds a line and answers the whole cart in the spec shape', async () => {
    const shopper = await newShopper();
    const response = await shopper.add({ productId: 1, quantity: 2 });
    expect(response.statusCode).toBe(200);
    const cart = response.json<Cart>();
    expect(cart).toMatchObject({ userId: shopper.id, itemCount: 2, totalPrice: 129.98 });
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]).toMatchObject({
      id: expect.any(Number),
      productId: 1,
      quantity: 2,
      product: { name: 'Alphonso Mangoes', imageUrl: '/images/products/alphonso.svg', price: 64.99, stock: 40 },
    });
    // The picture's size, for a thumbnail that fits (uploaded pictures add their variant widths).
    expect(cart.items[0]!.product.image).toEqual({ url: '/images/products/alphonso.svg', width: 800, height: 600, widths: [] });
    expect(await shopper.cart()).toEqual(cart);
  });

  it('adds to the existing line when the same product is added again', async () => {
    const shopper = await newShopper();
    const first = (await shopper.add({ productId: 8, quantity: 1 })).json<Cart>();
    const second = (await shopper.add({ productId: 8, quantity: 2 })).json<Cart>();
    expect(second.items).toHaveLength(1);
    expect(second.items[0]).toMatchObject({ id: first.items[0]!.id, productId: 8, quantity: 3 });
    expect(second).toMatchObject({ itemCount: 3, totalPrice: 104.97 });
  });

  it('keeps totals in exact dollars: itemCount is the sum of quantities, totalPrice the sum of price times quantity', async () => {
    const shopper = await newShopper();
    await shopper.add({ productId: 7, quantity: 3 });
    await shopper.add({ productId: 11, quantity: 2 });
    await shopper.add({ productId: 12, quantity: 1 });
    const cart = (await shopper.add({ productId: 14, quantity: 5 })).json<Cart>();
    expect(cart.items.map((line) => line.productId)).toEqual([7, 11, 12, 14]);
    expect(cart).toMatchObject({ itemCount: 11, totalPrice: 563.89 });
    expect({ itemCount: cart.itemCount, totalPrice: cart.totalPrice }).toEqual(expectedTotals(cart));
  });

  it.each([
    ['0', 'Quantity must be at least 1', 0],
    ['negative', 'Quantity must be at least 1', -2],
    ['fractional', 'Quantity must be a whole number', 1.5],
    ['text', 'Quantity must be a whole number', '2'],
    ['missing', 'Quantity must be a whole number', undefined],
  ])('refuses a %s quantity with 400 and leaves the cart as it was', async (_label, message, quantity) => {
    const shopper = await newShopper();
    await shopper.add({ productId: 2, quantity: 1 });
    const before = await shopper.cart();
    const response = await shopper.add({ productId: 2, quantity });
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>().fieldErrors?.quantity).toBe(message);
    expect(await shopper.cart()).toEqual(before);
  });

  it('refuses more than the stock with 400, counting what is already in the cart', async () => {
    const shopper = await newShopper();
    const tooMany = await shopper.add({ productId: 7, quantity: 5 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<ApiErrorBody>()).toEqual({
      message: 'Only 4 of Himsagar Mangoes available',
      fieldErrors: { quantity: 'Only 4 of Himsagar Mangoes available' },
    });
    expect((await shopper.add({ productId: 7, quantity: 3 })).statusCode).toBe(200);
    const before = await shopper.cart();
    const over = await shopper.add({ productId: 7, quantity: 2 });
    expect(over.statusCode).toBe(400);
    expect(over.json<ApiErrorBody>().fieldErrors?.quantity).toBe('Only 4 of Himsagar Mangoes available, and you already have 3 in your cart');
    expect(await shopper.cart()).toEqual(before);
    expect((await shopper.add({ productId: 7, quantity: 1 })).json<Cart>().items[0]!.quantity).toBe(4);
  });

  it('answers 409 for an out-of-stock product and leaves the cart empty', async () => {
    const shopper = await newShopper();
    const response = await shopper.add({ productId: 9, quantity: 1 });
    expect(response.statusCode).toBe(409);
    expect(response.json<ApiErrorBody>()).toEqual({
      message: 'Neelam Mangoes is out of stock',
      fieldErrors: { productId: 'Neelam Mangoes is out of stock' },
    });
    expect((await shopper.cart()).items).toEqual([]);
  });

  it('answers 404 for a hidden product and for one that does not exist', async () => {
    const shopper = await newShopper();
    for (const productId of [13, 9999]) {
      const response = await shopper.add({ productId, quantity: 1 });
      expect(response.statusCode).toBe(404);
      expect(response.json<ApiErrorBody>()).toEqual({ message: 'Product not found' });
    }
    expect((await shopper.cart()).items).toEqual([]);
  });

  it('allows a pre-order with no stock, up to 20 boxes on one line', async () => {
    const shopper = await newShopper();
    const response = await shopper.add({ productId: 4, quantity: 20 });
    expect(response.statusCode).toBe(200);
    expect(response.json<Cart>().items[0]).toMatchObject({
      productId: 4,
      quantity: 20,
      product: { name: 'Dasheri Mangoes', stock: 0, price: 49.99, isPreOrder: true, expectedAvailabilityDate: '2027-06-10' },
    });
    const more = await shopper.add({ productId: 4, quantity: 1 });
    expect(more.statusCode).toBe(400);
    expect(more.json<ApiErrorBody>().fieldErrors?.quantity).toBe('You can pre-order at most 20 boxes of Dasheri Mangoes in one order');
    expect((await shopper.cart()).itemCount).toBe(20);
  });

  it('refuses a missing product id and unknown fields by name', async () => {
    const shopper = await newShopper();
    const missing = await shopper.add({ quantity: 1 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<ApiErrorBody>().fieldErrors?.productId).toBe('Product is required');
    const priced = await shopper.add({ productId: 1, quantity: 1, price: 0.01 });
    expect(priced.statusCode).toBe(400);
    expect(priced.json<ApiErrorBody>().fieldErrors).toEqual({ price: 'Unknown field: price' });
    expect((await shopper.cart()).items).toEqual([]);
  });
});
