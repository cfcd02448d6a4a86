import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubscriptionView } from '../../../contracts/subscriptions';
import { orders, subscriptions } from '../../db/schema';
import type { MailMessage } from '../../lib/mail';
import { quickShopper, testProduct, testShipping } from '../../testing/order-helpers';
import { StripeApiDouble } from '../../testing/stripe-api-double';
import { stripeSignatureHeader } from '../../testing/stripe-signature';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

const webhookSecret = 'whsec_test_season_box';
const stripe = new StripeApiDouble('sk_test_season_box');
/** Tuesday 2 March 2027, 11:00 NZDT: Friday 5 March's box (Auckland) is packed on Thursday 4 March. */
let now = new Date('2027-03-01T22:00:00Z');
let shop: TestShop;
let staff: StaffCall;

beforeAll(async () => {
  const apiUrl = await stripe.start();
  ({ shop, staff } = await openStaffShop({ clock: () => now, env: { STRIPE_SECRET_KEY: 'sk_test_season_box', STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: apiUrl } }));
});
afterAll(async () => {
  await shop?.close();
  stripe.stop();
});

const seen = new Set<MailMessage>();
async function newMailTo(to: string) {
  const fresh = (await shop.mail()).filter((one) => !seen.has(one));
  for (const one of fresh) seen.add(one);
  return fresh.filter((one) => one.to === to);
}

