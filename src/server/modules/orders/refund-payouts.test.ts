import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimView } from '../../../contracts/claims';
import type { OrderView } from '../../../contracts/order';
import type { OpenRefundRow } from '../../../contracts/refunds';
import type { DashboardView } from '../../../contracts/reports';
import { orders, refunds } from '../../db/schema';
import { bruised, claimForm, deliveredOrder } from '../../testing/claim-helpers';
import { placeCardOrder } from '../../testing/order-helpers';
import { StripeApiDouble } from '../../testing/stripe-api-double';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

const stripe = new StripeApiDouble('sk_test_mango');
let shop: TestShop;
let staff: StaffCall;
let photo: Buffer;

beforeAll(async () => {
  const apiUrl = await stripe.start();
  ({ shop, staff } = await openStaffShop({ env: { STRIPE_SECRET_KEY: 'sk_test_mango', STRIPE_WEBHOOK_SECRET: 'whsec_test_refunds', STRIPE_API_URL: apiUrl } }));
  photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#e8a33d' } }).jpeg().toBuffer();
});
afterAll(async () => {
  await shop?.close();
  stripe.stop();
});

/** A card order the shopper paid on Stripe's page, its payment recorded as the webhook would. */
async function paidCardOrder() {
  const placed = await placeCardOrder(shop);
  const session = stripe.latestFor(placed.order.number)!;
  stripe.pay(session.id);
  const outcome = await shop.app.services.orders.recordCardPayment({ orderNumber: placed.order.number, sessionId: session.id, amountCents: session.amount_total, currency: 'nzd' });
  expect(outcome).toBe('paid');
  return { ...placed, paymentIntent: session.id.replace('cs_test_', 'pi_test_') };
}

const refundOrder = (number: string) => staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status: 'refunded', note: 'Customer changed their mind' } });
/** The id of the order numbered `number`. */
const refundRows = async (number: string) => (await shop.database.db.select({ id: orders.id }).from(orders).where(eq(orders.number, number)))[0]!.id;
const rowsOf = async (orderId: number) => shop.database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
const stripeRefundsFor = (paymentIntent: string) => [...stripe.refunds.values()].filter((refund) => refund.payment_intent === paymentIntent);
const openRefunds = async () => (await staff({ method: 'GET', url: '/api/admin/refunds' })).json<{ refunds: OpenRefundRow[] }>().refunds;

