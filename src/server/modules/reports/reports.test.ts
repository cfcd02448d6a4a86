import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus, OrderView, PlacedOrder } from '../../../contracts/order';
import { addDays, type AuditPage, type DashboardView, nzToday, type SalesReport } from '../../../contracts/reports';
import { auditLog, orders } from '../../db/schema';
import { quickShopper, testProduct, testPromo, testShipping } from '../../testing/order-helpers';
import { as, openStaffShop, registerAndSignIn, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop()));
afterAll(async () => shop?.close());

interface Placement {
  lines: Array<[productId: number, boxes: number]>;
  /** When the order was placed (it is placed now, then moved there). */
  at: Date;
  region?: string;
  promoCode?: string;
  /** Staff steps after placing, e.g. ['paid', 'refunded']. */
  steps?: OrderStatus[];
}

/** A real order through the cart and checkout API, moved to its placing time, then taken through staff steps. */
async function placeOrder({ lines, at, region = 'Auckland', promoCode, steps = [] }: Placement): Promise<OrderView> {
  const shopper = await quickShopper(shop, 'reporter');
  for (const [productId, boxes] of lines) await shopper.add(productId, boxes);
  const placed = await shopper.order({ shipping: { ...testShipping, region }, ...(promoCode && { promoCode }) });
  expect(placed.statusCode, placed.body).toBe(201);
  const { order } = placed.json() as PlacedOrder;
  await shop.database.db.update(orders).set({ createdAt: at }).where(eq(orders.number, order.number));
  for (const status of steps) {
    const step = await staff({ method: 'POST', url: `/api/admin/orders/${order.number}/status`, payload: { status } });
    expect(step.statusCode, step.body).toBe(200);
  }
  return order;
}

