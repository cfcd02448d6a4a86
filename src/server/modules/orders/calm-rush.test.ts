import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersBusyMessage } from '../../../contracts/checkout';
import { queryRows } from '../../db/client';
import { orders } from '../../db/schema';
import { firstDeliveryDate, newCheckoutKey, quickShopper, testProduct, testShipping } from '../../testing/order-helpers';
import { createTestShop, type TestShop } from '../../testing/test-app';

let shop: TestShop;
const atOnce = 3;
beforeAll(async () => {
  shop = await createTestShop({ ORDERS_AT_ONCE: String(atOnce) });
});
afterAll(async () => shop?.close());

describe('a rush of orders', () => {
  it('answers placements beyond the limit 429 at once with Retry-After, never 5xx, and each shopper gets one order by trying again', async () => {
    const product = await testProduct(shop, { name: 'Rush Kesar', stock: 100 });
    const shoppers = await Promise.all(Array.from({ length: 24 }, () => quickShopper(shop, 'calm')));
    for (const shopper of shoppers) await shopper.add(product.id, 1);
    const deliveryDate = await firstDeliveryDate(shop, testShipping.region);
    const firstAnswers: number[] = [];
    const busy: Array<{ retryAfter: unknown; message: string; ms: number }> = [];
    // Each shopper's checkout: one order key, sent again after a 429 until it lands.
    const finals = await Promise.all(
      shoppers.map(async (shopper) => {
        const key = newCheckoutKey();
        for (let attempt = 1; ; attempt += 1) {
          const started = performance.now();
          const answer = await shopper.call({ method: 'POST', url: '/api/orders', payload: { shipping: testShipping, idempotencyKey: key, deliveryDate } });
          if (attempt === 1) firstAnswers.push(answer.statusCode);
          if (answer.statusCode !== 429) return answer.statusCode;
          busy.push({ retryAfter: answer.headers['retry-after'], message: answer.json<{ message: string }>().message, ms: performance.now() - started });
          if (attempt > 200) throw new Error('never got through');
          await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
        }
      }),
    );
    expect(firstAnswers.filter((status) => status === 429).length, 'some were told to try again').toBeGreaterThan(0);
    expect(firstAnswers.every((status) => status === 201 || status === 429)).toBe(true);
    expect(finals).toEqual(shoppers.map(() => 201));
    expect(new Set(busy.map((one) => one.retryAfter))).toEqual(new Set(['1']));
    expect(new Set(busy.map((one) => one.message))).toEqual(new Set([ordersBusyMessage]));
    // One order each, and the stock moved by exactly that.
    const [counted] = await shop.database.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.userId, shoppers[0]!.user.id));
    expect(counted!.n).toBe(1);
    const [all] = await queryRows<{ n: number }>(shop.database.db, sql`select count(*)::int as n from orders o join users u on u.id = o.user_id where u.username like 'calm%'`);
    expect(Number(all!.n)).toBe(24);
  });

  it('does not count a 429 against the shopper\u2019s hourly order limit', async () => {
    const limited = await createTestShop({ ORDERS_AT_ONCE: '1', ORDERS_PER_USER_PER_HOUR: '1' });
    try {
      const product = await testProduct(limited, { name: 'Limit Kesar', stock: 100 });
      const [busyOne, patient] = [await quickShopper(limited, 'hog'), await quickShopper(limited, 'patient')];
      await busyOne.add(product.id, 1);
      await patient.add(product.id, 1);
      const deliveryDate = await firstDeliveryDate(limited, testShipping.region);
      // One slot, one order an hour each: both shoppers try at once and again after each 429.
      const statuses: number[] = [];
      const checkout = async (shopper: typeof patient) => {
        const key = newCheckoutKey();
        for (let attempt = 0; attempt < 200; attempt += 1) {
          const answer = await shopper.call({ method: 'POST', url: '/api/orders', payload: { shipping: testShipping, idempotencyKey: key, deliveryDate } });
          statuses.push(answer.statusCode);
          if (answer.statusCode !== 429) return answer.statusCode;
          // A pause between tries, as checkout makes: a 429 when full comes back at once.
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return 429;
      };
      const finals = await Promise.all([checkout(busyOne), checkout(patient)]);
      expect(statuses.filter((status) => status === 429).length, 'one waited for the other').toBeGreaterThan(0);
      // However many 429s came first, the one order an hour each was allowed is still there to place.
      expect(finals).toEqual([201, 201]);
    } finally {
      await limited.close();
    }
  });
});
