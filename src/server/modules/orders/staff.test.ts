import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderPage } from '../../../contracts/admin-orders';
import type { OrderView, PlacedOrder } from '../../../contracts/order';
import { auditLog, users } from '../../db/schema';
import { quickShopper, stockOf, testProduct, testShipping } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop()));
afterAll(async () => shop?.close());

async function placeOrder(name: string, boxes = 1, shipping: Partial<typeof testShipping> = {}) {
  const product = await testProduct(shop, { stock: 20 });
  const shopper = await quickShopper(shop, name);
  await shopper.add(product.id, boxes);
  const response = await shopper.order({ shipping: { ...testShipping, ...shipping } });
  expect(response.statusCode).toBe(201);
  return { product, shopper, order: (response.json() as PlacedOrder).order };
}

describe('GET /api/admin/orders', () => {
  it('pages newest first, filters by status and date, and searches number, name and e-mail', async () => {
    const first = await placeOrder('kowhai', 2, { name: 'Kōwhai Rangi' });
    const second = await placeOrder('matai', 1);
    await placeOrder('rimu', 3);

    const page = (await staff({ method: 'GET', url: '/api/admin/orders?pageSize=2' })).json() as AdminOrderPage;
    expect(page).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page.orders).toHaveLength(2);
    expect(page.orders[1]!.number).toBe(second.order.number);
    const next = (await staff({ method: 'GET', url: '/api/admin/orders?pageSize=2&page=2' })).json() as AdminOrderPage;
    expect(next.orders.map((o) => o.number)).toEqual([first.order.number]);
    expect(next.orders[0]).toMatchObject({ customerEmail: first.shopper.user.email, itemCount: 2, status: 'pending_payment', region: 'Auckland' });

    const byNumber = (await staff({ method: 'GET', url: `/api/admin/orders?q=${first.order.number.toLowerCase()}` })).json() as AdminOrderPage;
    expect(byNumber.orders.map((o) => o.number)).toEqual([first.order.number]);
    const byName = (await staff({ method: 'GET', url: `/api/admin/orders?q=${encodeURIComponent('Kōwhai')}` })).json() as AdminOrderPage;
    expect(byName.orders.map((o) => o.number)).toEqual([first.order.number]);
    const byEmail = (await staff({ method: 'GET', url: `/api/admin/orders?q=${encodeURIComponent(second.shopper.user.email)}` })).json() as AdminOrderPage;
    expect(byEmail.orders.map((o) => o.number)).toEqual([second.order.number]);
    const wildcard = (await staff({ method: 'GET', url: '/api/admin/orders?q=%25' })).json() as AdminOrderPage;
    expect(wildcard.total).toBe(0);

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(new Date());
    expect(((await staff({ method: 'GET', url: `/api/admin/orders?from=${today}&to=${today}` })).json() as AdminOrderPage).total).toBe(3);
    expect(((await staff({ method: 'GET', url: '/api/admin/orders?to=2020-01-01' })).json() as AdminOrderPage).total).toBe(0);
    expect(((await staff({ method: 'GET', url: '/api/admin/orders?status=paid' })).json() as AdminOrderPage).total).toBe(0);
  });

  it('answers field messages for bad filters', async () => {
    const response = await staff({ method: 'GET', url: '/api/admin/orders?status=lost&from=2026-13-45&pageSize=500&sort=x' });
    expect(response.statusCode).toBe(400);
  });
});