const report = async (query: string) => {
  const response = await staff({ method: 'GET', url: `/api/admin/reports?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as SalesReport;
};

describe('GET /api/admin/reports', () => {
  let alphonsoId = 0;
  let preOrderId = 0;
  let promo = '';

  beforeAll(async () => {
    const alphonso = await testProduct(shop, { name: '=Alphonso "Royal", Box', priceCents: 5000, stock: 50 });
    const kesar = await testProduct(shop, { name: 'Report Kesar', priceCents: 3000, stock: 50 });
    const dasheri = await testProduct(shop, { name: 'Report Dasheri', priceCents: 4000, stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-01-15', preOrderLimit: 20 });
    alphonsoId = alphonso.id;
    preOrderId = dasheri.id;
    promo = (await testPromo(shop, { discountType: 'percentage', discountValue: 10 })).code;
    // March 2026 is daylight time in New Zealand (UTC+13).
    const totals = [
      await placeOrder({ lines: [[alphonso.id, 2]], at: new Date('2026-03-02T10:00:00+13:00'), steps: ['paid'] }),
      // 00:30 on the 3rd in Auckland is still the 2nd in UTC: it belongs to the 3rd.
      await placeOrder({ lines: [[kesar.id, 1]], at: new Date('2026-03-03T00:30:00+13:00'), region: 'Canterbury', promoCode: promo, steps: ['paid'] }),
      await placeOrder({ lines: [[alphonso.id, 1]], at: new Date('2026-03-03T12:00:00+13:00'), region: 'Canterbury' }),
      await placeOrder({ lines: [[kesar.id, 2]], at: new Date('2026-03-03T13:00:00+13:00'), region: 'Otago', steps: ['cancelled'] }),
      await placeOrder({ lines: [[alphonso.id, 1]], at: new Date('2026-03-09T09:00:00+13:00'), region: 'Otago', promoCode: promo, steps: ['paid', 'refunded'] }),
      await placeOrder({ lines: [[dasheri.id, 3]], at: new Date('2026-03-10T23:59:00+13:00'), steps: ['paid'] }),
      await placeOrder({ lines: [[dasheri.id, 2]], at: new Date('2026-03-10T08:00:00+13:00') }),
      // Outside the range by one New Zealand day on either side.
      await placeOrder({ lines: [[kesar.id, 1]], at: new Date('2026-03-01T23:59:00+13:00'), steps: ['paid'] }),
      await placeOrder({ lines: [[kesar.id, 1]], at: new Date('2026-03-11T00:01:00+13:00'), steps: ['paid'] }),
    ].map((order) => [order.total, order.gst, order.discount]);
    // The sums below rest on these: $12 shipping, GST as 3/23 of the total, 10% off the boxes.
    expect(totals.slice(0, 6)).toEqual([
      [112, 14.61, 0],
      [39, 5.09, 3],
      [62, 8.09, 0],
      [72, 9.39, 0],
      [57, 7.43, 5],
      [132, 17.22, 0],
    ]);
  });

  it('sums revenue, GST and orders per New Zealand day, leaving out unpaid and cancelled orders and refunds', async () => {
    const daily = await report('from=2026-03-02&to=2026-03-10&groupBy=day');
    const empty = { orders: 0, refunded: 0, revenue: 0, gst: 0 };
    expect(daily.periods).toEqual([
      { start: '2026-03-02', orders: 1, refunded: 0, revenue: 112, gst: 14.61 },
      { start: '2026-03-03', orders: 1, refunded: 0, revenue: 39, gst: 5.09 },
      ...['04', '05', '06', '07', '08'].map((day) => ({ start: `2026-03-${day}`, ...empty })),
      { start: '2026-03-09', orders: 1, refunded: 1, revenue: 0, gst: 0 },
      { start: '2026-03-10', orders: 1, refunded: 0, revenue: 132, gst: 17.22 },
    ]);
    expect(daily.totals).toEqual({ orders: 4, refunded: 1, revenue: 283, gst: 36.92 });
    expect(daily).toMatchObject({ from: '2026-03-02', to: '2026-03-10', groupBy: 'day' });
  });

  it('groups by week from Monday and by month from the 1st', async () => {
    const weekly = await report('from=2026-03-02&to=2026-03-10&groupBy=week');
    expect(weekly.periods).toEqual([
      { start: '2026-03-02', orders: 2, refunded: 0, revenue: 151, gst: 19.7 },
      { start: '2026-03-09', orders: 2, refunded: 1, revenue: 132, gst: 17.22 },
    ]);
    const monthly = await report('from=2026-03-02&to=2026-03-10&groupBy=month');
    expect(monthly.periods).toEqual([{ start: '2026-03-01', orders: 4, refunded: 1, revenue: 283, gst: 36.92 }]);
    const wider = await report('from=2026-02-20&to=2026-03-31&groupBy=month');
    expect(wider.periods.map((period) => [period.start, period.orders, period.revenue])).toEqual([
      ['2026-02-01', 0, 0],
      ['2026-03-01', 6, 367],
    ]);
  });

  it('lists top products, regions, promo usage and pre-orders by expected date', async () => {
    const tables = await report('from=2026-03-02&to=2026-03-10');
    expect(tables.topProducts).toEqual([
      { productId: preOrderId, name: 'Report Dasheri', units: 3, revenue: 120 },
      { productId: alphonsoId, name: '=Alphonso "Royal", Box', units: 2, revenue: 100 },
      { productId: expect.any(Number), name: 'Report Kesar', units: 1, revenue: 30 },
    ]);
    expect(tables.regions).toEqual([
      { region: 'Auckland', orders: 2, revenue: 244, gst: 31.83 },
      { region: 'Canterbury', orders: 1, revenue: 39, gst: 5.09 },
      { region: 'Otago', orders: 1, revenue: 0, gst: 0 },
    ]);
    expect(tables.promos).toEqual([{ code: promo, orders: 2, discount: 3, revenue: 39 }]);
    expect(tables.preOrders).toEqual([{ productId: preOrderId, name: 'Report Dasheri', expectedAvailabilityDate: '2027-01-15', boxes: 5, orders: 2 }]);
  });

  it('shows an empty range as zeros and empty tables', async () => {
    const quiet = await report('from=2025-06-01&to=2025-06-03');
    expect(quiet.periods.map((period) => period.orders)).toEqual([0, 0, 0]);
    expect(quiet).toMatchObject({ totals: { orders: 0, refunded: 0, revenue: 0, gst: 0 }, topProducts: [], regions: [], promos: [], preOrders: [] });
  });

  it('covers the last 30 New Zealand days by default', async () => {
    const today = nzToday();
    const recent = await report('');
    expect(recent).toMatchObject({ from: addDays(today, -29), to: today, groupBy: 'day' });
    expect(recent.periods).toHaveLength(30);
  });

  it('refuses bad ranges with a message per field', async () => {
    const errors = async (query: string) => {
      const response = await staff({ method: 'GET', url: `/api/admin/reports?${query}` });
      expect(response.statusCode).toBe(400);
      return response.json().fieldErrors as Record<string, string>;
    };
    expect(await errors('from=2026-02-30&to=March')).toEqual({ from: 'From must be a real date', to: 'To must be a date (YYYY-MM-DD)' });
    expect(await errors('from=2026-03-10&to=2026-03-01')).toEqual({ to: 'To must be on or after From' });
    expect(await errors('from=2024-03-01&to=2026-03-01')).toEqual({ from: 'A report covers at most 2 years: choose a later From date' });
    expect(await errors('from=2020-01-01')).toEqual({ from: 'A report covers at most 2 years: choose a later From date' });
    expect(await errors('groupBy=year&sort=revenue')).toEqual({ groupBy: 'Group by day, week or month', sort: 'Unknown field: sort' });
    expect((await staff({ method: 'GET', url: '/api/admin/reports?from=2024-03-02&to=2026-03-01' })).statusCode).toBe(200);
    expect((await staff({ method: 'GET', url: '/api/admin/reports/regions.csv?from=2026-03-10&to=2026-03-01' })).statusCode).toBe(400);
  });

  it('exports each table as a formula-safe CSV download', async () => {
    const csv = async (table: string) => {
      const response = await staff({ method: 'GET', url: `/api/admin/reports/${table}.csv?from=2026-03-02&to=2026-03-10` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="${table}-2026-03-02-to-2026-03-10.csv"`);
      return response.body.split('\r\n');
    };
    const sales = await csv('sales');
    expect(sales.slice(0, 3)).toEqual(['Period starting,Orders,Refunded orders,Revenue (NZD incl. GST),GST', '2026-03-02,1,0,112.00,14.61', '2026-03-03,1,0,39.00,5.09']);
    expect(sales).toHaveLength(11);
    expect(sales.at(-1)).toBe('');
    expect((await csv('top-products')).slice(0, 3)).toEqual([
      'Product,Boxes sold,Revenue (NZD incl. GST)',
      'Report Dasheri,3,120.00',
      `"'=Alphonso ""Royal"", Box",2,100.00`,
    ]);
    expect((await csv('regions')).slice(0, 2)).toEqual(['Region,Orders,Revenue (NZD incl. GST),GST', 'Auckland,2,244.00,31.83']);
    expect((await csv('promos')).slice(0, 2)).toEqual(['Code,Orders,Discount given (NZD),Revenue (NZD incl. GST)', `${promo},2,3.00,39.00`]);
    expect(await csv('pre-orders')).toEqual(['Product,Expected availability,Boxes,Orders', 'Report Dasheri,2027-01-15,5,2', '']);
  });

  it('answers 401 to a visitor and 403 to a customer', async () => {
    const customer = as(shop.app, (await registerAndSignIn(shop.app, { username: 'reportsnoop', email: 'snoop@example.nz' })).cookie);
    for (const url of ['/api/admin/reports', '/api/admin/reports/sales.csv', '/api/admin/dashboard', '/api/admin/audit']) {
      expect((await shop.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      expect((await customer({ method: 'GET', url })).statusCode).toBe(403);
    }
  });
});

