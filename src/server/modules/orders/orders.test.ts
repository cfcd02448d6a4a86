import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderView, PlacedOrder } from '../../../contracts/order';
import { orderEvents, orders, promoCodes, stockMovements } from '../../db/schema';
import { newCheckoutKey, quickShopper, stockOf, testProduct, testPromo, testShipping } from '../../testing/order-helpers';
import { createTestShop, type TestShop } from '../../testing/test-app';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(async () => shop?.close());

const placed = (response: { json(): unknown }) => response.json() as PlacedOrder;

describe('POST /api/orders', () => {
  it('asks a visitor to sign in', async () => {
    const response = await shop.app.inject({ method: 'POST', url: '/api/orders', payload: { shipping: testShipping, idempotencyKey: newCheckoutKey() } });
    expect(response.statusCode).toBe(401);
  });

  it('places the cart as a bank-transfer order with the totals of the quote, and empties the cart', async () => {
    const product = await testProduct(shop, { priceCents: 6499, stock: 10 });
    const other = await testProduct(shop, { priceCents: 4499, stock: 5 });
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 2);
    await shopper.add(other.id, 1);
    const quote = (await shopper.call({ method: 'POST', url: '/api/checkout/quote', payload: { promoCode: 'MANGO10' } })).json();

    const response = await shopper.order({ promoCode: 'mango10' });
    expect(response.statusCode).toBe(201);
    const { order } = placed(response);
    expect(order).toMatchObject({
      status: 'pending_payment',
      paymentMethod: 'bank_transfer',
      subtotal: quote.subtotal,
      shipping: 12,
      discount: quote.discount,
      gst: quote.gst,
      total: quote.total,
      promoCode: 'MANGO10',
      canCancel: true,
      shippingAddress: { name: 'Aroha Ngata', postcode: '1011', region: 'Auckland', suburb: 'Ponsonby' },
    });
    expect(order).toMatchObject({ subtotal: 174.97, discount: 17.5, total: 169.47, gst: 22.1 });
    expect(order.number).toMatch(/^MS-\d{5,}$/);
    expect(order.bankTransfer).toMatchObject({ accountName: 'Mango Shop Ltd', reference: order.number });
    expect(order.lines).toEqual([
      expect.objectContaining({ productId: product.id, name: product.name, unitPrice: 64.99, quantity: 2, lineTotal: 129.98 }),
      expect.objectContaining({ productId: other.id, unitPrice: 44.99, quantity: 1 }),
    ]);
    expect(order.events).toEqual([expect.objectContaining({ status: 'pending_payment', note: 'Order placed' })]);
    expect((await shopper.cart()).itemCount).toBe(0);
    expect(await stockOf(shop, product.id)).toBe(8);
    expect(await stockOf(shop, other.id)).toBe(4);
    const movements = await shop.database.db.select().from(stockMovements).where(eq(stockMovements.productId, product.id));
    expect(movements).toEqual([expect.objectContaining({ change: -2, reason: 'order' })]);

    const mail = (await shop.mail()).find((m) => m.subject.includes(order.number));
    expect(mail?.to).toBe(shopper.user.email);
    expect(mail?.text).toContain(`Reference: ${order.number}`);
    // The shop has no GST number: it charges no GST, and the mail says none.
    expect(mail?.text).toContain('Total: $169.47');
    expect(mail?.text).not.toContain('GST');
  });

  it('ignores prices, totals and lines sent by the browser', async () => {
    const product = await testProduct(shop, { priceCents: 5999, stock: 10 });
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 1);
    const response = await shopper.order({
      total: 0.01,
      subtotal: 0.01,
      discount: 100,
      lines: [{ productId: product.id, quantity: 9, price: 0.01 }],
      status: 'paid',
    });
    expect(response.statusCode).toBe(201);
    expect(placed(response).order).toMatchObject({ subtotal: 59.99, total: 71.99, discount: 0, status: 'pending_payment' });
    expect(placed(response).order.lines).toEqual([expect.objectContaining({ quantity: 1, unitPrice: 59.99 })]);
  });

  it('refuses bad shipping details with field messages and keeps the cart', async () => {
    const product = await testProduct(shop);
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 1);
    const response = await shopper.order({ shipping: { ...testShipping, phone: '1234 5678', postcode: '12a4', region: 'Narnia', city: '' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toMatchObject({
      'shipping.phone': 'Must be a valid NZ mobile number format',
      'shipping.postcode': 'Postcode must be 4 digits',
      'shipping.region': 'Choose a region',
      'shipping.city': 'City is required',
    });
    expect((await shopper.cart()).itemCount).toBe(1);
  });

  it('refuses an order whose total is no longer the one the shopper was shown', async () => {
    const product = await testProduct(shop, { priceCents: 5000, stock: 10 });
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 1);
    const stale = await shopper.order({ expectedTotalCents: 5900 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toContain('Please check the new total');
    expect((await shopper.cart()).itemCount).toBe(1);
    expect(await stockOf(shop, product.id)).toBe(10);
    expect((await shopper.order({ expectedTotalCents: 6200 })).statusCode).toBe(201);
  });

  it('refuses an empty cart', async () => {
    const shopper = await quickShopper(shop);
    const response = await shopper.order();
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Your cart is empty');
  });

  it('returns the same order when a submit is retried or double-clicked', async () => {
    const product = await testProduct(shop, { stock: 10 });
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 3);
    const idempotencyKey = newCheckoutKey();
    const [first, second] = await Promise.all([shopper.order({ idempotencyKey }), shopper.order({ idempotencyKey })]);
    const retry = await shopper.order({ idempotencyKey });
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses).toEqual([200, 201]);
    expect(retry.statusCode).toBe(200);
    const numbers = new Set([first, second, retry].map((r) => placed(r).order.number));
    expect(numbers.size).toBe(1);
    expect(await stockOf(shop, product.id)).toBe(7);
    expect((await shopper.call({ method: 'GET', url: '/api/orders' })).json()).toHaveLength(1);
  });

  it('answers 409 naming the product and what is left, and changes nothing', async () => {
    const plenty = await testProduct(shop, { stock: 10 });
    const scarce = await testProduct(shop, { stock: 5, name: 'Scarce Kesar' });
    const promo = await testPromo(shop, { maxUses: 3 });
    const shopper = await quickShopper(shop);
    await shopper.add(plenty.id, 2);
    await shopper.add(scarce.id, 4);
    // Someone else buys 3 of the 5 meanwhile.
    const rival = await quickShopper(shop);
    await rival.add(scarce.id, 3);
    expect((await rival.order()).statusCode).toBe(201);

    const response = await shopper.order({ promoCode: promo.code });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('Sorry, only 2 of Scarce Kesar are available. Please lower the quantity in your cart.');
    expect(await stockOf(shop, plenty.id)).toBe(10);
    expect(await stockOf(shop, scarce.id)).toBe(2);
    expect((await shopper.cart()).itemCount).toBe(6);
    const [row] = await shop.database.db.select().from(promoCodes).where(eq(promoCodes.id, promo.id));
    expect(row!.usedCount).toBe(0);
    expect((await shopper.call({ method: 'GET', url: '/api/orders' })).json()).toEqual([]);
  });

  it('keeps pre-orders off the stock and inside their limit', async () => {
    const preOrder = await testProduct(shop, { stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-01-15', preOrderLimit: 5, name: 'Early Chausa' });
    const first = await quickShopper(shop);
    await first.add(preOrder.id, 4);
    const response = await first.order();
    expect(response.statusCode).toBe(201);
    expect(placed(response).order.lines[0]).toMatchObject({ isPreOrder: true, expectedAvailabilityDate: '2027-01-15' });
    expect(await stockOf(shop, preOrder.id)).toBe(0);

    const second = await quickShopper(shop);
    await second.add(preOrder.id, 2);
    const refused = await second.order();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Only 1 pre-order boxes of Early Chausa are left. Please lower the quantity in your cart.');

    // A cancelled pre-order frees its boxes.
    expect((await first.call({ method: 'POST', url: `/api/orders/${placed(response).order.number}/cancel` })).statusCode).toBe(200);
    expect((await second.order()).statusCode).toBe(201);
  });

  it('answers the new order exactly as it reads back afterwards, lines in cart order, stock and pre-order together', async () => {
    const preOrder = await testProduct(shop, { stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-01-15', preOrderLimit: 50, name: 'Echo Chausa' });
    const inStock = await testProduct(shop, { stock: 10, name: 'Echo Kesar' });
    const shopper = await quickShopper(shop);
    await shopper.add(preOrder.id, 2);
    await shopper.add(inStock.id, 3);
    const response = await shopper.order({ gift: { message: 'Happy Diwali!' } });
    expect(response.statusCode).toBe(201);
    const { order } = placed(response);
    expect(order.lines.map((line) => line.productId)).toEqual([preOrder.id, inStock.id]);
    const readBack = await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` });
    expect(readBack.statusCode).toBe(200);
    expect(readBack.json()).toEqual(order);
  });

  it('refuses a product that was hidden after it went into the cart', async () => {
    const product = await testProduct(shop);
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 1);
    await shop.database.db.execute(sql`update products set is_hidden = true where id = ${product.id}`);
    const response = await shopper.order();
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('is no longer available');
  });

  it('saves the shipping details to the profile when asked', async () => {
    const product = await testProduct(shop);
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 1);
    await shopper.order({ shipping: { ...testShipping, street: '5 Tui Lane', city: 'Hamilton', postcode: '3204', region: 'Waikato', saveToProfile: true } });
    expect((await shopper.call({ method: 'GET', url: '/api/me' })).json()).toMatchObject({ address: '5 Tui Lane', city: 'Hamilton', postalCode: '3204', region: 'Waikato' });
  });

  it('refuses card payment while Stripe is not set up', async () => {
    const product = await testProduct(shop);
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 1);
    const response = await shopper.order({ paymentMethod: 'stripe' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.paymentMethod).toContain('Card payment is not available');
    expect((await shopper.cart()).itemCount).toBe(1);
  });
});

describe('promo codes on orders', () => {
  async function orderWith(values: Parameters<typeof testPromo>[1], lines: Array<[priceCents: number, quantity: number]> = [[5000, 2]]) {
    const promo = await testPromo(shop, values);
    const shopper = await quickShopper(shop);
    for (const [priceCents, quantity] of lines) await shopper.add((await testProduct(shop, { priceCents })).id, quantity);
    return { promo, shopper, response: await shopper.order({ promoCode: promo.code.toLowerCase() }) };
  }

  it('takes a percentage off the subtotal', async () => {
    const { response } = await orderWith({ discountType: 'percentage', discountValue: 15 });
    expect(placed(response).order).toMatchObject({ subtotal: 100, discount: 15, shipping: 12, total: 97, gst: 12.65 });
  });

  it('takes a fixed amount off', async () => {
    const { response } = await orderWith({ discountType: 'fixed', discountValue: 2500 });
    expect(placed(response).order).toMatchObject({ subtotal: 100, discount: 25, total: 87, gst: 11.35 });
  });

  it('never takes off more than the subtotal', async () => {
    const { response } = await orderWith({ discountType: 'fixed', discountValue: 50_000 });
    expect(placed(response).order).toMatchObject({ subtotal: 100, discount: 100, total: 12, gst: 1.57 });
  });

  it('counts the minimum order from the subtotal', async () => {
    const below = await orderWith({ minimumOrderCents: 10_001 });
    expect(below.response.statusCode).toBe(400);
    expect(below.response.json().fieldErrors.promoCode).toBe('Your order is below the minimum for this promo code.');
    const at = await orderWith({ minimumOrderCents: 10_000 });
    expect(at.response.statusCode).toBe(201);
  });

  it('refuses expired, not yet started, inactive and unknown codes, keeping the cart', async () => {
    const day = 24 * 60 * 60 * 1000;
    const expired = await orderWith({ startsAt: new Date(Date.now() - 2 * day), endsAt: new Date(Date.now() - day) });
    expect(expired.response.json().fieldErrors.promoCode).toBe('This promo code has expired.');
    expect((await expired.shopper.cart()).itemCount).toBe(2);
    const early = await orderWith({ startsAt: new Date(Date.now() + day) });
    expect(early.response.json().fieldErrors.promoCode).toBe("This promo code isn't active yet.");
    const inactive = await orderWith({ isActive: false });
    expect(inactive.response.json().fieldErrors.promoCode).toBe('This promo code is no longer available.');

    const shopper = await quickShopper(shop);
    await shopper.add((await testProduct(shop)).id, 1);
    const unknown = await shopper.order({ promoCode: 'NO-SUCH-CODE' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fieldErrors.promoCode).toBe("We don't recognise that promo code.");
  });

  it('stops at the total usage limit', async () => {
    const { promo, response } = await orderWith({ maxUses: 1 });
    expect(response.statusCode).toBe(201);
    const shopper = await quickShopper(shop);
    await shopper.add((await testProduct(shop)).id, 1);
    const refused = await shopper.order({ promoCode: promo.code });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().fieldErrors.promoCode).toBe('This promo code has been fully redeemed.');
  });

  it('stops at the per-customer limit, and a cancelled order gives the use back', async () => {
    const { promo, shopper, response } = await orderWith({ maxUsesPerCustomer: 1 });
    expect(response.statusCode).toBe(201);
    await shopper.add((await testProduct(shop)).id, 1);
    const again = await shopper.order({ promoCode: promo.code });
    expect(again.statusCode).toBe(409);
    expect(again.json().fieldErrors.promoCode).toBe("You've already used this promo code.");

    await shopper.call({ method: 'POST', url: `/api/orders/${placed(response).order.number}/cancel` });
    const [row] = await shop.database.db.select().from(promoCodes).where(eq(promoCodes.id, promo.id));
    expect(row!.usedCount).toBe(0);
    expect((await shopper.order({ promoCode: promo.code })).statusCode).toBe(201);
  });

  it('gives the last permitted use to exactly one of 10 parallel orders', async () => {
    const promo = await testPromo(shop, { maxUses: 3, usedCount: 2 });
    const product = await testProduct(shop, { stock: 100 });
    const shoppers = await Promise.all(Array.from({ length: 10 }, () => quickShopper(shop, 'promo')));
    for (const shopper of shoppers) await shopper.add(product.id, 1);
    const responses = await Promise.all(shoppers.map((shopper) => shopper.order({ promoCode: promo.code })));
    const codes = responses.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, ...Array(9).fill(409)]);
    const discounted = responses.filter((r) => r.statusCode === 201).map((r) => placed(r).order);
    expect(discounted).toHaveLength(1);
    expect(discounted[0]!.discount).toBe(5);
    const [row] = await shop.database.db.select().from(promoCodes).where(eq(promoCodes.id, promo.id));
    expect(row!.usedCount).toBe(3);
    expect(await stockOf(shop, product.id)).toBe(99);
  });
});

describe('the last boxes', () => {
  it('sells 5 boxes to exactly 5 of 30 parallel shoppers, with clean 409s for the rest', async () => {
    const product = await testProduct(shop, { stock: 5, name: 'Last Alphonso' });
    const shoppers = await Promise.all(Array.from({ length: 30 }, () => quickShopper(shop, 'rush')));
    for (const shopper of shoppers) await shopper.add(product.id, 1);
    const responses = await Promise.all(shoppers.map((shopper) => shopper.order()));
    const codes = responses.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c === 409)).toHaveLength(25);
    for (const refused of responses.filter((r) => r.statusCode === 409)) {
      expect(refused.json().message).toMatch(/^Sorry, Last Alphonso has just sold out \(0 available\)|^Sorry, only \d of Last Alphonso/);
    }
    expect(await stockOf(shop, product.id)).toBe(0);
    const [moved] = await shop.database.db
      .select({ total: sql<number>`sum(${stockMovements.change})::int` })
      .from(stockMovements)
      .where(eq(stockMovements.productId, product.id));
    expect(moved!.total).toBe(-5);
  });
});

describe('cart edits while an order is placed', () => {
  it('never deadlocks: each order holds what the cart held when it was placed, and the cart ends empty', async () => {
    const first = await testProduct(shop, { stock: 50 });
    const second = await testProduct(shop, { stock: 50 });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const shopper = await quickShopper(shop, 'racer');
      await shopper.add(first.id, 1);
      await shopper.add(second.id, 1);
      const lineId = (await shopper.cart()).items.find((i) => i.productId === second.id)!.id;
      const [order, removed] = await Promise.all([
        shopper.order(),
        shopper.call({ method: 'DELETE', url: `/api/cart/${shopper.user.id}/items/${lineId}` }),
      ]);
      expect(order.statusCode).toBe(201);
      expect([200, 404]).toContain(removed.statusCode);
      expect(placed(order).order.lines.length).toBe(removed.statusCode === 200 ? 1 : 2);
      expect((await shopper.cart()).itemCount).toBe(0);
    }
  });
});

describe('reading orders', () => {
  it('lists only the shopper’s own orders, newest first, and hides other shoppers’ orders', async () => {
    const product = await testProduct(shop, { stock: 10 });
    const owner = await quickShopper(shop);
    await owner.add(product.id, 1);
    const first = placed(await owner.order()).order;
    await owner.add(product.id, 2);
    const second = placed(await owner.order()).order;

    const list = (await owner.call({ method: 'GET', url: '/api/orders' })).json();
    expect(list.map((o: { number: string }) => o.number)).toEqual([second.number, first.number]);
    expect(list[0]).toMatchObject({ status: 'pending_payment', total: second.total, itemCount: 2 });
    expect((await owner.call({ method: 'GET', url: `/api/orders/${first.number.toLowerCase()}` })).json()).toMatchObject({ number: first.number });

    const stranger = await quickShopper(shop);
    for (const url of [`/api/orders/${first.number}`]) {
      const response = await stranger.call({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Order not found' });
    }
    expect((await stranger.call({ method: 'POST', url: `/api/orders/${first.number}/cancel` })).statusCode).toBe(404);
    expect((await stranger.call({ method: 'GET', url: '/api/orders' })).json()).toEqual([]);
    expect((await shop.app.inject({ method: 'GET', url: `/api/orders/${first.number}` })).statusCode).toBe(401);
    expect((await owner.call({ method: 'GET', url: '/api/orders/MS-99999999' })).statusCode).toBe(404);
    expect((await owner.call({ method: 'GET', url: '/api/orders/1%20or%201=1' })).statusCode).toBe(400);
  });
});

describe('cancelling', () => {
  it('lets the shopper cancel an unpaid order: stock returns, the timeline and an e-mail say so', async () => {
    const product = await testProduct(shop, { stock: 6 });
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 4);
    const order = placed(await shopper.order()).order;
    expect(await stockOf(shop, product.id)).toBe(2);

    const response = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/cancel` });
    expect(response.statusCode).toBe(200);
    const cancelled = response.json() as OrderView;
    expect(cancelled).toMatchObject({ status: 'cancelled', canCancel: false, bankTransfer: null });
    expect(cancelled.events.map((e) => e.status)).toEqual(['pending_payment', 'cancelled']);
    expect(await stockOf(shop, product.id)).toBe(6);
    const movements = await shop.database.db.select().from(stockMovements).where(eq(stockMovements.productId, product.id));
    expect(movements.map((m) => [m.change, m.reason])).toEqual([
      [-4, 'order'],
      [4, 'cancellation'],
    ]);
    expect((await shop.mail()).some((m) => m.subject === `Order ${order.number} has been cancelled`)).toBe(true);

    const again = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/cancel` });
    expect(again.statusCode).toBe(409);
    expect(await stockOf(shop, product.id)).toBe(6);
  });

  it('cancels unpaid orders after the timeout, once, even when two sweeps run together', async () => {
    const product = await testProduct(shop, { stock: 8 });
    const late = await quickShopper(shop);
    await late.add(product.id, 3);
    const order = placed(await late.order()).order;
    const service = shop.app.services.orders;

    // Not before its pay-by (its packing day's cut-off, at most the 3-day timeout).
    await service.cancelOverdue(new Date(Date.parse(order.bankTransfer!.payBy) - 60_000));
    expect((await late.call({ method: 'GET', url: `/api/orders/${order.number}` })).json<OrderView>().status).toBe('pending_payment');
    const fourDaysOn = new Date(Date.now() + 4 * 24 * 60 * 60 * 1000);
    await Promise.all([service.cancelOverdue(fourDaysOn), service.cancelOverdue(fourDaysOn)]);
    expect(await stockOf(shop, product.id)).toBe(8);
    const view = (await late.call({ method: 'GET', url: `/api/orders/${order.number}` })).json() as OrderView;
    expect(view.status).toBe('cancelled');
    expect(view.events.at(-1)).toMatchObject({ status: 'cancelled', note: 'Not paid within 3 days' });
    const events = await shop.database.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.status, 'cancelled'), sql`${orderEvents.orderId} = (select id from orders where number = ${order.number})`));
    expect(events).toHaveLength(1);
  });
});

describe('the order lifecycle', () => {
  it('moves paid, packed, shipped with a tracking number and delivered, each step on the timeline, e-mailing paid and shipped', async () => {
    const product = await testProduct(shop, { stock: 5 });
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 1);
    const { number } = placed(await shopper.order()).order;
    const [row] = await shop.database.db.select().from(orders).where(eq(orders.number, number));
    const service = shop.app.services.orders;

    await expect(service.changeStatus(row!.id, 'shipped', { actorUserId: null })).rejects.toThrow('An order that is awaiting payment cannot be marked shipped.');
    await service.changeStatus(row!.id, 'paid', { actorUserId: null, note: 'Bank transfer received' });
    await service.changeStatus(row!.id, 'packed', { actorUserId: null });
    await service.changeStatus(row!.id, 'shipped', { actorUserId: null, trackingNumber: 'NZP123456789' });
    await service.changeStatus(row!.id, 'delivered', { actorUserId: null });

    const view = (await shopper.call({ method: 'GET', url: `/api/orders/${number}` })).json() as OrderView;
    expect(view).toMatchObject({ status: 'delivered', trackingNumber: 'NZP123456789', canCancel: false, bankTransfer: null });
    expect(view.events.map((e) => e.status)).toEqual(['pending_payment', 'paid', 'packed', 'shipped', 'delivered']);
    expect(view.events[1]!.note).toBe('Bank transfer received');
    const subjects = (await shop.mail()).filter((m) => m.subject.includes(number)).map((m) => m.subject);
    expect(subjects).toEqual([
      expect.stringContaining(`Your order ${number}`),
      `Payment received for order ${number}`,
      `Order ${number} is on its way`,
    ]);
    expect((await shop.mail()).find((m) => m.subject === `Order ${number} is on its way`)?.text).toContain('Tracking number: NZP123456789');
    // Delivered boxes stay sold: a refund records money back, not stock.
    await service.changeStatus(row!.id, 'refunded', { actorUserId: null });
    expect(await stockOf(shop, product.id)).toBe(4);
  });
});
