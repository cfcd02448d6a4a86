import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, orders } from '../../db/schema';
import { placeCardOrder, stockOf } from '../../testing/order-helpers';
import { StripeApiDouble } from '../../testing/stripe-api-double';
import { as, createTestShop, signInAdmin, type StaffCall, type TestShop } from '../../testing/test-app';

const stripe = new StripeApiDouble('sk_test_mango');
let shop: TestShop;
let staff: StaffCall;

beforeAll(async () => {
  const apiUrl = await stripe.start();
  shop = await createTestShop({ STRIPE_SECRET_KEY: 'sk_test_mango', STRIPE_WEBHOOK_SECRET: 'whsec_test_mango_secret', STRIPE_API_URL: apiUrl });
  staff = as(shop.app, (await signInAdmin(shop)).cookie);
});
afterAll(async () => {
  await shop?.close();
  stripe.stop();
});

const cardOrder = () => placeCardOrder(shop);

/** The order's row, its cancelled steps, and its sessions at Stripe by status. */
async function cardState(orderNumber: string) {
  const [row] = await shop.database.db.select().from(orders).where(eq(orders.number, orderNumber));
  const events = await shop.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, row!.id));
  const sessions = [...stripe.sessions.values()].filter((session) => session.client_reference_id === orderNumber);
  return {
    status: row!.status,
    sessionId: row!.stripeSessionId,
    cancelledSteps: events.filter((event) => event.status === 'cancelled').length,
    open: sessions.filter((session) => session.status === 'open').map((session) => session.id),
    expired: sessions.filter((session) => session.status === 'expired').length,
  };
}

describe('cancelling a card order while a card payment starts in another window', () => {
  it.each(['shopper', 'staff'] as const)(
    'closes the session the %s did not see, so no open session is left on the cancelled order',
    async (who) => {
      const { order, shopper, product } = await cardOrder();
      // Tab B asks to pay after the cancel has closed the first session, and before the cancel commits.
      let pay: LightMyRequestResponse | undefined;
      stripe.whileExpiring = async () => {
        stripe.whileExpiring = null;
        pay = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/pay` });
      };
      const cancel =
        who === 'shopper'
          ? await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/cancel` })
          : await staff({ method: 'POST', url: `/api/admin/orders/${order.number}/status`, payload: { status: 'cancelled' } });
      stripe.whileExpiring = null;

      expect(cancel.statusCode).toBe(200);
      expect(cancel.json().status).toBe('cancelled');
      expect(pay!.statusCode).toBe(200);
      const second = stripe.latestFor(order.number)!;
      expect(pay!.json().checkoutUrl).toBe(`https://checkout.stripe.test/pay/${second.id}`);
      expect(await cardState(order.number)).toEqual({ status: 'cancelled', sessionId: second.id, cancelledSteps: 1, open: [], expired: 2 });
      expect(await stockOf(shop, product.id)).toBe(10);
    },
  );

  it('gives up with 409 when a new session opens every time, and leaves the order payable through the one it knows', async () => {
    const { order, shopper, product } = await cardOrder();
    let pays = 0;
    stripe.whileExpiring = async () => {
      const pay = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/pay` });
      if (pay.statusCode === 200) pays += 1;
    };
    const cancel = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/cancel` });
    stripe.whileExpiring = null;

    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().message).toBe('A card payment for this order was just started in another window. Please close it and try cancelling again.');
    expect(pays).toBe(3);
    const state = await cardState(order.number);
    expect(state).toMatchObject({ status: 'pending_payment', cancelledSteps: 0, expired: 3 });
    expect(state.open).toEqual([state.sessionId]);
    expect(await stockOf(shop, product.id)).toBe(8);
  });
});
