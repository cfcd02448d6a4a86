import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OrderView } from '../../../contracts/order';
import { orderEvents, orders } from '../../db/schema';
import { placeCardOrder, quickShopper, stockOf, testProduct } from '../../testing/order-helpers';
import { StripeApiDouble } from '../../testing/stripe-api-double';
import { stripeSignatureHeader } from '../../testing/stripe-signature';
import { createTestShop, type TestShop } from '../../testing/test-app';

const webhookSecret = 'whsec_test_mango_secret';
const stripe = new StripeApiDouble('sk_test_mango');
let shop: TestShop;

beforeAll(async () => {
  const apiUrl = await stripe.start();
  shop = await createTestShop({ STRIPE_SECRET_KEY: 'sk_test_mango', STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: apiUrl });
});
afterAll(async () => {
  await shop?.close();
  stripe.stop();
});

/** Stripe's event for the order's latest session, paid. */
function completedEvent(orderNumber: string, amountCents: number, eventId = 'evt_1') {
  const sessionId = stripe.latestFor(orderNumber)!.id;
  return JSON.stringify({
    id: eventId,
    type: 'checkout.session.completed',
    data: { object: { id: sessionId, client_reference_id: orderNumber, payment_status: 'paid', amount_total: amountCents, currency: 'nzd' } },
  });
}

function sendWebhook(body: string, signature: string) {
  return shop.app.inject({
    method: 'POST',
    url: '/api/payments/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload: body,
  });
}

const signed = (body: string, secret = webhookSecret, at?: number) => stripeSignatureHeader(secret, body, at);

const cardOrder = () => placeCardOrder(shop);

/** What the order shows for its card payment: status, 'paid' steps on the timeline, paid mails. */
async function paymentRecord(orderNumber: string) {
  const [row] = await shop.database.db.select().from(orders).where(eq(orders.number, orderNumber));
  const events = await shop.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, row!.id));
  return {
    status: row!.status,
    paidSteps: events.filter((event) => event.status === 'paid').length,
    paidMails: (await shop.mail()).filter((mail) => mail.subject === `Payment received for order ${orderNumber}`).length,
  };
}