describe('GET /api/admin/dashboard', () => {
  it('shows revenue today, over 7 and 30 days, orders by status, stock to watch and pre-order demand', async () => {
    const kesar = await testProduct(shop, { name: 'Dash Kesar', priceCents: 3000, stock: 50 });
    const alphonso = await testProduct(shop, { name: 'Dash Alphonso', priceCents: 5000, stock: 50 });
    const low = await testProduct(shop, { name: 'Dash Low', stock: 3 });
    const gone = await testProduct(shop, { name: 'Dash Gone', stock: 0 });
    await testProduct(shop, { name: 'Dash Hidden', stock: 0, isHidden: true });
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    await placeOrder({ lines: [[alphonso.id, 1]], at: new Date(), steps: ['paid'] });
    await placeOrder({ lines: [[kesar.id, 1]], at: daysAgo(3), steps: ['paid'] });
    await placeOrder({ lines: [[alphonso.id, 1]], at: daysAgo(20), steps: ['paid'] });
    await placeOrder({ lines: [[kesar.id, 1]], at: daysAgo(40), steps: ['paid'] });
    await placeOrder({ lines: [[alphonso.id, 1]], at: new Date() });
    await placeOrder({ lines: [[kesar.id, 1]], at: new Date(), steps: ['paid', 'refunded'] });

    const response = await staff({ method: 'GET', url: '/api/admin/dashboard' });
    expect(response.headers['cache-control']).toBe('no-store');
    const dashboard = response.json() as DashboardView;
    expect(dashboard.revenue).toEqual({
      today: { orders: 2, revenue: 62, gst: 8.09 },
      last7Days: { orders: 3, revenue: 104, gst: 13.57 },
      last30Days: { orders: 4, revenue: 166, gst: 21.66 },
    });
    // Both describe blocks' orders: 9 + 6.
    expect(dashboard.ordersByStatus).toEqual([
      { status: 'pending_payment', count: 3 },
      { status: 'paid', count: 9 },
      { status: 'packed', count: 0 },
      { status: 'shipped', count: 0 },
      { status: 'delivered', count: 0 },
      { status: 'cancelled', count: 1 },
      { status: 'refunded', count: 2 },
    ]);
    expect(dashboard.lowStockThreshold).toBe(5);
    expect(dashboard.lowStock).toEqual([
      { productId: low.id, name: 'Dash Low', stock: 3 },
      { productId: expect.any(Number), name: 'Himsagar Mangoes', stock: 4 },
      { productId: expect.any(Number), name: 'Sindoora Mangoes', stock: 3 },
    ]);
    expect(dashboard.outOfStock.map((row) => row.name)).toEqual(['Dash Gone', 'Neelam Mangoes']);
    expect(dashboard.outOfStock[0]!.productId).toBe(gone.id);
    expect(dashboard.preOrderDemand).toEqual([
      { productId: expect.any(Number), name: 'Chausa Mangoes', preOrdered: 0, allocated: 0, waiting: 0, limit: null },
      { productId: expect.any(Number), name: 'Dasheri Mangoes', preOrdered: 0, allocated: 0, waiting: 0, limit: 80 },
      { productId: expect.any(Number), name: 'Langra Mangoes', preOrdered: 0, allocated: 0, waiting: 0, limit: 60 },
      { productId: expect.any(Number), name: 'Report Dasheri', preOrdered: 5, allocated: 0, waiting: 5, limit: 20 },
    ]);
  });
});

