import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderView, PlacedOrder } from '../../../contracts/order';
import { orderEvents, orders } from '../../db/schema';
import { signStripePayload } from '../../lib/payments';
import { quickShopper, testProduct } from '../../testing/order-helpers';
import { createTestShop, type TestShop } from '../../testing/test-app';

const webhookSecret = 'whsec_test_mango_secret';

/** Stripe's checkout-session endpoint, played on loopback: it records what the shop asked for. */
let stripeDouble: http.Server;
const sessionsAsked: URLSearchParams[] = [];
const sessionsExpired: string[] = [];
let shop: TestShop;

beforeAll(async () => {
  stripeDouble = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      const expiring = /^\/v1\/checkout\/sessions\/([\w-]+)\/expire$/.exec(request.url ?? '');
      if (expiring && request.headers.authorization === 'Bearer sk_test_mango') {
        sessionsExpired.push(expiring[1]!);
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: expiring[1], status: 'expired' }));
        return;
      }
      if (request.url !== '/v1/checkout/sessions' || request.headers.authorization !== 'Bearer sk_test_mango') {
        response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'bad key' } }));
        return;
      }
      sessionsAsked.push(form);
      const id = `cs_test_${sessionsAsked.length}`;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, url: `https://checkout.stripe.test/pay/${id}` }));
    });
  });
  await new Promise<void>((resolve) => stripeDouble.listen(0, '127.0.0.1', resolve));
  const port = (stripeDouble.address() as AddressInfo).port;
  shop = await createTestShop({ STRIPE_SECRET_KEY: 'sk_test_mango', STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: `http://127.0.0.1:${port}` });
});
afterAll(async () => {
  await shop?.close();
  stripeDouble?.close();
});

function completedEvent(orderNumber: string, amountCents: number, eventId = 'evt_1') {
  return JSON.stringify({
    id: eventId,
    type: 'checkout.session.completed',
    data: { object: { id: 'cs_test_1', client_reference_id: orderNumber, payment_status: 'paid', amount_total: amountCents, currency: 'nzd' } },
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

const signed = (body: string, secret = webhookSecret, at = Math.floor(Date.now() / 1000)) => `t=${at},v1=${signStripePayload(secret, at, body)}`;

async function cardOrder() {
  const product = await testProduct(shop, { priceCents: 6499, stock: 10 });
  const shopper = await quickShopper(shop);
  await shopper.add(product.id, 2);
  const response = await shopper.order({ paymentMethod: 'stripe' });
  expect(response.statusCode).toBe(201);
  return { shopper, product, ...(response.json() as PlacedOrder) };
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
    const asked = sessionsAsked.at(-1)!;
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
    expect(sessionsExpired).toContain(firstSession);

    const stranger = await quickShopper(shop);
    expect((await stranger.call({ method: 'POST', url: `/api/orders/${order.number}/pay` })).statusCode).toBe(404);
  });

  it('closes the Stripe session of a cancelled order, and a late payment event leaves it cancelled', async () => {
    const { order, shopper, checkoutUrl } = await cardOrder();
    const cancelled = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/cancel` });
    expect(cancelled.json().status).toBe('cancelled');
    expect(sessionsExpired).toContain(checkoutUrl!.split('/').at(-1));
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
    expect(shop.mailer.sent.filter((m) => m.subject === `Payment received for order ${order.number}`)).toHaveLength(1);
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