describe('card payment through Stripe Checkout', () => {
  it('offers card payment beside bank transfer in the quote', async () => {
    const shopper = await quickShopper(shop);
    await shopper.add((await testProduct(shop)).id, 1);
    const quote = await shopper.call({ method: 'POST', url: '/api/checkout/quote', payload: {} });
    expect(quote.json().paymentMethods).toEqual(['bank_transfer', 'stripe']);
  });

  it('sends the shopper to a Stripe session for the order total', async () => {
    const { order, checkoutUrl, shopper } = await cardOrder();
    expect(checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_\d+$/);
    expect(order).toMatchObject({ status: 'pending_payment', paymentMethod: 'stripe', bankTransfer: null, canPayByCard: true, total: 141.98 });
    const asked = stripe.latestFor(order.number)!.form;
    expect(asked.get('client_reference_id')).toBe(order.number);
    expect(asked.get('line_items[0][price_data][unit_amount]')).toBe('14198');
    expect(asked.get('line_items[0][price_data][currency]')).toBe('nzd');
    expect(asked.get('customer_email')).toBe(shopper.user.email);
    expect(asked.get('success_url')).toContain(`/success?order=${order.number}`);
    // The session closes before the order's 3-day unpaid timeout could cancel it.
    const closesIn = Number(asked.get('expires_at')) * 1000 - Date.now();
    expect(closesIn).toBeGreaterThan(22 * 60 * 60 * 1000);
    expect(closesIn).toBeLessThanOrEqual(23 * 60 * 60 * 1000);

    // Paying again closes the first session and opens a new one.
    const firstSession = checkoutUrl!.split('/').at(-1)!;
    const again = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/pay` });
    expect(again.json().checkoutUrl).toMatch(/cs_test_\d+$/);
    expect(again.json().checkoutUrl).not.toBe(checkoutUrl);
    expect(stripe.expireRequests).toContain(firstSession);
    expect(stripe.sessions.get(firstSession)!.status).toBe('expired');

    const stranger = await quickShopper(shop);
    expect((await stranger.call({ method: 'POST', url: `/api/orders/${order.number}/pay` })).statusCode).toBe(404);
  });

  it('closes the Stripe session of a cancelled order, and a late payment event leaves it cancelled', async () => {
    const { order, shopper, checkoutUrl } = await cardOrder();
    const cancelled = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/cancel` });
    expect(cancelled.json().status).toBe('cancelled');
    expect(stripe.sessions.get(checkoutUrl!.split('/').at(-1)!)!.status).toBe('expired');
    expect((await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/pay` })).statusCode).toBe(409);

    const body = completedEvent(order.number, 14198, 'evt_late');
    expect((await sendWebhook(body, signed(body))).json()).toEqual({ received: true, outcome: 'already' });
    expect(((await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` })).json() as OrderView).status).toBe('cancelled');
  });

  it('refuses a webhook with a bad, missing or stale signature and leaves the order unpaid', async () => {
    const { order, shopper } = await cardOrder();
    const body = completedEvent(order.number, 14198);
    for (const signature of [signed(body, 'whsec_wrong'), '', 'nonsense', signed(body, webhookSecret, Math.floor(Date.now() / 1000) - 600)]) {
      const response = await sendWebhook(body, signature);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Invalid Stripe signature');
    }
    const tampered = await sendWebhook(completedEvent(order.number, 1), signed(body));
    expect(tampered.statusCode).toBe(400);
    expect(((await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` })).json() as OrderView).status).toBe('pending_payment');
  });

  it('marks the order paid once, even when the webhook is replayed', async () => {
    const { order, shopper } = await cardOrder();
    const body = completedEvent(order.number, 14198, 'evt_paid');
    const first = await sendWebhook(body, signed(body));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, outcome: 'paid' });
    const replays = await Promise.all([sendWebhook(body, signed(body)), sendWebhook(body, signed(body))]);
    for (const replay of replays) expect(replay.json()).toEqual({ received: true, outcome: 'already' });

    const view = (await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` })).json() as OrderView;
    expect(view).toMatchObject({ status: 'paid', canCancel: false, canPayByCard: false });
    const [row] = await shop.database.db.select().from(orders).where(eq(orders.number, order.number));
    const paidEvents = (await shop.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, row!.id))).filter((e) => e.status === 'paid');
    expect(paidEvents).toHaveLength(1);
    expect((await shop.mail()).filter((m) => m.subject === `Payment received for order ${order.number}`)).toHaveLength(1);
    expect((await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/cancel` })).statusCode).toBe(409);
  });

  it('leaves an order unpaid when the paid amount does not match its total', async () => {
    const { order } = await cardOrder();
    const body = completedEvent(order.number, 100);
    expect((await sendWebhook(body, signed(body))).json()).toEqual({ received: true, outcome: 'mismatch' });
  });

  it('answers events it does not act on', async () => {
    const body = JSON.stringify({ id: 'evt_other', type: 'checkout.session.expired', data: { object: { id: 'cs_x' } } });
    expect((await sendWebhook(body, signed(body))).json()).toEqual({ received: true });
  });
});

describe('POST /api/orders/:number/pay while Stripe has not confirmed the last payment', () => {
  const alreadyPaid = 'Your card payment for this order has already been received. There is nothing more to pay.';

  it('records a payment Stripe took before its webhook arrived, answers 409 and opens no second session', async () => {
    const { order, shopper } = await cardOrder();
    const first = stripe.latestFor(order.number)!;
    stripe.pay(first.id);

    const again = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/pay` });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(alreadyPaid);
    expect(stripe.latestFor(order.number)!.id).toBe(first.id);
    expect(await paymentRecord(order.number)).toEqual({ status: 'paid', paidSteps: 1, paidMails: 1 });
    const view = (await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` })).json() as OrderView;
    expect(view).toMatchObject({ status: 'paid', canPayByCard: false });
    expect(view.events.at(-1)!.note).toBe(`Card payment received (${first.id})`);

    // Asking again, and Stripe's webhook arriving late, change nothing more.
    expect((await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/pay` })).statusCode).toBe(409);
    const body = completedEvent(order.number, 14198, 'evt_late_webhook');
    expect((await sendWebhook(body, signed(body))).json()).toEqual({ received: true, outcome: 'already' });
    expect(await paymentRecord(order.number)).toEqual({ status: 'paid', paidSteps: 1, paidMails: 1 });
    expect(stripe.latestFor(order.number)!.id).toBe(first.id);
  });

  it('records a payment made while the old session was being closed, and opens no second session', async () => {
    const { order, shopper } = await cardOrder();
    const first = stripe.latestFor(order.number)!;
    first.paysWhenExpired = true;

    const again = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/pay` });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(alreadyPaid);
    expect(stripe.latestFor(order.number)!.id).toBe(first.id);
    expect(await paymentRecord(order.number)).toEqual({ status: 'paid', paidSteps: 1, paidMails: 1 });
  });

  it('leaves an order whose paid amount does not match for staff, and opens no second session', async () => {
    const { order, shopper } = await cardOrder();
    const first = stripe.latestFor(order.number)!;
    stripe.pay(first.id, 100);

    const again = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/pay` });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('We have received a card payment for this order that our team needs to check. Please contact us before paying again.');
    expect(stripe.latestFor(order.number)!.id).toBe(first.id);
    expect(await paymentRecord(order.number)).toEqual({ status: 'pending_payment', paidSteps: 0, paidMails: 0 });
  });

  it('keeps a session whose payment is still processing, and opens no second one', async () => {
    const { order, shopper } = await cardOrder();
    const first = stripe.latestFor(order.number)!;
    first.status = 'complete';

    const again = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/pay` });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Your card payment for this order is still being processed. Please check again in a few minutes.');
    expect(stripe.latestFor(order.number)!.id).toBe(first.id);
    expect(await paymentRecord(order.number)).toMatchObject({ status: 'pending_payment', paidSteps: 0 });
  });

  it('opens no second session when Stripe cannot close the first', async () => {
    const { order, shopper } = await cardOrder();
    const first = stripe.latestFor(order.number)!;
    stripe.expireFailsWith = 500;
    try {
      const again = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/pay` });
      expect(again.statusCode).toBe(500);
    } finally {
      stripe.expireFailsWith = null;
    }
    expect(stripe.latestFor(order.number)!.id).toBe(first.id);
    expect(first.status).toBe('open');
  });

  it('leaves one session open, the one the order knows, when two pay requests come at once', async () => {
    const { order, shopper } = await cardOrder();
    // Both requests have read the order, and its first session, before either closes or replaces it.
    stripe.gatherReads = 2;
    const answers = await Promise.all([1, 2].map(() => shopper.call({ method: 'POST', url: `/api/orders/${order.number}/pay` })));
    const open = [...stripe.sessions.values()].filter((session) => session.client_reference_id === order.number && session.status === 'open');
    expect(open).toHaveLength(1);
    const [row] = await shop.database.db.select().from(orders).where(eq(orders.number, order.number));
    expect(row!.stripeSessionId).toBe(open[0]!.id);
    // Within one second both get the same session (one idempotency key); otherwise the later one is refused.
    for (const answer of answers) {
      if (answer.statusCode === 200) expect(answer.json().checkoutUrl).toBe(`https://checkout.stripe.test/pay/${open[0]!.id}`);
      else expect(answer.statusCode).toBe(409);
    }
    expect(answers.some((answer) => answer.statusCode === 200)).toBe(true);
  });

  it('replaces a session that Stripe has already expired', async () => {
    const { order, shopper, checkoutUrl } = await cardOrder();
    stripe.latestFor(order.number)!.status = 'expired';
    const again = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/pay` });
    expect(again.statusCode).toBe(200);
    expect(again.json().checkoutUrl).not.toBe(checkoutUrl);
    expect(stripe.latestFor(order.number)!.status).toBe('open');
  });
});

describe('cancelling a card order whose payment Stripe took before its webhook arrived', () => {
  it('records the payment instead of cancelling when the shopper cancels, and keeps the boxes sold', async () => {
    const { order, shopper, product } = await cardOrder();
    stripe.pay(stripe.latestFor(order.number)!.id);
    const cancel = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/cancel` });
    expect(cancel.statusCode).toBe(409);
    expect(await paymentRecord(order.number)).toEqual({ status: 'paid', paidSteps: 1, paidMails: 1 });
    expect(await stockOf(shop, product.id)).toBe(8);
  });

  it('refuses the cancel when the paid amount does not match the total, and keeps the boxes sold', async () => {
    const { order, shopper, product } = await cardOrder();
    stripe.pay(stripe.latestFor(order.number)!.id, 100);
    const logged = vi.spyOn(shop.app.log, 'error');
    const cancel = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/cancel` });
    const logLines = logged.mock.calls.map((call) => call[1]);
    logged.mockRestore();
    expect(logLines).toContain('cancel refused: a card payment that does not match the order total needs checking');
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().message).toBe(
      'We have received a card payment for this order that does not match its total, so it cannot be cancelled until our team has checked it. Please contact us.',
    );
    expect(await paymentRecord(order.number)).toEqual({ status: 'pending_payment', paidSteps: 0, paidMails: 0 });
    expect(await stockOf(shop, product.id)).toBe(8);
  });

  it('records the payment instead of cancelling in the unpaid-order sweep', async () => {
    const { order, product } = await cardOrder();
    stripe.pay(stripe.latestFor(order.number)!.id);
    await shop.database.db.update(orders).set({ createdAt: new Date(Date.now() - 4 * 24 * 60 * 60 * 1000) }).where(eq(orders.number, order.number));
    await shop.app.services.orders.cancelOverdue();
    expect(await paymentRecord(order.number)).toEqual({ status: 'paid', paidSteps: 1, paidMails: 1 });
    expect(await stockOf(shop, product.id)).toBe(8);
  });

  it('does not cancel while the payment is still processing', async () => {
    const { order, shopper } = await cardOrder();
    Object.assign(stripe.latestFor(order.number)!, { status: 'complete', payment_status: 'unpaid' });
    const cancel = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/cancel` });
    expect(cancel.statusCode).toBe(409);
    expect((await paymentRecord(order.number)).status).toBe('pending_payment');
  });
});

describe('creating a Stripe session', () => {
  it('names each attempt with an idempotency key, so a retry after a lost answer makes no second session', async () => {
    const before = stripe.createRequests.length;
    stripe.failCreates = 1;
    const { order, checkoutUrl } = await cardOrder();
    const requests = stripe.createRequests.slice(before);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.idempotencyKey).toContain(order.number);
    expect(requests[1]!.idempotencyKey).toBe(requests[0]!.idempotencyKey);
    expect([...stripe.sessions.values()].filter((session) => session.client_reference_id === order.number)).toHaveLength(1);
    expect(checkoutUrl).toBe(`https://checkout.stripe.test/pay/${stripe.latestFor(order.number)!.id}`);
  });
});
