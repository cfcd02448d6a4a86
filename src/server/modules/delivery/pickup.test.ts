import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderDetail } from '../../../contracts/admin-orders';
import { defaultDeliverySettings, type DeliverySettings } from '../../../contracts/delivery';
import type { DispatchDay } from '../../../contracts/dispatch';
import type { PlacedOrder } from '../../../contracts/order';
import { defaultPickupSettings, type PickupDates, pickupCodeAlphabet } from '../../../contracts/pickup';
import { orders, pickupDays } from '../../db/schema';
import { bruised, claimForm } from '../../testing/claim-helpers';
import { quickShopper, stockOf, testProduct } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

/** Wednesday 3 March 2027, 9 am in Auckland: before the cut-off, so today is a packing day. */
const now = new Date('2027-03-02T20:00:00Z');
let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop({ clock: () => now })));
afterAll(async () => shop?.close());

const saveDelivery = async (settings: DeliverySettings) => {
  const response = await staff({ method: 'PUT', url: '/api/admin/delivery', payload: settings });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DeliverySettings>();
};
const pickupDates = async () => (await shop.app.inject({ method: 'GET', url: '/api/pickup/dates' })).json<PickupDates>();
const current = async () => (await staff({ method: 'GET', url: '/api/admin/delivery' })).json<DeliverySettings>();
const step = async (number: string, status: string, extra: Record<string, unknown> = {}) => staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status, ...extra } });