describe('GET /api/admin/audit', () => {
  it('pages the audit log newest first, with who made each change and the before and after', async () => {
    const adjusted = await staff({ method: 'POST', url: '/api/admin/inventory/1/adjustments', payload: { change: 5, reason: 'received', note: 'Morning truck' } });
    expect(adjusted.statusCode).toBe(200);
    const [{ n: total } = { n: 0 }] = await shop.database.db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
    expect(total).toBeGreaterThanOrEqual(15);

    const first = (await staff({ method: 'GET', url: '/api/admin/audit?pageSize=3' })).json() as AuditPage;
    expect(first).toMatchObject({ total, page: 1, pageSize: 3 });
    expect(first.entries[0]).toMatchObject({
      actor: { name: 'Shop Admin', email: 'owner@mangoshop.co.nz' },
      action: 'inventory.received',
      entity: 'product',
      entityId: '1',
      before: { stock: 40 },
      after: { stock: 45, change: 5, note: 'Morning truck' },
    });
    expect(first.entries[1]).toMatchObject({ action: 'order.refunded', entity: 'order' });
    const second = (await staff({ method: 'GET', url: '/api/admin/audit?pageSize=3&page=2' })).json() as AuditPage;
    const stamps = [...first.entries, ...second.entries].map((entry) => entry.at);
    expect(stamps).toEqual([...stamps].sort().reverse());
    expect(new Set([...first.entries, ...second.entries].map((entry) => entry.id)).size).toBe(6);
    expect(first.entries.at(-1)!.id).toBeGreaterThan(second.entries[0]!.id);

    const bad = await staff({ method: 'GET', url: '/api/admin/audit?page=0&pageSize=500' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual({ page: 'Page must be at least 1', pageSize: 'Page size must be at most 100' });
  });
});
