import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerDetail, CustomerPage } from '../../../contracts/customers';
import { quickShopper, testProduct } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
let adminId: number;
beforeAll(async () => ({ shop, staff, adminId } = await openStaffShop()));
afterAll(async () => shop?.close());

describe('customers for staff', () => {
  it('lists and searches customers with their order count and lifetime spend (cancelled orders excluded)', async () => {
    const product = await testProduct(shop, { priceCents: 5000, stock: 20 });
    const buyer = await quickShopper(shop, 'pohutukawa');
    await buyer.add(product.id, 2);
    const first = await buyer.order();
    expect(first.statusCode, first.body).toBe(201);
    await buyer.add(product.id, 1);
    const second = await buyer.order();
    expect(second.statusCode, second.body).toBe(201);
    const cancelled = second.json() as { order: { number: string } };
    await buyer.call({ method: 'POST', url: `/api/orders/${cancelled.order.number}/cancel` });

    const unpaid = (await staff({ method: 'GET', url: '/api/admin/customers?q=pohutukawa' })).json() as CustomerPage;
    expect(unpaid.customers[0]).toMatchObject({ orderCount: 2, lifetimeSpend: 0 });
    const paid = first.json() as { order: { number: string } };
    expect((await staff({ method: 'POST', url: `/api/admin/orders/${paid.order.number}/status`, payload: { status: 'paid' } })).statusCode).toBe(200);

    const found = (await staff({ method: 'GET', url: '/api/admin/customers?q=pohutukawa' })).json() as CustomerPage;
    expect(found.total).toBe(1);
    expect(found.customers[0]).toMatchObject({ email: buyer.user.email, name: 'Aroha Ngata', orderCount: 2, lifetimeSpend: 112, isAdmin: false });

    const detail = (await staff({ method: 'GET', url: `/api/admin/customers/${buyer.user.id}` })).json() as CustomerDetail;
    expect(detail.orders).toHaveLength(2);
    expect(detail.shippingAddresses).toEqual([expect.objectContaining({ street: '12 Ponsonby Road', postcode: '1011' })]);
    expect(detail.profileAddress).toMatchObject({ address: '12 Ponsonby Road' });
    expect((await staff({ method: 'GET', url: '/api/admin/customers/999999' })).statusCode).toBe(404);
    expect((await staff({ method: 'GET', url: '/api/admin/customers?pageSize=1000' })).statusCode).toBe(400);
  });

  it('grants and removes admin, but never removes the last admin', async () => {
    const helper = await quickShopper(shop, 'kaimahi');
    const grant = await staff({ method: 'PUT', url: `/api/admin/customers/${helper.user.id}/admin`, payload: { isAdmin: true } });
    expect(grant.json()).toMatchObject({ isAdmin: true });
    expect((await helper.call({ method: 'GET', url: '/api/admin/customers' })).statusCode).toBe(200);

    const removeOwner = await helper.call({ method: 'PUT', url: `/api/admin/customers/${adminId}/admin`, payload: { isAdmin: false } });
    expect(removeOwner.json()).toMatchObject({ isAdmin: false });
    const removeLast = await helper.call({ method: 'PUT', url: `/api/admin/customers/${helper.user.id}/admin`, payload: { isAdmin: false } });
    expect(removeLast.statusCode).toBe(409);
    expect(removeLast.json().message).toBe('The shop needs at least one admin: make someone else an admin first.');
    // The owner lost the role at once: their session is refused.
    expect((await staff({ method: 'GET', url: '/api/admin/customers' })).statusCode).toBe(403);
    await helper.call({ method: 'PUT', url: `/api/admin/customers/${adminId}/admin`, payload: { isAdmin: true } });
    expect((await staff({ method: 'PUT', url: `/api/admin/customers/${helper.user.id}/admin`, payload: { isAdmin: false } })).json()).toMatchObject({ isAdmin: false });
  });

  it('leaves one admin when the last two remove each other at the same time', async () => {
    const other = await quickShopper(shop, 'rangatira');
    await staff({ method: 'PUT', url: `/api/admin/customers/${other.user.id}/admin`, payload: { isAdmin: true } });
    const admins = ((await staff({ method: 'GET', url: '/api/admin/customers?pageSize=100' })).json() as CustomerPage).customers.filter((c) => c.isAdmin);
    expect(admins.map((a) => a.id).sort()).toEqual([adminId, other.user.id].sort());
    const [a, b] = await Promise.all([
      staff({ method: 'PUT', url: `/api/admin/customers/${other.user.id}/admin`, payload: { isAdmin: false } }),
      other.call({ method: 'PUT', url: `/api/admin/customers/${adminId}/admin`, payload: { isAdmin: false } }),
    ]);
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    const left = await shop.database.db.query.users.findMany({ where: (users, { eq }) => eq(users.isAdmin, true) });
    expect(left).toHaveLength(1);
  });
});
