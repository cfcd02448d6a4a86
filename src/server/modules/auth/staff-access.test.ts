import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestShop, signInCustomerAndAdmin, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let cookies: { customer: string; admin: string };
beforeAll(async () => {
  shop = await createTestShop();
  cookies = await signInCustomerAndAdmin(shop);
});
afterAll(async () => shop?.close());

/** The staff routes outside /api/admin that spec section 7 names: the user list and product writes. */
const specStaffRoutes = new Set(['GET /api/users', 'POST /api/products', 'PUT /api/products/:id', 'DELETE /api/products/:id']);

function staffRoutes() {
  return shop.app.routeTable.filter(
    (route) => route.method !== 'HEAD' && (route.url.startsWith('/api/admin/') || specStaffRoutes.has(`${route.method} ${route.url}`)),
  );
}

const concrete = (url: string) => url.replace(':id', '1').replace(':productId', '1').replace(':number', 'MS-10001').replace(':slug', 'about-us');

describe('every staff route', () => {
  it('is found in the route table, including every route the spec names', () => {
    const names = staffRoutes().map((route) => `${route.method} ${route.url}`);
    for (const name of specStaffRoutes) expect(names).toContain(name);
    expect(names).toContain('GET /api/admin/orders');
    expect(names.length).toBeGreaterThanOrEqual(10);
  });

  it('answers 401 to a visitor and 403 to a customer, before reading any input', async () => {
    const answers: string[] = [];
    for (const route of staffRoutes()) {
      const request = { method: route.method as 'GET', url: concrete(route.url), ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }) };
      const visitor = await shop.app.inject(request);
      const customer = await as(shop.app, cookies.customer)(request);
      answers.push(`${route.method} ${route.url}: ${visitor.statusCode}/${customer.statusCode}`);
    }
    expect(answers.filter((answer) => !answer.endsWith(': 401/403'))).toEqual([]);
  });
});
