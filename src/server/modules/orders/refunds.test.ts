import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderDetail } from '../../../contracts/admin-orders';
import type { StockMovementView } from '../../../contracts/inventory';
import type { OrderStatus, OrderView, PlacedOrder } from '../../../contracts/order';
import { auditLog, orderEvents, orders, promoCodes, refunds, stockMovements } from '../../db/schema';
import { quickShopper, stockOf, testProduct, testPromo } from '../../testing/order-helpers';
import { as, openStaffShop, signInAdmin, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop()));
afterAll(async () => shop?.close());

/** A shopper's order of 3 in-stock boxes (of 20) and 2 pre-order boxes, with a promo code used 5 times before. */
async function placeOrder() {
  const boxes = await testProduct(shop, { stock: 20 });
  const preOrder = await testProduct(shop, { stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-01-15' });
  const promo = await testPromo(shop, { usedCount: 5 });
  const shopper = await quickShopper(shop, 'refund');
  await shopper.add(boxes.id, 3);
  await shopper.add(preOrder.id, 2);
  const response = await shopper.order({ promoCode: promo.code });
  expect(response.statusCode).toBe(201);
  const order = (response.json() as PlacedOrder).order;
  const step = (status: OrderStatus, extra: Record<string, unknown> = {}, by = staff) =>
    by({ method: 'POST', url: `/api/admin/orders/${order.number}/status`, payload: { status, ...extra } });
  /** Staff move the order along, each step answered 200. */
  const stepsTo = async (...statuses: OrderStatus[]) => {
    for (const status of statuses) {
      // The pre-order's boxes arrive before the order can be packed (decision 0015).
      if (status === 'packed') {
        const shipment = await staff({ method: 'POST', url: `/api/admin/inventory/${preOrder.id}/shipments`, payload: { boxes: 2, arrivalDate: '2026-11-20' } });
        expect(shipment.statusCode, shipment.body).toBe(201);
      }
      const response = await step(status, status === 'shipped' ? { carrier: 'courierpost', trackingNumber: 'NZP-123456' } : {});
      expect(response.statusCode, response.body).toBe(200);
    }
  };
  return { boxes, preOrder, promo, shopper, order, step, stepsTo };
}

const promoUses = async (promoId: number) => (await shop.database.db.select().from(promoCodes).where(eq(promoCodes.id, promoId)))[0]!.usedCount;
const movementsOf = async (productId: number) =>
  (await shop.database.db.select().from(stockMovements).where(eq(stockMovements.productId, productId)).orderBy(stockMovements.id)).map((m) => [m.change, m.reason]);
const refundMails = async (number: string) => (await shop.mail()).filter((m) => m.subject === `Order ${number} has been refunded`);
const eventsOf = async (number: string, status: OrderStatus) =>
  shop.database.db
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.status, status), sql`${orderEvents.orderId} = (select id from ${orders} where ${orders.number} = ${number})`));

