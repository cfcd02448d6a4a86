import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, products } from '../../db/schema';
import { answerWhileProductHeld, quickShopper, testProduct } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop()));
afterAll(async () => shop?.close());

const pool = () => (shop.database.db as unknown as { $client: pg.Pool }).$client;

/**
 * A shopper with the product in their cart places an order while a second connection runs
 * `statement` (with the product's id as $1) in a transaction still open, as a staff request's
 * would be: the order must wait on its lock, and answers once it commits.
 */
async function placeWhileHeld(productId: number, statement: string) {
  const shopper = await quickShopper(shop);
  await shopper.add(productId, 1);
  const staffChange = await pool().connect();
  try {
    await staffChange.query('begin');
    await staffChange.query(statement, [productId]);
    let answered = false;
    const placing = shopper.order().finally(() => {
      answered = true;
    });
    // Let the order reach the product's row and wait on the staff's lock.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered).toBe(false);
    await staffChange.query('commit');
    return { answer: await placing, shopper };
  } finally {
    staffChange.release();
  }
}

/**
 * Staff delete a product in a transaction still open while a shopper who has it in their cart
 * places an order. Only PostgreSQL runs the two at once, so the race is played there, with a second
 * connection holding the delete. The order's lines reference the product, and are written before
 * its claims: the order must see the product gone, never fail on the reference.
 */
describe.runIf(process.env.DATABASE_URL)('a product deleted while an order is being placed', () => {
  it('answers the shopper that the cart is empty, writes no order and sends no mail', async () => {
    const product = await testProduct(shop, { name: 'Deleted Alphonso' });
    const database = pool();
    const outboxBefore = (await database.query<{ n: number }>('select count(*)::int as n from mail_outbox')).rows[0]!.n;
    const { answer, shopper } = await placeWhileHeld(product.id, 'delete from products where id = $1');
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ message: string }>().message).toBe('Your cart is empty');
    expect(await shop.database.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, shopper.user.id))).toEqual([]);
    expect((await database.query<{ n: number }>('select count(*)::int as n from mail_outbox')).rows[0]!.n).toBe(outboxBefore);
  });
});

/**
 * Orders being placed hold their products' key share from pricing to commit, and a rush keeps
 * some in flight all the time: a staff change that waited for none to hold it would wait out the
 * rush. A second connection holds the key share as an order in flight does.
 */
describe.runIf(process.env.DATABASE_URL)('a product changed by staff while orders are being placed', () => {
  it('hides, archives and restores it without waiting for the orders to finish', async () => {
    const product = await testProduct(shop, { name: 'Rushed Kesar' });
    const inFlight = await pool().connect();
    try {
      await inFlight.query('begin');
      await inFlight.query('select id from products where id = $1 for key share', [product.id]);
      const changes = [
        { method: 'PUT' as const, url: `/api/products/${product.id}`, payload: { isHidden: true } },
        { method: 'PUT' as const, url: `/api/admin/products/${product.id}/archive`, payload: { archived: true } },
        { method: 'PUT' as const, url: `/api/admin/products/${product.id}/archive`, payload: { archived: false } },
      ];
      for (const change of changes) {
        const answer = staff(change);
        // Waiting for the order in flight would be waiting for ever: it ends only after this.
        const heldUp = await Promise.race([answer.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 5000))]);
        expect(heldUp, change.url).toBe(false);
        expect((await answer).statusCode, change.url).toBe(200);
      }
    } finally {
      await inFlight.query('rollback');
      inFlight.release();
    }
  });
});

/**
 * Staff change a product in a transaction still open while an order of it is placed: the order
 * prices the cart from the row as it was, writes itself, and its claim waits for the change. A
 * second connection holds the change, as the staff request's transaction does.
 */
describe.runIf(process.env.DATABASE_URL)('an order whose product staff change before its claim', () => {
  async function placeDuring(productId: number, change: string) {
    const { answer, shopper } = await placeWhileHeld(productId, `update products set ${change} where id = $1`);
    const placed = await shop.database.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, shopper.user.id));
    return { status: answer.statusCode, message: answer.json<{ message: string }>().message, placed: placed.length };
  }

  it('is refused when staff moved the date its boxes are expected', async () => {
    const product = await testProduct(shop, { name: 'Moved Langra', stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-06-10' });
    expect(await placeDuring(product.id, "expected_availability_date = '2027-06-24'")).toEqual({
      status: 409,
      message: 'The expected arrival date of Moved Langra has changed. Please check the new date in your cart and place the order again.',
      placed: 0,
    });
  });

  it('is refused when staff hid the product, pre-order or in stock', async () => {
    const preOrdered = await testProduct(shop, { name: 'Hidden Langra', stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-06-10' });
    const stocked = await testProduct(shop, { name: 'Hidden Kesar', stock: 5 });
    for (const product of [preOrdered, stocked]) {
      expect(await placeDuring(product.id, 'is_hidden = true')).toEqual({
        status: 409,
        message: `${product.name} is no longer available. Please remove it from your cart.`,
        placed: 0,
      });
    }
    const [kesar] = await shop.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, stocked.id));
    expect(kesar!.stock).toBe(5);
  });

  it('is refused when staff made the product a pre-order, and takes none of its stock', async () => {
    const product = await testProduct(shop, { name: 'Switched Kesar', stock: 5 });
    expect(await placeDuring(product.id, "is_pre_order = true, expected_availability_date = '2027-06-10'")).toEqual({
      status: 409,
      message: 'Switched Kesar is now sold as a pre-order. Please check your cart and place the order again.',
      placed: 0,
    });
    const [row] = await shop.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, product.id));
    expect(row!.stock).toBe(5);
  });
});

describe.runIf(process.env.DATABASE_URL)('a product sold out while orders are being placed', () => {
  it('answers a late shopper at once, without queueing for the product behind the placements', async () => {
    const product = await testProduct(shop, { name: 'Sold Out Totapuri', stock: 1 });
    const late = await quickShopper(shop);
    await late.add(product.id, 1);
    // Another shopper's order took the last box.
    await shop.database.db.update(products).set({ stock: 0 }).where(eq(products.id, product.id));
    const answer = await answerWhileProductHeld(shop, product.id, () => late.order());
    expect(answer === 'waited' ? answer : answer.statusCode).toBe(409);
    if (answer !== 'waited') expect(answer.json<{ message: string }>().message).toBe('Sorry, Sold Out Totapuri has just sold out (0 available). Please remove it from your cart.');
  });
});