describe('staff order steps', () => {
  it('marks paid, packs, ships with a tracking number the customer sees, delivers; each step audited', async () => {
    const { order, shopper } = await placeOrder('totara');
    const step = (body: Record<string, unknown>) => staff({ method: 'POST', url: `/api/admin/orders/${order.number}/status`, payload: body });

    const noTracking = await step({ status: 'shipped' });
    expect(noTracking.statusCode).toBe(400);
    expect(noTracking.json().fieldErrors).toEqual({ trackingNumber: 'A tracking number is required to mark an order shipped', carrier: 'Choose the carrier' });
    expect((await step({ status: 'shipped', carrier: 'pigeon', trackingNumber: 'NZP-1' })).json().fieldErrors).toEqual({ carrier: 'Choose the carrier' });
    expect((await step({ status: 'packed' })).statusCode).toBe(409);

    expect((await step({ status: 'paid', note: 'Transfer seen in the bank' })).json()).toMatchObject({ status: 'paid', customer: { email: shopper.user.email } });
    expect((await step({ status: 'packed' })).json().status).toBe('packed');
    expect((await step({ status: 'shipped', carrier: 'nz_post', trackingNumber: 'NZP-778899' })).json()).toMatchObject({ status: 'shipped', carrier: 'nz_post', trackingNumber: 'NZP-778899' });
    expect((await step({ status: 'delivered' })).json().status).toBe('delivered');

    const seen = (await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` })).json() as OrderView;
    expect(seen).toMatchObject({ status: 'delivered', carrier: 'nz_post', trackingNumber: 'NZP-778899', trackingUrl: 'https://www.nzpost.co.nz/tools/tracking/item/NZP-778899' });
    const shipped = (await shop.mail()).find((m) => m.subject === `Order ${order.number} is on its way`)!;
    expect(shipped.text).toContain('Tracking number: NZ Post NZP-778899');
    expect(shipped.text).toContain('Track your parcel: https://www.nzpost.co.nz/tools/tracking/item/NZP-778899');
    const audited = await shop.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'order'), eq(auditLog.entityId, order.number)));
    expect(audited.map((entry) => entry.action)).toEqual(['order.paid', 'order.packed', 'order.shipped', 'order.delivered']);
    expect(audited[0]).toMatchObject({ before: { status: 'pending_payment' }, after: { status: 'paid', note: 'Transfer seen in the bank' } });
  });

  it('cancels a paid order with its stock returned, and shows the customer in the detail', async () => {
    const { order, product, shopper } = await placeOrder('kauri', 4);
    expect(await stockOf(shop, product.id)).toBe(16);
    await staff({ method: 'POST', url: `/api/admin/orders/${order.number}/status`, payload: { status: 'paid' } });
    const cancelled = await staff({ method: 'POST', url: `/api/admin/orders/${order.number}/status`, payload: { status: 'cancelled', note: 'Out of season' } });
    expect(cancelled.json().status).toBe('cancelled');
    expect(await stockOf(shop, product.id)).toBe(20);
    const detail = (await staff({ method: 'GET', url: `/api/admin/orders/${order.number}` })).json();
    expect(detail).toMatchObject({ number: order.number, customer: { email: shopper.user.email, name: 'Aroha Ngata' } });
    expect(detail.events.map((e: { status: string }) => e.status)).toEqual(['pending_payment', 'paid', 'cancelled']);
  });
});

describe('GET /api/admin/orders.csv', () => {
  it('exports the filtered orders with money in dollars and cells that never run as formulas', async () => {
    const { order, shopper } = await placeOrder('horoeka', 2);
    await shop.database.db.update(users).set({ firstName: '=HYPERLINK("x")' }).where(eq(users.id, shopper.user.id));
    const response = await staff({ method: 'GET', url: `/api/admin/orders.csv?q=${order.number}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, row, end] = response.body.split('\r\n');
    expect(header).toBe('Order,Placed (UTC),Status,Payment,Customer,Email,Region,Boxes,Subtotal,Shipping,Rural surcharge,Discount,Total,GST,Delivery date');
    expect(row).toContain(`${order.number},`);
    expect(row).toContain(`,pending_payment,bank_transfer,"'=HYPERLINK(""x"") Ngata",${shopper.user.email},Auckland,`);
    expect(row).toMatch(/,2,100\.00,12\.00,0\.00,0\.00,112\.00,14\.61,\d{4}-\d{2}-\d{2}$/);
    expect(end).toBe('');
  });
});
