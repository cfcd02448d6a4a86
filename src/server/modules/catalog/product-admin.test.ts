import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminProductPage, AdminProductRow } from '../../../contracts/admin-products';
import type { Product } from '../../../contracts/product';
import { queryRows } from '../../db/client';
import { quickShopper, testProduct } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop()));
afterAll(async () => shop?.close());

const page = async (query: string) => {
  const response = await staff({ method: 'GET', url: `/api/admin/products/page${query}` });
  expect(response.statusCode).toBe(200);
  return response.json<AdminProductPage>();
};
const publicIds = async () => (await shop.app.inject({ method: 'GET', url: '/api/products' })).json<Product[]>().map((p) => p.id);
const archive = (id: number, archived: boolean) => staff({ method: 'PUT', url: `/api/admin/products/${id}/archive`, payload: { archived } });
const auditActions = async (id: number) =>
  (await queryRows<{ action: string }>(shop.database.db, sql`select action from audit_log where entity = 'product' and entity_id = ${String(id)} order by id`)).map((row) => row.action);

describe('the admin product table', () => {
  it('searches, sorts and pages on the server, hidden products included', async () => {
    const hidden = await testProduct(shop, { name: 'Secret Sindhri Mangoes', isHidden: true, priceCents: 9900, category: 'Rare' });
    const all = await page('?pageSize=100');
    expect(all.products.map((p) => p.id)).toContain(hidden.id);
    const byPrice = await page('?sort=price&dir=desc&pageSize=2');
    expect(byPrice.products.map((p) => p.price)).toEqual([99, expect.any(Number)]);
    expect(byPrice.products[0]!.price).toBeGreaterThanOrEqual(byPrice.products[1]!.price);
    expect(byPrice.total).toBe(all.total);
    const second = await page('?sort=name&pageSize=2&page=2');
    expect(second.products.map((p) => p.name)).toEqual(all.products.slice(2, 4).map((p) => p.name));
    const found = await page('?q=sindhri');
    expect(found).toMatchObject({ total: 1, products: [{ id: hidden.id, isHidden: true, archivedAt: null, orderCount: 0 }] });
    expect((await page('?show=hidden')).products.every((p) => p.isHidden)).toBe(true);
    expect((await page('?show=visible')).products.some((p) => p.id === hidden.id)).toBe(false);
  });

  it('refuses a bad query with field messages', async () => {
    const response = await staff({ method: 'GET', url: '/api/admin/products/page?sort=colour&page=0&show=gone' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      sort: 'Sort by name, price, stock, category, rating or newest',
      page: 'Page must be at least 1',
      show: 'Show must be active, visible, hidden or archived',
    });
  });
});

describe('deleting and archiving', () => {
  it('deletes a product no order mentions', async () => {
    const product = await testProduct(shop);
    expect((await staff({ method: 'DELETE', url: `/api/products/${product.id}` })).statusCode).toBe(200);
    expect((await staff({ method: 'GET', url: `/api/products/${product.id}` })).statusCode).toBe(404);
  });

  it('refuses to delete a product with orders, changing nothing, and archives it instead', async () => {
    const product = await testProduct(shop, { name: 'Ordered Kesar Mangoes' });
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 2);
    expect((await shopper.order()).statusCode).toBe(201);

    const refused = await staff({ method: 'DELETE', url: `/api/products/${product.id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Ordered Kesar Mangoes is on 1 order, so it cannot be deleted: archive it instead');
    expect(await publicIds()).toContain(product.id);

    const archived = await archive(product.id, true);
    expect(archived.statusCode).toBe(200);
    expect(archived.json<AdminProductRow>()).toMatchObject({ id: product.id, isHidden: true, orderCount: 1, archivedAt: expect.any(String) });
    expect(await publicIds()).not.toContain(product.id);
    expect((await page('?q=Ordered Kesar')).total).toBe(0);
    expect((await page('?show=archived&q=Ordered Kesar')).products.map((p) => p.id)).toEqual([product.id]);

    const show = await staff({ method: 'PUT', url: `/api/products/${product.id}`, payload: { isHidden: false } });
    expect(show.statusCode).toBe(409);
    expect(show.json().fieldErrors).toEqual({ isHidden: 'Restore the product first' });
    expect(await publicIds()).not.toContain(product.id);

    const restored = await archive(product.id, false);
    expect(restored.json<AdminProductRow>()).toMatchObject({ archivedAt: null, isHidden: true });
    expect((await staff({ method: 'PUT', url: `/api/products/${product.id}`, payload: { isHidden: false } })).statusCode).toBe(200);
    expect(await publicIds()).toContain(product.id);
    expect(await auditActions(product.id)).toEqual(['product.archive', 'product.restore', 'product.show']);
  });

  it('refuses bad archive requests', async () => {
    const bad = await staff({ method: 'PUT', url: '/api/admin/products/1/archive', payload: { archived: 'yes' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual({ archived: 'archived must be true or false' });
    expect((await archive(999_999, true)).statusCode).toBe(404);
  });
});