function cardSavedEvent(sessionId: string, eventId: string) {
  const body = JSON.stringify({ id: eventId, type: 'checkout.session.completed', data: { object: { id: sessionId, mode: 'setup', payment_status: 'no_payment_required' } } });
  return shop.app.inject({ method: 'POST', url: '/api/payments/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignatureHeader(webhookSecret, body) }, payload: body });
}

/** A card season box with its card saved on Stripe's page (declining every charge, or not). */
async function cardSubscriber({ declines = false } = {}) {
  now = new Date('2027-03-01T22:00:00Z');
  const product = await testProduct(shop, { subscribable: true, priceCents: 5000, stock: 20 });
  const shopper = await quickShopper(shop, 'card');
  const response = await shopper.call({ method: 'POST', url: '/api/subscriptions', payload: { productId: product.id, quantity: 1, every: 'week', firstDeliveryDate: '2027-03-05', shipping: testShipping, paymentMethod: 'stripe' } });
  expect(response.statusCode, response.body).toBe(201);
  const created = response.json<SubscriptionView>();
  const [row] = await shop.database.db.select().from(subscriptions).where(eq(subscriptions.id, created.id));
  stripe.saveCard(row!.cardSetupSessionId!, { declines });
  // Back from Stripe's page before the webhook: reading the season box finds the card saved.
  expect((await shopper.call({ method: 'GET', url: `/api/subscriptions/${created.id}` })).json<SubscriptionView>().status).toBe('active');
  return { shopper, created, product };
}

const runDate = (deliveryDate: string) => shop.app.services.subscriptionRuns.run(deliveryDate, { early: true });
const orderOf = async (subscriptionId: number, date: string) => (await shop.database.db.select().from(orders).where(eq(orders.idempotencyKey, `season-box:${subscriptionId}:${date}`)))[0];

describe('a card season box', () => {
  it("saves the card on Stripe's page in setup mode before any box comes, and starts once the webhook says so", async () => {
    now = new Date('2027-03-01T22:00:00Z');
    const product = await testProduct(shop, { subscribable: true, stock: 5 });
    const shopper = await quickShopper(shop, 'saver');
    const response = await shopper.call({ method: 'POST', url: '/api/subscriptions', payload: { productId: product.id, quantity: 1, every: 'week', firstDeliveryDate: '2027-03-05', shipping: testShipping, paymentMethod: 'stripe' } });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<SubscriptionView>();
    expect(created).toMatchObject({ status: 'awaiting_card', coming: [] });
    expect(created.cardSetupUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_\d+$/);
    const [row] = await shop.database.db.select().from(subscriptions).where(eq(subscriptions.id, created.id));
    const session = stripe.sessions.get(row!.cardSetupSessionId!)!;
    expect(session.form.get('mode')).toBe('setup');
    expect(session.form.get('customer')).toBe(row!.stripeCustomerId);
    expect(await newMailTo(shopper.user.email)).toHaveLength(0);
    // No card yet: no box is made.
    expect((await runDate('2027-03-05')).ordered).toBe(0);
    // A forged or early webhook changes nothing: the card is read back from Stripe.
    expect((await cardSavedEvent(session.id, 'evt_early')).json()).toMatchObject({ outcome: 'not_complete' });
    stripe.saveCard(session.id);
    expect((await cardSavedEvent(session.id, 'evt_saved')).json()).toMatchObject({ outcome: 'saved' });
    expect((await cardSavedEvent(session.id, 'evt_again')).json()).toMatchObject({ outcome: 'already' });
    const active = (await shopper.call({ method: 'GET', url: `/api/subscriptions/${created.id}` })).json<SubscriptionView>();
    expect(active.status).toBe('active');
    expect((await newMailTo(shopper.user.email)).map((mail) => mail.subject)).toEqual([`Your season box of ${product.name} is set up`]);
  });

  it('is charged off-session at the run, once, with a key per subscription and date', async () => {
    const { created } = await cardSubscriber();
    await runDate('2027-03-05');
    const order = await orderOf(created.id, '2027-03-05');
    expect(order).toMatchObject({ status: 'paid', paymentMethod: 'stripe', totalCents: 5000 + order!.shippingCents });
    const key = `season-box-charge-${created.id}-2027-03-05`;
    expect(stripe.chargeRequests.filter((request) => request.idempotencyKey === key)).toEqual([{ idempotencyKey: key, paymentMethod: expect.stringMatching(/^pm_test_/) }]);
    expect(await shop.app.services.subscriptionRuns.charge(created.id, '2027-03-05')).toBe('done');
    expect(order!.stripePaymentIntentId).toMatch(/^pi_off_/);
    // Refunded by staff, the money goes back to the card it was charged on.
    const refunded = await staff({ method: 'POST', url: `/api/admin/orders/${order!.number}/status`, payload: { status: 'refunded', note: 'Fruit not up to standard' } });
    expect(refunded.statusCode, refunded.body).toBe(200);
    await shop.app.services.orders.refunds.sendCardRefunds({ orderId: order!.id });
    expect([...stripe.refunds.values()].filter((refund) => refund.payment_intent === order!.stripePaymentIntentId).map((refund) => refund.amount)).toEqual([order!.totalCents]);
  });

  it('mails a pay-now link once when the card is declined, and pauses at the second box in a row unpaid', async () => {
    const { shopper, created } = await cardSubscriber({ declines: true });
    await newMailTo(shopper.user.email);
    await runDate('2027-03-05');
    const order = await orderOf(created.id, '2027-03-05');
    expect(order!.status).toBe('pending_payment');
    await shop.app.services.subscriptionRuns.charge(created.id, '2027-03-05');
    await shop.app.services.subscriptionRuns.sweep();
    const declined = (await newMailTo(shopper.user.email)).filter((mail) => mail.subject.startsWith('Your card was declined'));
    expect(declined.map((mail) => mail.subject)).toEqual(['Your card was declined for your box on Friday 5 March']);
    const payNow = /Pay \$[\d.]+ now: (\S+)/.exec(declined[0]!.text)![1]!;
    const session = stripe.latestFor(order!.number)!;
    expect(payNow).toBe(`https://checkout.stripe.test/pay/${session.id}`);
    // Valid until the packing cut-off (Thursday 4 March, 12:00) at the latest.
    expect(Number(session.form.get('expires_at'))).toBeLessThanOrEqual(Date.parse('2027-03-03T23:00:00Z') / 1000);
    expect(declined[0]!.text).toContain('Pay by 12:00 pm on Thu, 4 March 2027 and the box still comes.');
    // Unpaid by then, the box is not sent; the next box's card is declined too: the season box pauses.
    now = new Date('2027-03-03T23:01:00Z');
    await shop.app.services.orders.cancelOverdue(now);
    expect((await orderOf(created.id, '2027-03-05'))!.status).toBe('cancelled');
    await runDate('2027-03-12');
    expect(await orderOf(created.id, '2027-03-12')).toBeDefined();
    const paused = await newMailTo(shopper.user.email);
    expect(paused.map((mail) => mail.subject)).toContain('Your season box is paused: your card was declined again');
    const view = (await shopper.call({ method: 'GET', url: `/api/subscriptions/${created.id}` })).json<SubscriptionView>();
    expect(view.status).toBe('paused');
    now = new Date('2027-03-01T22:00:00Z');
  });
});
