import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../db/schema';
import { quickShopper, testProduct } from '../../testing/order-helpers';
import { createTestShop, type TestShop } from '../../testing/test-app';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(async () => shop?.close());

/**
 * Staff delete a product in a transaction still open while a shopper who has it in their cart
 * places an order. Only PostgreSQL runs the two at once, so the race is played there, with a second
 * connection holding the delete. The order's lines reference the product, and are written before
 * its claims: the order must see the product gone, never fail on the reference.
 */
describe.runIf(process.env.DATABASE_URL)('a product deleted while an order is being placed', () => {
  it('answers the shopper that the cart is empty, writes no order and sends no mail', async () => {
    const product = await testProduct(shop, { name: 'Deleted Alphonso' });
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 1);
    const database = (shop.database.db as unknown as { $client: pg.Pool }).$client;
    const staff = await database.connect();
    const outboxBefore = (await database.query<{ n: number }>('select count(*)::int as n from mail_outbox')).rows[0]!.n;
    let answer: Awaited<ReturnType<typeof shopper.order>>;
    try {
      await staff.query('begin');
      await staff.query('delete from products where id = $1', [product.id]);
      const placing = shopper.order();
      // Let the order reach the product's row and wait on the staff's lock.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await staff.query('commit');
      answer = await placing;
    } finally {
      staff.release();
    }
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ message: string }>().message).toBe('Your cart is empty');
    expect(await shop.database.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, shopper.user.id))).toEqual([]);
    expect((await database.query<{ n: number }>('select count(*)::int as n from mail_outbox')).rows[0]!.n).toBe(outboxBefore);
  });
});
