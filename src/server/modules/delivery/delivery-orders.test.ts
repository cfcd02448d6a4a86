import { and, eq, ne } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultDeliverySettings, type DeliveryDayOption, type DeliverySettings } from '../../../contracts/delivery';
import { gstPartOfCents } from '../../../contracts/money';
import type { PlacedOrder } from '../../../contracts/order';
import type { DispatchDay } from '../../../contracts/dispatch';
import { dispatchDays, orders } from '../../db/schema';
import { bruised, claimForm, deliveredOrder } from '../../testing/claim-helpers';
import { quickShopper, stockOf, testProduct, testPromo, testShipping } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

/** The shop's clock: each test sets the New Zealand moment it is about. */
let now = new Date('2027-03-01T22:00:00Z');
let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop({ clock: () => now, deliveryCapacity: null })));
afterAll(async () => shop?.close());

const save = async (settings: DeliverySettings) => {
  const response = await staff({ method: 'PUT', url: '/api/admin/delivery', payload: settings });
  expect(response.statusCode, response.body).toBe(200);
};
beforeEach(async () => {
  await save(defaultDeliverySettings);
  await shop.database.db.delete(dispatchDays);
});

/** The dates offered over HTTP for one box, as [date, 'ok' or the reason]. */
async function offered(region: string, at: string, boxes = 1): Promise<Array<[string, string]>> {
  now = new Date(at);
  const response = await shop.app.inject({ method: 'GET', url: `/api/delivery/dates?region=${encodeURIComponent(region)}&boxes=${boxes}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ dates: DeliveryDayOption[] }>().dates.map((one) => [one.date, one.state.available ? 'ok' : one.state.reason]);
}

describe('the dates checkout offers, through HTTP', () => {
  it('pack today before the cut-off and tomorrow from it (Tuesday 2 March 2027, NZDT)', async () => {
    expect((await offered('Auckland', '2027-03-01T22:59:00Z'))[0]).toEqual(['2027-03-03', 'ok']);
    expect((await offered('Auckland', '2027-03-01T23:00:00Z'))[0]).toEqual(['2027-03-04', 'ok']);
  });

  it('never leave fruit on the road over a weekend', async () => {
    // Friday 5 March 2027, 10:00: Tuesday is the first North Island day, Wednesday the South's.
    expect((await offered('Auckland', '2027-03-04T21:00:00Z')).slice(0, 2)).toEqual([
      ['2027-03-09', 'ok'],
      ['2027-03-10', 'ok'],
    ]);
    expect((await offered('Canterbury', '2027-03-04T21:00:00Z'))[0]).toEqual(['2027-03-10', 'ok']);
  });

  it('grey out Waitangi Day, Easter and Matariki with the reason', async () => {
    expect((await offered('Wellington', '2027-02-04T20:00:00Z')).slice(0, 2)).toEqual([
      ['2027-02-09', 'No dispatch on Waitangi Day (substitute day)'],
      ['2027-02-10', 'ok'],
    ]);
    expect((await offered('Auckland', '2027-03-24T20:00:00Z')).slice(0, 3)).toEqual([
      ['2027-03-26', 'Good Friday'],
      ['2027-03-30', 'No dispatch on Easter Monday'],
      ['2027-03-31', 'ok'],
    ]);
    expect((await offered('Auckland', '2027-06-23T21:00:00Z'))[0]).toEqual(['2027-06-25', 'Matariki']);
  });

  it("grey out a region's own anniversary day only there", async () => {
    expect((await offered('Canterbury', '2027-11-07T20:00:00Z')).find(([date]) => date === '2027-11-12')).toEqual(['2027-11-12', 'Christchurch Show Day']);
    expect((await offered('Auckland', '2027-11-07T20:00:00Z')).find(([date]) => date === '2027-11-12')).toEqual(['2027-11-12', 'ok']);
  });

  it('follow daylight saving in the week it starts and ends', async () => {
    // Monday 27 September 2027, 12:30 NZDT (saving began the day before): past the cut-off.
    expect((await offered('Auckland', '2027-09-26T23:30:00Z'))[0]).toEqual(['2027-09-29', 'ok']);
    // Monday 5 April 2027, 11:30 NZST (saving ended the day before): before it.
    expect((await offered('Auckland', '2027-04-04T23:30:00Z'))[0]).toEqual(['2027-04-06', 'ok']);
  });

  it('offer at least five available dates', async () => {
    for (const region of ['Northland', 'Auckland', 'Otago', 'Southland']) {
      expect((await offered(region, '2027-12-20T20:00:00Z')).filter(([, state]) => state === 'ok').length).toBeGreaterThanOrEqual(5);
    }
  });
});

const placed = (response: { json(): unknown }) => response.json() as PlacedOrder;

describe('placing an order for a delivery date', () => {
  it('records the date, its dispatch day and the boxes, and refuses a date that cannot be had', async () => {
    now = new Date('2027-03-01T22:00:00Z');
    const product = await testProduct(shop, { stock: 20 });
    const shopper = await quickShopper(shop, 'dated');
    await shopper.add(product.id, 2);
    const missing = await shopper.order({ deliveryDate: undefined });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors).toEqual({ deliveryDate: 'Choose a delivery date' });
    const sunday = await shopper.order({ deliveryDate: '2027-03-07' });
    expect(sunday.statusCode).toBe(400);
    expect(sunday.json().fieldErrors.deliveryDate).toBe('We do not deliver to Auckland on Sun, 7 March 2027. Please choose one of the dates offered.');
    const past = await shopper.order({ deliveryDate: '2027-03-02' });
    expect(past.json().fieldErrors.deliveryDate).toBe('Tue, 2 March 2027 is too soon for delivery to Auckland now. Please choose a later date.');
    const goodFriday = await shopper.order({ deliveryDate: '2027-03-26' });
    expect(goodFriday.json().fieldErrors.deliveryDate).toBe('Fri, 26 March 2027 is not available (Good Friday). Please choose another date.');
    await save({ ...defaultDeliverySettings, closedDates: [{ date: '2027-03-04', reason: 'Shipment delayed' }] });
    const closed = await shopper.order({ deliveryDate: '2027-03-04' });
    expect(closed.json().fieldErrors.deliveryDate).toBe('Thu, 4 March 2027 is not available (Closed: Shipment delayed). Please choose another date.');
    expect(await stockOf(shop, product.id)).toBe(20);
    expect(await shop.database.db.select().from(dispatchDays)).toEqual([]);

    const response = await shopper.order({ deliveryDate: '2027-03-03' });
    expect(response.statusCode, response.body).toBe(201);
    const order = placed(response).order;
    expect(order).toMatchObject({ deliveryDate: '2027-03-03', dispatchDate: '2027-03-02', rural: false, ruralSurcharge: 0 });
    expect(await shop.database.db.select().from(dispatchDays)).toEqual([{ date: '2027-03-02', bookedBoxes: 2 }]);
    const [mail] = (await shop.mail()).filter((one) => one.subject.startsWith(`Your order ${order.number}`));
    expect(mail!.text).toContain('Delivery: Wed, 3 March 2027');

    // Cancelling gives the day its room back, once.
    expect((await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/cancel` })).statusCode).toBe(200);
    expect((await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/cancel` })).statusCode).toBe(409);
    expect(await shop.database.db.select().from(dispatchDays)).toEqual([{ date: '2027-03-02', bookedBoxes: 0 }]);
  });

  it('takes no date for a pre-order: it gets one when its boxes arrive', async () => {
    now = new Date('2027-03-01T22:00:00Z');
    const product = await testProduct(shop, { stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-03-20' });
    const shopper = await quickShopper(shop, 'early');
    await shopper.add(product.id, 1);
    const response = await shopper.order({ deliveryDate: undefined });
    expect(response.statusCode, response.body).toBe(201);
    expect(placed(response).order).toMatchObject({ deliveryDate: null, dispatchDate: null });
  });

  it('of 30 parallel orders for a day with room for 5, takes exactly 5 and tells the rest the next free day', async () => {
    now = new Date('2027-03-01T22:00:00Z');
    // Wednesday 3 March's boxes are packed on Tuesday the 2nd: 5 boxes that day.
    await save({ ...defaultDeliverySettings, capacityOverrides: [{ date: '2027-03-02', boxes: 5 }] });
    const product = await testProduct(shop, { stock: 100 });
    const shoppers = await Promise.all(Array.from({ length: 30 }, (_, i) => quickShopper(shop, `racer${i}-`)));
    for (const shopper of shoppers) await shopper.add(product.id, 1);
    const answers = await Promise.all(shoppers.map((shopper) => shopper.order({ deliveryDate: '2027-03-03' })));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 409)).toHaveLength(25);
    for (const refused of answers.filter((answer) => answer.statusCode === 409)) {
      expect(refused.json()).toEqual({
        message: 'Wed, 3 March 2027 is now fully booked. The next free delivery day for Auckland is Thu, 4 March 2027.',
        fieldErrors: { deliveryDate: 'Wed, 3 March 2027 is now fully booked. The next free delivery day for Auckland is Thu, 4 March 2027.' },
        nextDeliveryDate: '2027-03-04',
      });
    }
    expect(await shop.database.db.select().from(dispatchDays).where(eq(dispatchDays.date, '2027-03-02'))).toEqual([{ date: '2027-03-02', bookedBoxes: 5 }]);
    const held = await shop.database.db.select().from(orders).where(and(eq(orders.deliveryDate, '2027-03-03'), ne(orders.status, 'cancelled')));
    expect(held.map((order) => order.deliveryBoxes)).toEqual([1, 1, 1, 1, 1]);
    // The refused orders took no stock and left their carts as they were.
    expect(await stockOf(shop, product.id)).toBe(95);
    const refusedShopper = shoppers[answers.findIndex((answer) => answer.statusCode === 409)]!;
    expect((await refusedShopper.cart()).itemCount).toBe(1);
    expect((await offered('Auckland', '2027-03-01T22:00:00Z'))[0]).toEqual(['2027-03-03', 'Fully booked']);
  });
});

describe('rural delivery', () => {
  it('adds the surcharge for an RD address or a ticked box, with the GST part of the total right under a promo', async () => {
    now = new Date('2027-03-01T22:00:00Z');
    const product = await testProduct(shop, { priceCents: 6499, stock: 20 });
    const promo = await testPromo(shop, { discountType: 'percentage', discountValue: 10 });
    const shopper = await quickShopper(shop, 'farm');
    await shopper.add(product.id, 2);
    const quote = await shopper.call({ method: 'POST', url: '/api/checkout/quote', payload: { promoCode: promo.code, rural: true } });
    // 2 x $64.99 = $129.98; 10% off = $13.00; shipping $12.00 + rural $5.00: $133.98.
    const total = 12998 - 1300 + 1200 + 500;
    expect(quote.json()).toMatchObject({ subtotal: 129.98, shipping: 12, ruralSurcharge: 5, discount: 13, total: total / 100, gst: gstPartOfCents(total) / 100 });
    expect(gstPartOfCents(total)).toBe(1748);

    const rdAddress = { ...testShipping, street: '1020 Kaipara Coast Highway, RD 4', city: 'Warkworth' };
    const response = await shopper.order({ shipping: rdAddress, promoCode: promo.code, expectedTotalCents: total });
    expect(response.statusCode, response.body).toBe(201);
    expect(placed(response).order).toMatchObject({ rural: true, shipping: 12, ruralSurcharge: 5, discount: 13, total: 133.98, gst: 17.48 });
    const [row] = await shop.database.db.select().from(orders).where(eq(orders.number, placed(response).order.number));
    expect(row).toMatchObject({ shippingCents: 1700, ruralSurchargeCents: 500, totalCents: total, gstCents: 1748, rural: true });

    // Reports count the surcharge once the order is a sale (the test shop's other sales are town orders or unpaid).
    const reportBefore = (await staff({ method: 'GET', url: '/api/admin/reports' })).json().delivery;
    expect((await staff({ method: 'POST', url: `/api/admin/orders/${placed(response).order.number}/status`, payload: { status: 'paid' } })).statusCode).toBe(200);
    const reportAfter = (await staff({ method: 'GET', url: '/api/admin/reports' })).json().delivery;
    expect(reportAfter.ruralOrders - reportBefore.ruralOrders).toBe(1);
    expect(Math.round((reportAfter.ruralSurcharge - reportBefore.ruralSurcharge) * 100)).toBe(500);
    expect(Math.round((reportAfter.shipping - reportBefore.shipping) * 100)).toBe(1700);

    await shopper.add(product.id, 1);
    const ticked = await shopper.order({ shipping: { ...testShipping, rural: true } });
    expect(placed(ticked).order).toMatchObject({ rural: true, ruralSurcharge: 5, total: 64.99 + 17 });
    await shopper.add(product.id, 1);
    const town = await shopper.order({});
    expect(placed(town).order).toMatchObject({ rural: false, ruralSurcharge: 0, total: 64.99 + 12 });
  });

  it('refuses an order whose quote left the surcharge out, rather than charging a different total', async () => {
    now = new Date('2027-03-01T22:00:00Z');
    const product = await testProduct(shop, { priceCents: 5000, stock: 5 });
    const shopper = await quickShopper(shop, 'unquoted');
    await shopper.add(product.id, 1);
    const response = await shopper.order({ shipping: { ...testShipping, street: '5 Station Road, RD 2' }, expectedTotalCents: 6200 });
    expect(response.statusCode).toBe(409);
    expect(await stockOf(shop, product.id)).toBe(5);
  });
});

describe('the dispatch list', () => {
  it("lists a day's orders by region, gives the courier a CSV of the paid ones, and moves an order within capacity with an e-mail", async () => {
    now = new Date('2027-03-01T22:00:00Z');
    const product = await testProduct(shop, { name: 'Dispatch Kesar', stock: 50 });
    const place = async (name: string, shipping: typeof testShipping, deliveryDate: string, boxes = 1) => {
      const shopper = await quickShopper(shop, name);
      await shopper.add(product.id, boxes);
      const response = await shopper.order({ shipping, deliveryDate });
      expect(response.statusCode, response.body).toBe(201);
      return { shopper, number: placed(response).order.number };
    };
    // Both leave on Wednesday 3 March: Auckland's for Thursday, Otago's (two days away) for Friday.
    const auckland = await place('akl', testShipping, '2027-03-04', 2);
    const otago = await place('otg', { ...testShipping, city: 'Dunedin', postcode: '9016', region: 'Otago', street: '9 Rimu Road, RD 1' }, '2027-03-05');
    const unpaid = await place('later', testShipping, '2027-03-04');
    for (const number of [auckland.number, otago.number]) {
      expect((await staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status: 'paid' } })).statusCode).toBe(200);
    }

    const day = (await staff({ method: 'GET', url: '/api/admin/dispatch?date=2027-03-03' })).json();
    expect(day).toMatchObject({ date: '2027-03-03', capacity: 40, booked: 4, closed: null });
    expect(day.regions.map((group: { region: string; orders: Array<{ number: string }> }) => [group.region, group.orders.map((order) => order.number)])).toEqual([
      ['Auckland', [auckland.number, unpaid.number]],
      ['Otago', [otago.number]],
    ]);
    expect(day.regions[0].orders[1]).toMatchObject({ readyToPack: false, status: 'pending_payment' });

    const csv = await staff({ method: 'GET', url: '/api/admin/dispatch.csv?date=2027-03-03' });
    expect(csv.headers['content-type']).toContain('text/csv');
    const rows = csv.body.trim().split('\r\n');
    expect(rows[0]).toBe('Reference,Receiver name,Phone,Email,Street,Suburb,City,Postcode,Region,Rural delivery,Boxes,Delivery date,Contents,Instructions');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain(`${auckland.number},Aroha Ngata,021 123 4567,`);
    expect(rows[2]).toContain('"9 Rimu Road, RD 1",Ponsonby,Dunedin,9016,Otago,Yes,1,2027-03-05,1 x Dispatch Kesar');

    // Friday's Auckland dispatch (Thursday the 4th) has room for 1 box only: the 2-box order does not fit.
    await save({ ...defaultDeliverySettings, capacityOverrides: [{ date: '2027-03-04', boxes: 1 }] });
    const move = (number: string, payload: Record<string, unknown>) => staff({ method: 'POST', url: `/api/admin/orders/${number}/delivery-date`, payload });
    const full = await move(auckland.number, { deliveryDate: '2027-03-05' });
    expect(full.statusCode).toBe(409);
    expect(full.json().nextDeliveryDate).toBe('2027-03-03');
    expect((await move(auckland.number, { deliveryDate: '2027-03-07' })).json().fieldErrors.deliveryDate).toContain('We do not deliver to Auckland on Sun, 7 March 2027');
    const before = (await shop.mail()).length;
    const moved = await move(auckland.number, { deliveryDate: '2027-03-09', reason: 'The Kesar shipment is a day late' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toEqual({ number: auckland.number, deliveryDate: '2027-03-09', dispatchDate: '2027-03-08' });
    const booked = Object.fromEntries((await shop.database.db.select().from(dispatchDays)).map((row) => [row.date, row.bookedBoxes]));
    expect(booked).toMatchObject({ '2027-03-03': 2, '2027-03-08': 2 });
    const mail = (await shop.mail()).slice(before);
    expect(mail.map((one) => one.subject)).toEqual([`New delivery day for order ${auckland.number}`]);
    expect(mail[0]!.text).toContain('from Thu, 4 March 2027 to Tue, 9 March 2027');
    expect(mail[0]!.text).toContain('Why: The Kesar shipment is a day late');
    const seen = (await auckland.shopper.call({ method: 'GET', url: `/api/orders/${auckland.number}` })).json() as PlacedOrder['order'];
    expect(seen.deliveryDate).toBe('2027-03-09');
    expect(seen.events.at(-1)!.note).toBe('Delivery moved from Thu, 4 March 2027 to Tue, 9 March 2027: The Kesar shipment is a day late');

    // A sent order keeps its day.
    for (const status of ['packed', 'shipped']) {
      const payload = status === 'shipped' ? { status, carrier: 'nz_post', trackingNumber: 'NZP-1001' } : { status };
      expect((await staff({ method: 'POST', url: `/api/admin/orders/${otago.number}/status`, payload })).statusCode).toBe(200);
    }
    expect((await move(otago.number, { deliveryDate: '2027-03-10' })).statusCode).toBe(409);
    const shopper = await quickShopper(shop, 'nosy');
    expect((await shopper.call({ method: 'GET', url: '/api/admin/dispatch?date=2027-03-03' })).statusCode).toBe(403);
    expect((await staff({ method: 'GET', url: '/api/admin/dispatch?date=2027-02-30' })).json().fieldErrors).toEqual({ date: 'Date must be a real date' });
  });

  it('lists orders without a dispatch day as to schedule, whatever the day shown, until staff give them one', async () => {
    now = new Date('2027-03-01T22:00:00Z');
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#e8a33d' } }).jpeg().toBuffer();
    // A claim's replacement order is made without a delivery day.
    const { shopper, order, lines } = await deliveredOrder(shop, staff);
    const sent = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/claims`, ...claimForm(bruised(lines[0]!.lineId, 2, 'replacement'), [photo]) });
    expect(sent.statusCode, sent.body).toBe(201);
    const approved = await staff({ method: 'POST', url: `/api/admin/claims/${sent.json<{ id: number }>().id}/approve`, payload: { resolution: 'replacement' } });
    expect(approved.statusCode, approved.body).toBe(200);
    const replacement = approved.json<{ replacementOrderNumber: string }>().replacementOrderNumber;
    // A pre-order still waiting for its boxes gets its day when they are allocated: it is not to schedule.
    const coming = await testProduct(shop, { name: 'Dispatch Pairi', stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-04-01' });
    const waiting = await quickShopper(shop, 'waits');
    await waiting.add(coming.id, 1);
    const preOrdered = await waiting.order({ deliveryDate: undefined });
    expect(preOrdered.statusCode, preOrdered.body).toBe(201);

    const toSchedule = async (date: string) => (await staff({ method: 'GET', url: `/api/admin/dispatch?date=${date}` })).json<DispatchDay>().toSchedule.map((one) => one.number);
    expect(await toSchedule('2027-03-03')).toEqual([replacement]);
    expect(await toSchedule('2027-03-20')).toEqual([replacement]);
    const [listed] = (await staff({ method: 'GET', url: '/api/admin/dispatch?date=2027-03-03' })).json<DispatchDay>().toSchedule;
    expect(listed).toMatchObject({ number: replacement, status: 'paid', boxes: 2, readyToPack: true, address: { region: 'Auckland' }, lines: [{ name: 'Claim Alphonso', quantity: 2 }] });

    // Given a day, it leaves the list and is packed and sent on its dispatch day like any order.
    const moved = await staff({ method: 'POST', url: `/api/admin/orders/${replacement}/delivery-date`, payload: { deliveryDate: '2027-03-04', reason: 'Your replacement boxes' } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await toSchedule('2027-03-03')).toEqual([]);
    const day = (await staff({ method: 'GET', url: '/api/admin/dispatch?date=2027-03-03' })).json<DispatchDay>();
    expect(day.regions.flatMap((group) => group.orders.map((one) => one.number))).toContain(replacement);
    expect((await staff({ method: 'GET', url: '/api/admin/dispatch.csv?date=2027-03-03' })).body).toContain(`${replacement},`);
  });
});
