import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderView, PlacedOrder } from '../../../contracts/order';
import { dispatchDays, orders, refunds } from '../../db/schema';
import { quickShopper, stockOf, testProduct, testPromo } from '../../testing/order-helpers';
import { StripeApiDouble } from '../../testing/stripe-api-double';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

const stripe = new StripeApiDouble('sk_test_mango');
let shop: TestShop;
let staff: StaffCall;

beforeAll(async () => {
  const apiUrl = await stripe.start();
  ({ shop, staff } = await openStaffShop({ env: { STRIPE_SECRET_KEY: 'sk_test_mango', STRIPE_WEBHOOK_SECRET: 'whsec_test_split', STRIPE_API_URL: apiUrl } }));
});
afterAll(async () => {
  await shop?.close();
  stripe.stop();
});

/** A shopper whose cart holds 2 in-stock boxes and 1 pre-order box. */
async function mixedCart() {
  const inStock = await testProduct(shop, { name: 'Split Kesar', priceCents: 5999, stock: 10 });
  const coming = await testProduct(shop, { name: 'Split Alphonso', priceCents: 7999, stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-03-10' });
  const shopper = await quickShopper(shop, 'split');
  await shopper.add(inStock.id, 2);
  await shopper.add(coming.id, 1);
  const quote = (await shopper.call({ method: 'POST', url: '/api/checkout/quote', payload: {} })).json<{ total: number; gst: number; shipping: number }>();
  return { inStock, coming, shopper, quote };
}

const view = (shopper: Awaited<ReturnType<typeof quickShopper>>, number: string) => shopper.call({ method: 'GET', url: `/api/orders/${number}` }).then((response) => response.json<OrderView>());
const rowOf = async (number: string) => (await shop.database.db.select().from(orders).where(eq(orders.number, number)))[0]!;
const cents = (dollars: number) => Math.round(dollars * 100);

describe('a cart of in-stock and pre-order boxes sent separately', () => {
  it('becomes two orders: the in-stock boxes dated now with the delivery charge, the pre-order waiting at no extra charge, one payment for both', async () => {
    const { inStock, shopper, quote } = await mixedCart();
    const mailsBefore = (await shop.mail()).length;
    const response = await shopper.order({ sendSeparately: true });
    expect(response.statusCode, response.body).toBe(201);
    const first = response.json<PlacedOrder>().order;

    expect(first.lines.map((line) => line.name)).toEqual(['Split Kesar']);
    expect(first.deliveryDate).not.toBeNull();
    expect(first.shipping).toBe(quote.shipping);
    expect(first.laterDelivery).not.toBeNull();
    const later = await view(shopper, first.laterDelivery!.number);
    expect(later.lines.map((line) => ({ name: line.name, isPreOrder: line.isPreOrder, expectedAvailabilityDate: line.expectedAvailabilityDate }))).toEqual([
      { name: 'Split Alphonso', isPreOrder: true, expectedAvailabilityDate: '2027-03-10' },
    ]);
    expect(later).toMatchObject({ paidWith: first.number, shipping: 0, ruralSurcharge: 0, deliveryDate: null, waitingForStock: true, bankTransfer: null, canCancel: true, status: 'pending_payment' });
    expect(first.laterDelivery!.total).toBe(later.total);

    // What the quote showed, to the cent, and one transfer of it pays both.
    expect(cents(first.total) + cents(later.total)).toBe(cents(quote.total));
    // Each order's GST is its own total's, for its own tax invoice: within a cent of the cart's.
    expect(cents(first.gst)).toBe(Math.round((cents(first.total) * 3) / 23));
    expect(cents(later.gst)).toBe(Math.round((cents(later.total) * 3) / 23));
    expect(Math.abs(cents(first.gst) + cents(later.gst) - cents(quote.gst))).toBeLessThanOrEqual(1);
    // One pay-by, the first order's: the later one has none of its own to run out.
    expect((await rowOf(first.number)).payBy).not.toBeNull();
    expect((await rowOf(later.number)).payBy).toBeNull();
    expect(first.bankTransfer).toMatchObject({ reference: first.number, amount: quote.total });
    // The dispatch day holds only the boxes that go on it.
    const [day] = await shop.database.db.select().from(dispatchDays).where(eq(dispatchDays.date, first.dispatchDate!));
    expect(day!.bookedBoxes).toBe(2);
    expect((await rowOf(first.number)).deliveryBoxes).toBe(2);
    expect(await stockOf(shop, inStock.id)).toBe(8);

    const mails = (await shop.mail()).slice(mailsBefore);
    expect(mails.map((mail) => mail.subject).sort()).toEqual([`Your order ${first.number} at Mango Shop`, `Your order ${later.number} at Mango Shop`].sort());
    expect(mails.find((mail) => mail.subject.includes(first.number))!.text).toContain(`follow as order ${later.number}`);
    expect(mails.find((mail) => mail.subject.includes(later.number))!.text).toContain(`paid for with order ${first.number}`);

    // Marking the transfer paid on either order pays both, also from the bulk action with both ticked.
    const paid = await staff({ method: 'POST', url: '/api/admin/orders/bulk-status', payload: { status: 'paid', numbers: [later.number, first.number] } });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json<{ results: unknown[] }>().results).toEqual([
      { number: later.number, ok: true },
      { number: first.number, ok: true },
    ]);
    expect((await view(shopper, first.number)).status).toBe('paid');
    expect((await view(shopper, later.number)).status).toBe('paid');
  });

  it('is cancelled as one while unpaid: both orders, and the in-stock boxes come back', async () => {
    const { inStock, shopper } = await mixedCart();
    const first = (await shopper.order({ sendSeparately: true })).json<PlacedOrder>().order;
    const mailsBefore = (await shop.mail()).length;
    const cancelled = await shopper.call({ method: 'POST', url: `/api/orders/${first.laterDelivery!.number}/cancel` });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const mails = (await shop.mail()).slice(mailsBefore);
    expect(mails.find((mail) => mail.subject === `Order ${first.laterDelivery!.number} has been cancelled`)!.text).toContain(`Order ${first.number}, paid for together, is cancelled too.`);
    expect(mails.find((mail) => mail.subject === `Order ${first.number} has been cancelled`)!.text).toContain(`Cancelled with ${first.laterDelivery!.number}, paid for together`);
    expect((await view(shopper, first.number)).status).toBe('cancelled');
    expect((await view(shopper, first.laterDelivery!.number)).status).toBe('cancelled');
    expect(await stockOf(shop, inStock.id)).toBe(10);
    const [day] = await shop.database.db.select().from(dispatchDays).where(eq(dispatchDays.date, first.dispatchDate!));
    expect((await rowOf(first.number)).deliveryBoxes).toBe(0);
    expect(day!.bookedBoxes).toBeGreaterThanOrEqual(0);
  });

  it('paid and cancelled at the same moment, ends as one: both paid or both cancelled', async () => {
    for (let round = 0; round < 3; round += 1) {
      const { shopper } = await mixedCart();
      const first = (await shopper.order({ sendSeparately: true })).json<PlacedOrder>().order;
      const laterNumber = first.laterDelivery!.number;
      const [paid, cancelled] = await Promise.all([
        staff({ method: 'POST', url: `/api/admin/orders/${first.number}/status`, payload: { status: 'paid' } }),
        shopper.call({ method: 'POST', url: `/api/orders/${laterNumber}/cancel` }),
      ]);
      // Exactly one of the two wins; the other is refused (or finds nothing to do).
      expect([paid.statusCode, cancelled.statusCode].filter((code) => code === 200)).toHaveLength(1);
      const statuses = [(await view(shopper, first.number)).status, (await view(shopper, laterNumber)).status];
      expect(statuses[0]).toBe(statuses[1]);
      expect(['paid', 'cancelled']).toContain(statuses[0]);
    }
  });

  it('shares a promo code discount between the two orders, the code used once', async () => {
    const promo = await testPromo(shop, { discountType: 'percentage', discountValue: 10 });
    const { shopper, quote } = await mixedCart();
    const quoted = (await shopper.call({ method: 'POST', url: '/api/checkout/quote', payload: { promoCode: promo.code } })).json<{ total: number; discount: number }>();
    expect(quoted.discount).toBeGreaterThan(0);
    const first = (await shopper.order({ sendSeparately: true, promoCode: promo.code })).json<PlacedOrder>().order;
    const later = await view(shopper, first.laterDelivery!.number);
    expect(cents(first.discount) + cents(later.discount)).toBe(cents(quoted.discount));
    expect(cents(first.total) + cents(later.total)).toBe(cents(quoted.total));
    expect(cents(quoted.total)).toBeLessThan(cents(quote.total));
    expect((await rowOf(first.number)).promoCodeId).toBe(promo.id);
    expect((await rowOf(later.number)).promoCodeId).toBeNull();
  });

  it('whose pre-order cannot be supplied while unpaid loses only the pre-order: the in-stock order stays, costing its own total', async () => {
    const { coming, inStock, shopper } = await mixedCart();
    const first = (await shopper.order({ sendSeparately: true })).json<PlacedOrder>().order;
    const laterNumber = first.laterDelivery!.number;
    const gaveUp = await staff({ method: 'POST', url: `/api/admin/inventory/${coming.id}/pre-orders/cancel-waiting`, payload: { reason: 'The orchard lost its crop' } });
    expect(gaveUp.statusCode, gaveUp.body).toBe(200);
    expect(gaveUp.json<{ cancelled: string[] }>().cancelled).toEqual([laterNumber]);
    const now = await view(shopper, first.number);
    expect(now.status).toBe('pending_payment');
    expect(now.laterDelivery).toBeNull();
    expect(now.bankTransfer!.amount).toBe(now.total);
    const told = (await shop.mail()).find((mail) => mail.subject === `Order ${laterNumber} has been cancelled`)!;
    expect(told.text).toContain(`Order ${first.number} still comes as planned, for its own total.`);
    expect((await view(shopper, laterNumber)).status).toBe('cancelled');
    expect(await stockOf(shop, inStock.id)).toBe(8);
  });

  it('sent together, stays one order that waits for the pre-order, as before', async () => {
    const { shopper, quote } = await mixedCart();
    const response = await shopper.order({ sendSeparately: false });
    expect(response.statusCode, response.body).toBe(201);
    const order = response.json<PlacedOrder>().order;
    expect(order.lines).toHaveLength(2);
    expect(order).toMatchObject({ deliveryDate: null, waitingForStock: true, laterDelivery: null, paidWith: null, total: quote.total });
  });

  it('needs a delivery day for the in-stock boxes', async () => {
    const { shopper } = await mixedCart();
    const response = await shopper.order({ sendSeparately: true, deliveryDate: undefined });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ fieldErrors: Record<string, string> }>().fieldErrors.deliveryDate).toBe('Choose a delivery date');
  });

  it('is paid by one card payment of both totals, and a refund of the later order goes back to that card', async () => {
    const { shopper, quote } = await mixedCart();
    const placed = (await shopper.order({ sendSeparately: true, paymentMethod: 'stripe' })).json<PlacedOrder>();
    expect(placed.checkoutUrl).not.toBeNull();
    const first = placed.order;
    const laterNumber = first.laterDelivery!.number;
    const session = stripe.latestFor(first.number)!;
    expect(session.amount_total).toBe(cents(quote.total));
    // The later order has no payment of its own to start.
    const payLater = await shopper.call({ method: 'POST', url: `/api/orders/${laterNumber}/pay` });
    expect(payLater.statusCode).toBe(409);
    expect(payLater.json<{ message: string }>().message).toContain(first.number);
    expect((await view(shopper, laterNumber)).canPayByCard).toBe(false);

    // Bulk "Mark paid" leaves an unpaid card order to Stripe.
    const bulk = await staff({ method: 'POST', url: '/api/admin/orders/bulk-status', payload: { status: 'paid', numbers: [first.number] } });
    expect(bulk.json<{ results: Array<{ ok: boolean; message?: string }> }>().results[0]).toMatchObject({ ok: false, message: expect.stringContaining('when Stripe confirms its payment') });
    expect((await view(shopper, first.number)).status).toBe('pending_payment');

    stripe.pay(session.id);
    expect(await shop.app.services.orders.recordCardPayment({ orderNumber: first.number, sessionId: session.id, amountCents: session.amount_total, currency: 'nzd' })).toBe('paid');
    // Stripe telling it again (a replayed webhook) finds it paid: no mismatch for staff to chase.
    expect(await shop.app.services.orders.recordCardPayment({ orderNumber: first.number, sessionId: session.id, amountCents: session.amount_total, currency: 'nzd' })).toBe('already');
    expect((await view(shopper, laterNumber)).status).toBe('paid');

    const refunded = await staff({ method: 'POST', url: `/api/admin/orders/${laterNumber}/status`, payload: { status: 'refunded', note: 'Season failed' } });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const paymentIntent = session.id.replace('cs_test_', 'pi_test_');
    const given = [...stripe.refunds.values()].filter((refund) => refund.payment_intent === paymentIntent);
    expect(given).toHaveLength(1);
    expect(given[0]!.amount).toBe((await rowOf(laterNumber)).totalCents);
    const [row] = await shop.database.db.select().from(refunds).where(eq(refunds.orderId, (await rowOf(laterNumber)).id));
    expect(row).toMatchObject({ method: 'card', state: 'refunded' });
    // The first order is untouched by its partner's refund.
    expect((await view(shopper, first.number)).status).toBe('paid');
  });

  it('dates the later order when its boxes arrive', async () => {
    const { coming, shopper } = await mixedCart();
    const first = (await shopper.order({ sendSeparately: true })).json<PlacedOrder>().order;
    await staff({ method: 'POST', url: `/api/admin/orders/${first.number}/status`, payload: { status: 'paid' } });
    const arrived = await staff({ method: 'POST', url: `/api/admin/inventory/${coming.id}/shipments`, payload: { boxes: 1, arrivalDate: '2026-11-02' } });
    expect(arrived.statusCode, arrived.body).toBe(201);
    const later = await view(shopper, first.laterDelivery!.number);
    expect(later.waitingForStock).toBe(false);
    expect(later.deliveryDate).not.toBeNull();
    expect(later.status).toBe('paid');
  });
});