describe('POST /api/admin/orders/:number/status: refunds before the boxes are sent', () => {
  it('puts the boxes of a paid order back in stock, gives back the promo use, records it and e-mails the customer', async () => {
    const { boxes, preOrder, promo, shopper, order, step, stepsTo } = await placeOrder();
    expect(await stockOf(shop, boxes.id)).toBe(17);
    expect(await promoUses(promo.id)).toBe(6);
    await stepsTo('paid');

    const refunded = await step('refunded', { note: 'Customer changed their mind' });
    expect(refunded.statusCode).toBe(200);
    expect(refunded.json()).toMatchObject({ status: 'refunded' });
    expect((refunded.json() as AdminOrderDetail).events.at(-1)).toMatchObject({ status: 'refunded', note: 'Customer changed their mind' });
    expect(await stockOf(shop, boxes.id)).toBe(20);
    expect(await movementsOf(boxes.id)).toEqual([
      [-3, 'order'],
      [3, 'refund'],
    ]);
    // Pre-order boxes never took stock, so none go back.
    expect(await movementsOf(preOrder.id)).toEqual([]);
    expect(await stockOf(shop, preOrder.id)).toBe(0);
    expect(await promoUses(promo.id)).toBe(5);

    const history = (await staff({ method: 'GET', url: `/api/admin/inventory/${boxes.id}/movements` })).json() as StockMovementView[];
    expect(history[0]).toMatchObject({ change: 3, reason: 'refund', orderNumber: order.number });
    const audited = await shop.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'order.refunded'), eq(auditLog.entityId, order.number)));
    expect(audited).toHaveLength(1);
    // The money given back is recorded, once, for the whole order.
    const [row] = await shop.database.db.select().from(orders).where(eq(orders.number, order.number));
    const records = await shop.database.db.select().from(refunds).where(eq(refunds.orderId, row!.id));
    expect(records.map((record) => [record.amountCents, record.reason])).toEqual([[row!.totalCents, 'Customer changed their mind']]);
    const mails = await refundMails(order.number);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(shopper.user.email);
    expect(mails[0]!.text).toContain(`We are refunding $${order.total.toFixed(2)} for your order ${order.number}.`);

    const seen = (await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` })).json() as OrderView;
    expect(seen).toMatchObject({ status: 'refunded', canCancel: false });
    expect(seen.events.map((e) => e.status)).toEqual(['pending_payment', 'paid', 'refunded']);
  });

  it('puts the boxes of a packed order back in stock, the pre-order boxes from its shipment too', async () => {
    const { boxes, preOrder, promo, step, stepsTo } = await placeOrder();
    await stepsTo('paid', 'packed');
    expect((await step('refunded')).statusCode).toBe(200);
    expect(await stockOf(shop, boxes.id)).toBe(20);
    expect(await movementsOf(boxes.id)).toEqual([
      [-3, 'order'],
      [3, 'refund'],
    ]);
    expect(await movementsOf(preOrder.id)).toEqual([
      [2, 'received'],
      [-2, 'allocation'],
      [2, 'refund'],
    ]);
    expect(await stockOf(shop, preOrder.id)).toBe(2);
    expect(await promoUses(promo.id)).toBe(5);
  });

  it('lets the customer use a one-per-customer code again, as after a cancel', async () => {
    const promo = await testPromo(shop, { maxUsesPerCustomer: 1 });
    const product = await testProduct(shop, { stock: 10 });
    const shopper = await quickShopper(shop, 'again');
    await shopper.add(product.id, 1);
    const first = (await shopper.order({ promoCode: promo.code })).json() as PlacedOrder;
    await staff({ method: 'POST', url: `/api/admin/orders/${first.order.number}/status`, payload: { status: 'paid' } });
    expect((await staff({ method: 'POST', url: `/api/admin/orders/${first.order.number}/status`, payload: { status: 'refunded' } })).statusCode).toBe(200);
    await shopper.add(product.id, 1);
    expect((await shopper.order({ promoCode: promo.code })).statusCode).toBe(201);
  });
});

describe('POST /api/admin/orders/:number/status: refunds after the boxes are sent', () => {
  for (const sent of [['paid', 'packed', 'shipped'], ['paid', 'packed', 'shipped', 'delivered']] as OrderStatus[][]) {
    it(`returns no stock and keeps the promo use when the order is ${sent.at(-1)}, and e-mails the customer`, async () => {
      const { boxes, preOrder, promo, order, step, stepsTo } = await placeOrder();
      await stepsTo(...sent);
      expect((await step('refunded')).statusCode).toBe(200);
      expect(await stockOf(shop, boxes.id)).toBe(17);
      expect(await stockOf(shop, preOrder.id)).toBe(0);
      expect(await movementsOf(boxes.id)).toEqual([[-3, 'order']]);
      expect(await promoUses(promo.id)).toBe(6);
      expect(await refundMails(order.number)).toHaveLength(1);
    });
  }

  it('keeps a one-per-customer code used when the order was refunded after shipping', async () => {
    const promo = await testPromo(shop, { maxUsesPerCustomer: 1 });
    const product = await testProduct(shop, { stock: 10 });
    const shopper = await quickShopper(shop, 'kept');
    await shopper.add(product.id, 1);
    const first = (await shopper.order({ promoCode: promo.code })).json() as PlacedOrder;
    for (const payload of [{ status: 'paid' }, { status: 'packed' }, { status: 'shipped', carrier: 'nz_post', trackingNumber: 'NZP-654321' }, { status: 'refunded' }]) {
      expect((await staff({ method: 'POST', url: `/api/admin/orders/${first.order.number}/status`, payload })).statusCode).toBe(200);
    }
    await shopper.add(product.id, 1);
    expect((await shopper.order({ promoCode: promo.code })).json().fieldErrors).toEqual({ promoCode: "You've already used this promo code." });
  });
});

describe('POST /api/admin/orders/:number/status: refunding a cancelled order', () => {
  it('marks a cancelled order that had been paid refunded, without returning its stock a second time', async () => {
    const { boxes, promo, shopper, order, step, stepsTo } = await placeOrder();
    await stepsTo('paid', 'packed', 'cancelled');
    expect(await stockOf(shop, boxes.id)).toBe(20);
    expect(await promoUses(promo.id)).toBe(5);

    const refunded = await step('refunded', { note: 'Paid back by bank transfer' });
    expect(refunded.statusCode, refunded.body).toBe(200);
    // The second 'paid' is the pre-order boxes set aside from their shipment.
    expect((refunded.json() as AdminOrderDetail).events.map((e) => e.status)).toEqual(['pending_payment', 'paid', 'paid', 'packed', 'cancelled', 'refunded']);
    expect(await stockOf(shop, boxes.id)).toBe(20);
    expect(await movementsOf(boxes.id)).toEqual([
      [-3, 'order'],
      [3, 'cancellation'],
    ]);
    expect(await promoUses(promo.id)).toBe(5);
    expect(await refundMails(order.number)).toHaveLength(1);
    expect(((await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` })).json() as OrderView).status).toBe('refunded');
    expect((await step('refunded')).statusCode).toBe(409);
  });

  it('refuses to mark a cancelled order refunded when it was never paid', async () => {
    const { boxes, shopper, order, step } = await placeOrder();
    expect((await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/cancel` })).statusCode).toBe(200);

    const refused = await step('refunded');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: 'This order was cancelled before it was paid: there is no payment to refund.' });
    expect(await stockOf(shop, boxes.id)).toBe(20);
    expect(await eventsOf(order.number, 'refunded')).toEqual([]);
    expect(await refundMails(order.number)).toEqual([]);
  });
});

describe('POST /api/admin/orders/:number/status: two staff at once', () => {
  it('records a refund once when two staff record it together: stock, promo use, timeline, audit and mail once', async () => {
    const second = as(shop.app, (await signInAdmin(shop, 'packer@mangoshop.co.nz', 'orchard-keys-2027')).cookie);
    for (let round = 0; round < 3; round += 1) {
      const { boxes, promo, order, step, stepsTo } = await placeOrder();
      await stepsTo('paid', 'packed');
      const answers = await Promise.all([step('refunded', {}, staff), step('refunded', {}, second), step('refunded', {}, staff), step('refunded', {}, second)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409]);
      for (const refused of answers.filter((a) => a.statusCode === 409)) {
        expect(refused.json()).toEqual({ message: 'An order that is refunded cannot be marked refunded.' });
      }
      expect(await stockOf(shop, boxes.id)).toBe(20);
      expect(await movementsOf(boxes.id)).toEqual([
        [-3, 'order'],
        [3, 'refund'],
      ]);
      expect(await promoUses(promo.id)).toBe(5);
      expect(await eventsOf(order.number, 'refunded')).toHaveLength(1);
      const audited = await shop.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'order.refunded'), eq(auditLog.entityId, order.number)));
      expect(audited).toHaveLength(1);
      expect(await refundMails(order.number)).toHaveLength(1);
    }
  });

  it('returns the stock once when one cancels and another records the refund together', async () => {
    const second = as(shop.app, (await signInAdmin(shop, 'packer@mangoshop.co.nz', 'orchard-keys-2027')).cookie);
    for (let round = 0; round < 3; round += 1) {
      const { boxes, promo, step, stepsTo } = await placeOrder();
      await stepsTo('paid');
      const [cancel, refund] = await Promise.all([step('cancelled', {}, staff), step('refunded', {}, second)]);
      // Cancel first: the refund follows it. Refund first: the cancel is refused.
      expect(refund.statusCode).toBe(200);
      expect([200, 409]).toContain(cancel.statusCode);
      expect(await stockOf(shop, boxes.id)).toBe(20);
      expect((await movementsOf(boxes.id)).filter(([change]) => Number(change) > 0)).toHaveLength(1);
      expect(await promoUses(promo.id)).toBe(5);
    }
  });
});