describe('click-and-collect', () => {
  it('is off until staff turn it on; then shoppers see the pickup days with their hours, the holidays and closed dates marked', async () => {
    expect(await pickupDates()).toEqual({ enabled: false, address: defaultPickupSettings.address, dates: [] });
    const product = await testProduct(shop, { stock: 5 });
    const shopper = await quickShopper(shop, 'early');
    await shopper.add(product.id, 1);
    const refused = await shopper.order({ fulfilment: 'pickup', pickupDate: '2027-03-04', shipping: undefined });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ fieldErrors: { fulfilment: 'Pickup is not offered at the moment. Please choose delivery.' } });

    const saved = await saveDelivery({
      ...(await current()),
      pickup: { ...defaultPickupSettings, enabled: true, ordersPerDay: 3, closedDates: [{ date: '2027-03-05', reason: 'Stocktake' }] },
      closedDates: [{ date: '2027-03-10', reason: 'Shop closed for the day' }],
    });
    expect(saved.pickup.enabled).toBe(true);
    const offered = await pickupDates();
    expect(offered.enabled).toBe(true);
    expect(offered.address).toBe('24 Karaka Street, Mount Eden, Auckland 1024');
    // Tuesday to Saturday, 10 to 4: no Sunday or Monday, Friday's stocktake and the shop's closed Wednesday marked.
    expect(offered.dates.slice(0, 7).map((day) => [day.date, day.state.available ? 'ok' : day.state.reason, `${day.hours.open}-${day.hours.close}`])).toEqual([
      ['2027-03-03', 'ok', '10:00-16:00'],
      ['2027-03-04', 'ok', '10:00-16:00'],
      ['2027-03-05', 'Closed: Stocktake', '10:00-16:00'],
      ['2027-03-06', 'ok', '10:00-16:00'],
      ['2027-03-09', 'ok', '10:00-16:00'],
      ['2027-03-10', 'Closed: Shop closed for the day', '10:00-16:00'],
      ['2027-03-11', 'ok', '10:00-16:00'],
    ]);
    // Settings sent without a pickup section (a page from before it) save, and leave pickup as it was.
    const { pickup: _pickup, ...older } = { ...defaultDeliverySettings, closedDates: saved.closedDates };
    expect((await saveDelivery(older as DeliverySettings)).pickup).toEqual(saved.pickup);
    expect((await current()).pickup).toEqual(saved.pickup);
  });

  it('books a pickup day with no address, delivery fee or rural surcharge, and the shopper gets a pickup code', async () => {
    const product = await testProduct(shop, { name: 'Pickup Kesar', priceCents: 4500, stock: 10 });
    const shopper = await quickShopper(shop, 'collector');
    await shopper.add(product.id, 2);
    const quote = await shopper.call({ method: 'POST', url: '/api/checkout/quote', payload: { fulfilment: 'pickup' } });
    expect(quote.json()).toMatchObject({ subtotal: 90, shipping: 0, total: 90 });
    const placed = await shopper.call({ method: 'POST', url: '/api/orders', payload: { fulfilment: 'pickup', pickupDate: '2027-03-04', idempotencyKey: 'pickup-collector-000001', expectedTotalCents: 9000 } });
    expect(placed.statusCode, placed.body).toBe(201);
    const { order } = placed.json<PlacedOrder>();
    expect(order).toMatchObject({ fulfilment: 'pickup', deliveryDate: '2027-03-04', dispatchDate: null, total: 90, shipping: 0, ruralSurcharge: 0, gift: null });
    expect(order.pickup).toMatchObject({ address: '24 Karaka Street, Mount Eden, Auckland 1024', hours: '10:00–16:00' });
    expect(order.pickup!.code).toMatch(new RegExp(`^[${pickupCodeAlphabet}]{6}$`));
    expect(order.shippingAddress).toMatchObject({ name: 'Aroha Ngata', phone: '021 123 4567', street: '' });
    const mail = (await shop.mail()).filter((one) => one.to === shopper.user.email).at(-1)!;
    expect(mail.text).toContain('Pickup: Thu, 4 March 2027, 10:00–16:00, at 24 Karaka Street, Mount Eden, Auckland 1024');
    expect(mail.text).toContain(order.pickup!.code);
    expect(mail.text).not.toContain('Delivering to');

    // Staff: packed, then ready for pickup with no carrier or tracking (the shopper is e-mailed the code), then collected.
    expect((await step(order.number, 'paid')).statusCode).toBe(200);
    expect((await step(order.number, 'packed')).statusCode).toBe(200);
    const ready = await step(order.number, 'shipped');
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json<AdminOrderDetail>()).toMatchObject({ status: 'shipped', carrier: null, trackingNumber: null });
    const readyMail = (await shop.mail()).filter((one) => one.to === shopper.user.email).at(-1)!;
    expect(readyMail.subject).toBe(`Order ${order.number} is ready for pickup`);
    expect(readyMail.text).toContain(order.pickup!.code);
    expect((await step(order.number, 'delivered')).statusCode).toBe(200);
    const day = (await staff({ method: 'GET', url: '/api/admin/dispatch?date=2027-03-04' })).json<DispatchDay>();
    expect(day.pickup).toMatchObject({ capacity: 3, booked: 1, closed: null, hours: { open: '10:00', close: '16:00' } });
    expect(day.pickup.orders).toEqual([expect.objectContaining({ number: order.number, pickupCode: order.pickup!.code, status: 'delivered' })]);
    expect(day.regions).toEqual([]);

    // A courier order still needs its carrier and tracking number to be marked shipped.
    const courier = await quickShopper(shop, 'courier');
    await courier.add(product.id, 1);
    const sent = (await courier.order()).json<PlacedOrder>().order;
    await step(sent.number, 'paid');
    await step(sent.number, 'packed');
    const untracked = await step(sent.number, 'shipped');
    expect(untracked.statusCode).toBe(400);
    expect(untracked.json()).toMatchObject({ fieldErrors: { trackingNumber: 'A tracking number is required to mark an order shipped', carrier: 'Choose the carrier' } });
  });

  it('gives a day only as many pickups as it holds when shoppers race for it, and a cancel frees a place', async () => {
    const date = '2027-03-06';
    const product = await testProduct(shop, { name: 'Race Alphonso', stock: 20 });
    const shoppers = await Promise.all(Array.from({ length: 8 }, () => quickShopper(shop, 'racer')));
    for (const shopper of shoppers) await shopper.add(product.id, 1);
    const answers = await Promise.all(shoppers.map((shopper, index) => shopper.call({ method: 'POST', url: '/api/orders', payload: { fulfilment: 'pickup', pickupDate: date, idempotencyKey: `pickup-race-${String(index).padStart(10, '0')}` } })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    for (const answer of answers.filter((one) => one.statusCode === 409)) {
      // The soonest day with room, as a full delivery day offers.
      expect(answer.json()).toMatchObject({ fieldErrors: { pickupDate: 'Sat, 6 March 2027 is now fully booked for pickup. The next free pickup day is Wed, 3 March 2027.' }, nextPickupDate: '2027-03-03' });
    }
    const [row] = await shop.database.db.select().from(pickupDays).where(eq(pickupDays.date, date));
    expect(row!.bookedOrders).toBe(3);
    expect(await stockOf(shop, product.id)).toBe(17);
    const losers = shoppers.filter((_, index) => answers[index]!.statusCode === 409);
    for (const loser of losers) expect((await loser.cart()).itemCount).toBe(1);
    expect((await pickupDates()).dates.find((day) => day.date === date)?.state).toEqual({ available: false, reason: 'Fully booked' });

    const winner = shoppers[answers.findIndex((answer) => answer.statusCode === 201)]!;
    const [placed] = await shop.database.db.select().from(orders).where(eq(orders.userId, winner.user.id));
    const cancelled = await winner.call({ method: 'POST', url: `/api/orders/${placed!.number}/cancel` });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const [after] = await shop.database.db.select().from(pickupDays).where(eq(pickupDays.date, date));
    expect(after!.bookedOrders).toBe(2);
    const retry = await losers[0]!.call({ method: 'POST', url: '/api/orders', payload: { fulfilment: 'pickup', pickupDate: date, idempotencyKey: 'pickup-race-retry-000001' } });
    expect(retry.statusCode, retry.body).toBe(201);
  });

  it('refuses what it cannot do with a field error, and changes nothing', async () => {
    const product = await testProduct(shop, { name: 'Refused Mango', stock: 5 });
    const preOrder = await testProduct(shop, { name: 'Next Season', stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-12-01' });
    const shopper = await quickShopper(shop, 'refused');
    await shopper.add(product.id, 1);
    const send = (payload: Record<string, unknown>) => shopper.call({ method: 'POST', url: '/api/orders', payload: { idempotencyKey: 'pickup-refused-000001', ...payload } });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ fulfilment: 'drone', pickupDate: '2027-03-04' }, 'fulfilment', 'Choose delivery or pickup'],
      [{ fulfilment: 'pickup' }, 'pickupDate', 'Choose a pickup day'],
      [{ fulfilment: 'pickup', pickupDate: '2027-02-30' }, 'pickupDate', 'Choose a pickup day'],
      [{ fulfilment: 'pickup', pickupDate: '2027-03-08' }, 'pickupDate', 'There is no pickup on Mon, 8 March 2027. Please choose one of the days offered.'],
      [{ fulfilment: 'pickup', pickupDate: '2027-03-02' }, 'pickupDate', 'Tue, 2 March 2027 is too soon for pickup now. Please choose a later day.'],
      [{ fulfilment: 'pickup', pickupDate: '2027-03-05' }, 'pickupDate', 'Fri, 5 March 2027 is not available for pickup (Closed: Stocktake). Please choose another day.'],
      [{ fulfilment: 'pickup', pickupDate: '2027-03-26' }, 'pickupDate', 'Fri, 26 March 2027 is not available for pickup (Good Friday). Please choose another day.'],
      [{ fulfilment: 'pickup', pickupDate: '2027-03-04', gift: { message: 'Enjoy' } }, 'gift', 'A gift goes to its recipient by courier: choose delivery to send it'],
      [{ fulfilment: 'delivery' }, 'shipping', 'Delivery details are required'],
    ];
    for (const [payload, field, message] of cases) {
      const answer = await send(payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
      expect(answer.json(), JSON.stringify(payload)).toMatchObject({ fieldErrors: { [field]: message } });
    }
    await shopper.add(preOrder.id, 1);
    const withPreOrder = await send({ fulfilment: 'pickup', pickupDate: '2027-03-04' });
    expect(withPreOrder.statusCode).toBe(400);
    expect(withPreOrder.json()).toMatchObject({ fieldErrors: { fulfilment: 'Pre-orders are delivered when their boxes arrive: choose delivery for this order.' } });
    expect((await shopper.cart()).itemCount).toBe(2);
    expect(await stockOf(shop, product.id)).toBe(5);
    expect(await shop.database.db.select().from(orders).where(eq(orders.userId, shopper.user.id))).toHaveLength(0);
    const [booked] = await shop.database.db.select().from(pickupDays).where(eq(pickupDays.date, '2027-03-04'));
    expect(booked?.bookedOrders).toBe(1);
  });

  it("replaces a collected order's claimed boxes as another pickup, on the soonest free pickup day", async () => {
    const product = await testProduct(shop, { name: 'Claimed Pickup', stock: 10 });
    const shopper = await quickShopper(shop, 'claimer');
    await shopper.add(product.id, 2);
    const placed = await shopper.call({ method: 'POST', url: '/api/orders', payload: { fulfilment: 'pickup', pickupDate: '2027-03-09', idempotencyKey: 'pickup-claimer-0000001' } });
    expect(placed.statusCode, placed.body).toBe(201);
    const { order } = placed.json<PlacedOrder>();
    for (const status of ['paid', 'packed', 'shipped', 'delivered']) expect((await step(order.number, status)).statusCode).toBe(200);
    const lines = (await shopper.call({ method: 'GET', url: `/api/orders/${order.number}/claims` })).json<{ lines: Array<{ lineId: number }> }>().lines;
    const photo = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#e8a33d' } }).jpeg().toBuffer();
    const sent = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/claims`, ...claimForm(bruised(lines[0]!.lineId, 1, 'replacement'), [photo]) });
    expect(sent.statusCode, sent.body).toBe(201);
    const bookedBefore = new Map((await shop.database.db.select().from(pickupDays)).map((row) => [row.date, row.bookedOrders]));
    const approved = await staff({ method: 'POST', url: `/api/admin/claims/${sent.json<{ id: number }>().id}/approve`, payload: { resolution: 'replacement' } });
    expect(approved.statusCode, approved.body).toBe(200);
    const [replacement] = await shop.database.db.select().from(orders).where(eq(orders.idempotencyKey, `claim-${sent.json<{ id: number }>().id}`));
    expect(replacement).toMatchObject({ fulfilment: 'pickup', paymentMethod: 'no_charge', pickupBooked: true, pickupAddress: order.pickup!.address, dispatchDate: null, deliveryDate: '2027-03-03' });
    expect(replacement!.pickupCode).toMatch(/^[A-Z2-9]{6}$/);
    const [day] = await shop.database.db.select().from(pickupDays).where(eq(pickupDays.date, '2027-03-03'));
    expect(day!.bookedOrders).toBe((bookedBefore.get('2027-03-03') ?? 0) + 1);
  });
});
