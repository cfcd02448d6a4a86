import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PlacedOrder } from '../../../contracts/order';
import type { StoredSettings } from '../../../contracts/settings';
import { quickShopper, testProduct } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop()));
afterAll(async () => shop?.close());

async function orderMail(): Promise<string> {
  const product = await testProduct(shop, { stock: 5, priceCents: 5000 });
  const shopper = await quickShopper(shop, 'gst');
  await shopper.add(product.id, 1);
  const response = await shopper.order();
  expect(response.statusCode, response.body).toBe(201);
  const { order } = response.json<PlacedOrder>();
  return (await shop.mail()).find((mail) => mail.to === shopper.user.email && mail.subject.includes(order.number))!.text;
}

it('states GST in the order mail only once the shop has a GST number', async () => {
  const unregistered = await orderMail();
  expect(unregistered).toContain('Total: $62.00');
  expect(unregistered).not.toContain('GST');

  const current = (await staff({ method: 'GET', url: '/api/admin/settings' })).json<StoredSettings>();
  expect((await staff({ method: 'PUT', url: '/api/admin/settings', payload: { ...current, gstNumber: '123-456-789' } })).statusCode).toBe(200);
  // $62.00 including GST: 62 x 3/23 = $8.09.
  expect(await orderMail()).toContain('Total: $62.00 (includes GST of $8.09)');
});