describe('a card order refunded by staff', () => {
  it("goes back to the card through Stripe's refund API, keyed by its record, and only then reads refunded", async () => {
    const { order, shopper, paymentIntent } = await paidCardOrder();
    const refunded = await refundOrder(order.number);
    expect(refunded.statusCode, refunded.body).toBe(200);

    const given = stripeRefundsFor(paymentIntent);
    expect(given).toHaveLength(1);
    expect(given[0]).toMatchObject({ amount: 14198, orderNumber: order.number });
    const [row] = await rowsOf(await refundRows(order.number));
    expect(given[0]!.idempotencyKey).toBe(`mango-refund-${row!.id}`);
    expect(row).toMatchObject({ method: 'card', state: 'refunded', stripeRefundId: given[0]!.id, lastError: null });
    expect(row!.refundedAt).not.toBeNull();

    const view = (await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` })).json<OrderView>();
    expect(view.refunds).toEqual([expect.objectContaining({ amount: 141.98, method: 'card', state: 'refunded', accountEnding: null })]);
    const mail = (await shop.mail()).find((m) => m.subject === `Order ${order.number} has been refunded`);
    expect(mail?.text).toContain('It goes back to the card you paid with.');
    expect(mail?.text).not.toContain('bank account');
  });

  it('stays pending with Stripe’s failure for staff when Stripe is down, and a retry makes exactly one refund', async () => {
    const { order, paymentIntent } = await paidCardOrder();
    // The SDK tries each call twice: four failures outlast the refund and one retry.
    stripe.failRefunds = 4;
    const refunded = await refundOrder(order.number);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(stripeRefundsFor(paymentIntent)).toHaveLength(0);
    const [pending] = await rowsOf(await refundRows(order.number));
    expect(pending).toMatchObject({ method: 'card', state: 'pending' });
    expect(pending!.lastError).toBeTruthy();
    const listed = (await openRefunds()).find((refund) => refund.orderNumber === order.number);
    expect(listed).toMatchObject({ state: 'pending', method: 'card', amount: 141.98 });
    expect(listed!.lastError).toBeTruthy();

    // Still failing: the retry answers the refund as it is, pending.
    const failedAgain = await staff({ method: 'POST', url: `/api/admin/refunds/${pending!.id}/retry` });
    expect(failedAgain.statusCode, failedAgain.body).toBe(200);
    expect(failedAgain.json<OpenRefundRow>().state).toBe('pending');
    expect(stripeRefundsFor(paymentIntent)).toHaveLength(0);

    // Stripe makes the refund but its answer is lost: the next try, with the same key, gets it back.
    stripe.loseRefundAnswers = 1;
    const retried = await staff({ method: 'POST', url: `/api/admin/refunds/${pending!.id}/retry` });
    expect(retried.json<OpenRefundRow>()).toMatchObject({ state: 'refunded', lastError: null });
    expect(stripeRefundsFor(paymentIntent)).toHaveLength(1);
    expect(stripe.refundRequests.filter((request) => request.idempotencyKey === `mango-refund-${pending!.id}`).length).toBe(6);
    expect((await openRefunds()).some((refund) => refund.orderNumber === order.number)).toBe(false);
    const again = await staff({ method: 'POST', url: `/api/admin/refunds/${pending!.id}/retry` });
    expect(again.statusCode).toBe(409);
  });

  it('makes one refund when two sweeps send the same pending refund at once', async () => {
    const { order, paymentIntent } = await paidCardOrder();
    stripe.failRefunds = 2;
    expect((await refundOrder(order.number)).statusCode).toBe(200);
    const requestsBefore = stripe.refundRequests.length;
    const payouts = shop.app.services.orders.refunds;
    await Promise.all([payouts.sendCardRefunds(), payouts.sendCardRefunds(), payouts.sendCardRefunds()]);
    expect(stripe.refundRequests.length).toBeGreaterThan(requestsBefore);
    expect(stripeRefundsFor(paymentIntent)).toHaveLength(1);
    const [row] = await rowsOf(await refundRows(order.number));
    expect(row!.state).toBe('refunded');
    // Every try named the same record, so Stripe answered them all with the one refund.
    expect(new Set(stripe.refundRequests.slice(requestsBefore - 2).map((request) => request.idempotencyKey))).toEqual(new Set([`mango-refund-${row!.id}`]));
  });
});

describe('a bank-transfer refund', () => {
  /** A delivered bank-transfer order and an approved claim refund of $20.00 on it. */
  async function claimRefunded() {
    const delivered = await deliveredOrder(shop, staff);
    const sent = await delivered.shopper.call({ method: 'POST', url: `/api/orders/${delivered.order.number}/claims`, ...claimForm(bruised(delivered.lines[0]!.lineId, 1), [photo]) });
    expect(sent.statusCode, sent.body).toBe(201);
    const claim = sent.json<ClaimView>();
    const approved = await staff({ method: 'POST', url: `/api/admin/claims/${claim.id}/approve`, payload: { resolution: 'refund', amount: 20 } });
    expect(approved.statusCode, approved.body).toBe(200);
    const [row] = await rowsOf(await refundRows(delivered.order.number));
    return { ...delivered, claim, refund: row! };
  }

  it('is owed, not refunded: the shopper is asked for an account, staff see it until they pay it out', async () => {
    const revenueBefore = (await staff({ method: 'GET', url: '/api/admin/dashboard' })).json<DashboardView>().revenue.today.revenue;
    const { order, shopper, claim, refund } = await claimRefunded();
    expect(refund).toMatchObject({ method: 'transfer', state: 'owed', amountCents: 2000, refundedAt: null });

    // The shop does not know the account: the mail asks for it, and says nothing is refunded yet.
    const mail = (await shop.mail()).find((m) => m.subject === `Your claim #${claim.id} is approved: refund of $20.00`);
    expect(mail?.text).toContain('are refunding $20.00');
    expect(mail?.text).toContain('We need your bank account to pay it back');
    expect(mail?.text).toContain(`/account/orders/${order.number}#refund`);
    expect(mail?.text).not.toContain('It can take a few working days');

    const view = (await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` })).json<OrderView>();
    expect(view.refunds).toEqual([expect.objectContaining({ amount: 20, method: 'transfer', state: 'owed', accountEnding: null, refundedAt: null })]);
    const listed = (await openRefunds()).find((row) => row.orderNumber === order.number);
    expect(listed).toMatchObject({ id: refund.id, state: 'owed', payoutAccount: null, customerEmail: shopper.user.email });

    // Net of refunds: the order's $20.00 back comes off today's revenue.
    const revenueAfter = (await staff({ method: 'GET', url: '/api/admin/dashboard' })).json<DashboardView>().revenue.today.revenue;
    expect(Math.round((revenueAfter - revenueBefore) * 100)).toBe(Math.round(order.total * 100) - 2000);

    // Nowhere to pay it yet.
    const tooSoon = await staff({ method: 'POST', url: `/api/admin/refunds/${refund.id}/paid-out` });
    expect(tooSoon.statusCode).toBe(409);
    expect(tooSoon.json().message).toBe('The shopper has not given a bank account yet: there is nowhere to pay it.');

    const bad = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/refund-account`, payload: { accountName: 'A Ngata', accountNumber: '12345' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual({ accountNumber: 'A New Zealand account number looks like 12-3456-0123456-00' });
    const given = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/refund-account`, payload: { accountName: 'A Ngata', accountNumber: '12-3456-0123456-00' } });
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json<OrderView>().refunds[0]).toMatchObject({ state: 'owed', accountEnding: '…0123456-00' });
    expect((await openRefunds()).find((row) => row.id === refund.id)).toMatchObject({ payoutAccount: '12-3456-0123456-00', payoutName: 'A Ngata' });

    // Two staff mark it paid out at once: one does, one mail goes.
    const [first, second] = await Promise.all([
      staff({ method: 'POST', url: `/api/admin/refunds/${refund.id}/paid-out` }),
      staff({ method: 'POST', url: `/api/admin/refunds/${refund.id}/paid-out` }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const [paid] = await rowsOf(refund.orderId);
    expect(paid).toMatchObject({ state: 'refunded' });
    expect(paid!.refundedAt).not.toBeNull();
    const paidMails = (await shop.mail()).filter((m) => m.subject === 'Your refund of $20.00 is on its way' && m.to === shopper.user.email);
    expect(paidMails).toHaveLength(1);
    expect(paidMails[0]!.text).toContain('into your account ending …0123456-00');
    expect((await openRefunds()).some((row) => row.id === refund.id)).toBe(false);
    expect((await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` })).json<OrderView>().refunds[0]).toMatchObject({ state: 'refunded' });
  });

  it('takes an account only from the order’s own shopper, and only while something is owed', async () => {
    const { order, refund } = await claimRefunded();
    const { shopper: stranger } = await deliveredOrder(shop, staff);
    const theirs = await stranger.call({ method: 'POST', url: `/api/orders/${order.number}/refund-account`, payload: { accountName: 'Someone Else', accountNumber: '12-3456-0123456-00' } });
    expect(theirs.statusCode).toBe(404);
    const [row] = await shop.database.db.select().from(refunds).where(eq(refunds.id, refund.id));
    expect(row!.payoutAccount).toBeNull();

    const own = await deliveredOrder(shop, staff);
    const nothingOwed = await own.shopper.call({ method: 'POST', url: `/api/orders/${own.order.number}/refund-account`, payload: { accountName: 'X Y', accountNumber: '12-3456-0123456-00' } });
    expect(nothingOwed.statusCode).toBe(409);
    expect(nothingOwed.json().message).toBe('Nothing is owed to you on this order: no bank account is needed.');
  });

  it('keeps the staff refund routes to staff', async () => {
    const { shopper, refund } = await claimRefunded();
    expect((await shopper.call({ method: 'GET', url: '/api/admin/refunds' })).statusCode).toBe(403);
    expect((await shopper.call({ method: 'POST', url: `/api/admin/refunds/${refund.id}/paid-out` })).statusCode).toBe(403);
    expect((await staff({ method: 'POST', url: '/api/admin/refunds/99999999/paid-out' })).statusCode).toBe(404);
    expect((await staff({ method: 'POST', url: '/api/admin/refunds/abc/paid-out' })).statusCode).toBe(400);
  });
});
