import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminSubscriptionDetail, SubscriptionForecast, SubscriptionView } from '../../../contracts/subscriptions';
import { quickShopper, testProduct, testShipping } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

/** Tuesday 2 March 2027, 11:00 NZDT. */
let now = new Date('2027-03-01T22:00:00Z');
let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop({ clock: () => now })));
afterAll(async () => shop?.close());

async function subscribe(productId: number, quantity: number, every: 'week' | 'fortnight', firstDeliveryDate: string) {
  const shopper = await quickShopper(shop, 'listed');
  const response = await shopper.call({ method: 'POST', url: '/api/subscriptions', payload: { productId, quantity, every, firstDeliveryDate, shipping: testShipping, paymentMethod: 'bank_transfer' } });
  expect(response.statusCode, response.body).toBe(201);
  return { shopper, subscription: response.json<SubscriptionView>() };
}

describe('the staff screen of season boxes', () => {
  it('forecasts boxes per product per delivery date for eight weeks, skips counted, as JSON and CSV', async () => {
    const alphonso = await testProduct(shop, { name: 'Forecast Alphonso', subscribable: true, seasonEndsOn: '2027-03-26' });
    const kesar = await testProduct(shop, { name: 'Forecast Kesar', subscribable: true });
    await subscribe(alphonso.id, 2, 'week', '2027-03-05');
    const skipper = await subscribe(alphonso.id, 1, 'fortnight', '2027-03-05');
    await subscribe(kesar.id, 3, 'fortnight', '2027-03-11');
    await skipper.shopper.call({ method: 'POST', url: `/api/subscriptions/${skipper.subscription.id}/deliveries/2027-03-19/skip` });
    const response = await staff({ method: 'GET', url: '/api/admin/subscriptions/forecast' });
    expect(response.statusCode).toBe(200);
    const forecast = response.json<SubscriptionForecast>();
    expect(forecast).toMatchObject({ from: '2027-03-02', to: '2027-04-26' });
    const row = (name: string) => forecast.products.find((one) => one.productName === name)!;
    // Weekly 2 to the season's end (26 March, Good Friday: no delivery), and fortnightly 1 with 19 March skipped.
    expect(row('Forecast Alphonso')).toEqual({ productId: alphonso.id, productName: 'Forecast Alphonso', boxes: { '2027-03-05': 3, '2027-03-12': 2, '2027-03-19': 2 }, total: 7 });
    expect(row('Forecast Kesar').boxes).toEqual({ '2027-03-11': 3, '2027-03-25': 3, '2027-04-08': 3, '2027-04-22': 3 });
    const csv = await staff({ method: 'GET', url: '/api/admin/subscriptions/forecast.csv' });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines[0]).toBe('Delivery date,Weekday,Product id,Product,Boxes');
    expect(lines).toContain(`2027-03-05,Fri,${alphonso.id},Forecast Alphonso,3`);
    expect(lines).toContain(`2027-03-11,Thu,${kesar.id},Forecast Kesar,3`);
  });

  it('lists each subscription and shows its history of orders, skips and misses', async () => {
    const product = await testProduct(shop, { name: 'History Mangoes', subscribable: true, stock: 1 });
    const { shopper, subscription } = await subscribe(product.id, 1, 'week', '2027-03-05');
    await shopper.call({ method: 'POST', url: `/api/subscriptions/${subscription.id}/deliveries/2027-03-12/skip` });
    const run = await staff({ method: 'POST', url: '/api/admin/subscription-runs', payload: { deliveryDate: '2027-03-05' } });
    expect(run.statusCode, run.body).toBe(200);
    const list = await staff({ method: 'GET', url: '/api/admin/subscriptions?status=active' });
    expect(list.statusCode).toBe(200);
    const listed = list.json<{ subscriptions: Array<{ id: number; productName: string; nextDeliveryDate: string | null }> }>().subscriptions.find((one) => one.id === subscription.id);
    expect(listed).toMatchObject({ productName: 'History Mangoes', nextDeliveryDate: '2027-03-19' });
    const detail = await staff({ method: 'GET', url: `/api/admin/subscriptions/${subscription.id}` });
    const history = detail.json<AdminSubscriptionDetail>().history;
    expect(history.map((entry) => [entry.date, entry.state])).toEqual([
      ['2027-03-12', 'skipped'],
      ['2027-03-05', 'ordered'],
    ]);
    expect(history[1]!.orderNumber).toMatch(/^MS-\d+$/);
    expect((await staff({ method: 'GET', url: '/api/admin/subscriptions/999999' })).statusCode).toBe(404);
    expect((await staff({ method: 'GET', url: '/api/admin/subscriptions?status=nope' })).statusCode).toBe(400);
  });

  it('is for staff only', async () => {
    const shopper = await quickShopper(shop, 'nosy');
    for (const url of ['/api/admin/subscriptions', '/api/admin/subscriptions/forecast', '/api/admin/subscriptions/forecast.csv', '/api/admin/subscriptions/stop-all']) {
      expect((await shopper.call({ method: 'GET', url })).statusCode, url).toBe(403);
      expect((await shop.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
    expect((await shopper.call({ method: 'POST', url: '/api/admin/subscription-runs', payload: { deliveryDate: '2027-03-05' } })).statusCode).toBe(403);
    expect((await shopper.call({ method: 'POST', url: '/api/admin/subscriptions/stop-all' })).statusCode).toBe(403);
    now = new Date('2027-03-01T22:00:00Z');
  });
});
