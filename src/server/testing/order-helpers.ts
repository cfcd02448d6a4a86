import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { products, promoCodes, users } from '../db/schema';
import { hashPassword } from '../modules/auth/passwords';
import { receiveBatch } from '../modules/inventory/batches';
import type { PlacedOrder } from '../../contracts/order';
import { as, type TestShop } from './test-app';

/** Shipping details that pass every rule of the checkout form. */
export const testShipping = {
  name: 'Aroha Ngata',
  phone: '021 123 4567',
  street: '12 Ponsonby Road',
  suburb: 'Ponsonby',
  city: 'Auckland',
  postcode: '1011',
  region: 'Auckland',
  deliveryInstructions: 'Leave by the door',
};

let keys = 0;
/** A fresh idempotency key, as the checkout page makes one per attempt. */
export function newCheckoutKey(): string {
  keys += 1;
  return `test-key-${Date.now().toString(36)}-${keys.toString().padStart(6, '0')}`;
}

let passwordHash: Promise<string> | undefined;
let shoppers = 0;

/** A signed-in shopper made straight in the database (many of them, fast), with API helpers. */
/**
 * A signed-in shopper made straight in the database. `emailProven`: the account has shown it
 * reads its address (a mailed link opened), as one-click waitlist sign-ups need.
 */
export async function quickShopper(shop: TestShop, name = 'buyer', options: { emailProven?: boolean } = {}) {
  shoppers += 1;
  passwordHash ??= hashPassword('kumara-42');
  const [user] = await shop.database.db
    .insert(users)
    .values({
      username: `${name}${shoppers}`,
      email: `${name}${shoppers}@example.nz`,
      passwordHash: await passwordHash,
      firstName: 'Aroha',
      lastName: 'Ngata',
      phone: '021 123 4567',
      address: '12 Ponsonby Road',
      emailProvenAt: options.emailProven ? new Date() : null,
    })
    .returning();
  const session = await shop.app.services.sessions.create(user!.id);
  const cookie = `mango_session=${session.token}`;
  const call = as(shop.app, cookie);
  return {
    user: user!,
    cookie,
    call,
    async add(productId: number, quantity: number) {
      const response = await call({ method: 'POST', url: `/api/cart/${user!.id}/items`, payload: { productId, quantity } });
      if (response.statusCode !== 200) throw new Error(`add to cart failed: ${response.body}`);
    },
    cart: async () => (await call({ method: 'GET', url: `/api/cart/${user!.id}` })).json() as { itemCount: number; items: Array<{ id: number; productId: number; quantity: number }> },
    /** Places the cart as an order; without a `deliveryDate` it takes the first one offered. */
    async order(payload: Record<string, unknown> = {}) {
      const shipping = (payload.shipping ?? testShipping) as { region: string };
      const deliveryDate = 'deliveryDate' in payload ? payload.deliveryDate : await firstDeliveryDate(shop, shipping.region);
      return call({ method: 'POST', url: '/api/orders', payload: { shipping: testShipping, idempotencyKey: newCheckoutKey(), deliveryDate, ...payload } });
    },
  };
}

/** The soonest delivery date offered to a region (any real region; a made-up one gets none). */
export async function firstDeliveryDate(shop: TestShop, region: string, boxes = 1): Promise<string | undefined> {
  const response = await shop.app.inject({ method: 'GET', url: `/api/delivery/dates?region=${encodeURIComponent(region)}&boxes=${boxes}` });
  if (response.statusCode !== 200) return undefined;
  return (response.json() as { dates: Array<{ date: string; state: { available: boolean } }> }).dates.find((one) => one.state.available)?.date;
}

let productCount = 0;
/** A product of its own, so a test's stock and limits are not shared with another test. */
export async function testProduct(shop: TestShop, values: Partial<typeof products.$inferInsert> = {}) {
  productCount += 1;
  const [product] = await shop.database.db
    .insert(products)
    .values({
      name: `Test Mangoes ${productCount}`,
      description: 'A box of test mangoes.',
      priceCents: 5000,
      imageUrl: '/images/products/alphonso.jpg',
      category: 'Premium',
      stock: 10,
      ...values,
    })
    .returning();
  // Its boxes are in the cool room, as a batch of unknown dates (as stock from before batches is).
  if (product!.stock > 0) await shop.database.db.transaction((tx) => receiveBatch(tx, { productId: product!.id, boxes: product!.stock, note: 'Test stock' }, 'opening'));
  await shop.app.services.bus.publish('products');
  return product!;
}

export async function stockOf(shop: TestShop, productId: number): Promise<number> {
  const [row] = await shop.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, productId));
  return row!.stock;
}

let promoCount = 0;
export async function testPromo(shop: TestShop, values: Partial<typeof promoCodes.$inferInsert> = {}) {
  promoCount += 1;
  const [promo] = await shop.database.db
    .insert(promoCodes)
    .values({ code: `TEST${promoCount}`, discountType: 'percentage', discountValue: 10, ...values })
    .returning();
  return promo!;
}

/** A shopper's order of two boxes, placed to be paid by card (Stripe must be configured). */
export async function placeCardOrder(shop: TestShop) {
  const product = await testProduct(shop, { priceCents: 6499, stock: 10 });
  const shopper = await quickShopper(shop);
  await shopper.add(product.id, 2);
  const response = await shopper.order({ paymentMethod: 'stripe' });
  if (response.statusCode !== 201) throw new Error(`card order failed: ${response.body}`);
  return { shopper, product, ...(response.json() as PlacedOrder) };
}

/**
 * What `place` answers while a second connection holds the product's row, as a placement's claim
 * does, or 'waited' when it has not answered within 3 s. PostgreSQL only: the embedded database
 * runs one transaction at a time.
 */
export async function answerWhileProductHeld<T>(shop: TestShop, productId: number, place: () => Promise<T>): Promise<T | 'waited'> {
  const pool = (shop.database.db as unknown as { $client: pg.Pool }).$client;
  const holder = await pool.connect();
  let placing: Promise<T> | undefined;
  try {
    await holder.query('begin');
    await holder.query('select id from products where id = $1 for update', [productId]);
    placing = place();
    return await Promise.race([placing, new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 3000))]);
  } finally {
    await holder.query('rollback');
    holder.release();
    // A placement that waited for the lock ends before the shop closes.
    await placing;
  }
}
