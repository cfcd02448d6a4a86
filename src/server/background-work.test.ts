import { setTimeout as sleep } from 'node:timers/promises';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PlacedOrder } from '../contracts/order';
import { BackgroundWork } from './background-work';
import { orders, products } from './db/schema';
import { quickShopper, testProduct } from './testing/order-helpers';
import { StripeApiDouble } from './testing/stripe-api-double';
import { createTestShop, type TestShop } from './testing/test-app';

const stripe = new StripeApiDouble('sk_test_mango');
let shop: TestShop;

beforeAll(async () => {
  const apiUrl = await stripe.start();
  shop = await createTestShop({ STRIPE_SECRET_KEY: 'sk_test_mango', STRIPE_WEBHOOK_SECRET: 'whsec_test_mango_secret', STRIPE_API_URL: apiUrl });
});
afterAll(async () => {
  await shop?.close();
  stripe.stop();
});

const dayMs = 24 * 60 * 60 * 1000;

/** Card orders left unpaid past the 3-day timeout, oldest first. */
async function overdueCardOrders(count: number): Promise<string[]> {
  const numbers: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const shopper = await quickShopper(shop);
    await shopper.add((await testProduct(shop)).id, 1);
    const response = await shopper.order({ paymentMethod: 'stripe' });
    expect(response.statusCode).toBe(201);
    const { order } = response.json() as PlacedOrder;
    await shop.database.db.update(orders).set({ createdAt: new Date(Date.now() - 5 * dayMs + i * 60_000) }).where(eq(orders.number, order.number));
    numbers.push(order.number);
  }
  return numbers;
}

async function statusesOf(numbers: string[]) {
  const rows = await shop.database.db.select({ number: orders.number, status: orders.status }).from(orders).where(inArray(orders.number, numbers));
  return numbers.map((number) => rows.find((row) => row.number === number)!.status);
}

describe('stopping the background work', () => {
  it('ends the unpaid-order sweep after the order in hand, and the next sweep cancels the rest', async () => {
    const numbers = await overdueCardOrders(3);
    const background = new BackgroundWork(shop.app, { firstSweepAfterMs: 0 });
    let stopping: Promise<void> | undefined;
    let stopAskedAt = 0;
    stripe.whileExpiring = async () => {
      if (!stopping) {
        // SIGTERM arrives while the sweep closes the first order's Stripe session.
        stopAskedAt = Date.now();
        stopping = background.stop();
        return;
      }
      // Stripe is slow for the rest: a sweep that went on would hold the stop up a second an order.
      await sleep(1000);
    };
    try {
      await background.start();
      await vi.waitFor(() => expect(stopping).toBeDefined(), { timeout: 10_000 });
      await stopping;
    } finally {
      stripe.whileExpiring = null;
    }
    expect(Date.now() - stopAskedAt).toBeLessThan(1000);
    expect(await statusesOf(numbers)).toEqual(['cancelled', 'pending_payment', 'pending_payment']);

    expect(await shop.app.services.orders.cancelOverdue()).toBe(2);
    expect(await statusesOf(numbers)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  });
});

describe('a pre-order opening', () => {
  it('mails the waitlist when the shop\u2019s clock reaches it, without waiting for the minute\u2019s sweep', async () => {
    const opens = await createTestShop();
    const background = new BackgroundWork(opens.app, { firstSweepAfterMs: 60_000 });
    try {
      const product = await testProduct(opens, { name: 'Alarm Alphonso', stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-01-20' });
      const opensAt = new Date(Date.now() + 1500);
      await opens.database.db.update(products).set({ preOrdersOpenAt: opensAt }).where(eq(products.id, product.id));
      await opens.app.services.bus.publish('products');
      const subscriber = await quickShopper(opens, 'alarm', { emailProven: true });
      expect((await subscriber.call({ method: 'POST', url: '/api/waitlist', payload: { productId: product.id } })).statusCode).toBe(200);
      await background.start();
      const told = () => opens.mailer.sent.filter((mail) => mail.subject === 'Pre-orders for Alarm Alphonso are open');
      await vi.waitFor(() => expect(told()).toHaveLength(1), { timeout: 8000, interval: 50 });
      expect(Date.now()).toBeGreaterThanOrEqual(opensAt.getTime());
      expect(told()[0]!.to).toBe(subscriber.user.email);
    } finally {
      await background.stop();
      await opens.close();
    }
  });
});
