import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '../../../contracts/errors';
import type { User } from '../../../contracts/user';
import { as, createTestShop, shopperDefaults, signInCustomerAndAdmin, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let customer: string;
let admin: string;
beforeAll(async () => {
  shop = await createTestShop();
  ({ customer, admin } = await signInCustomerAndAdmin(shop));
});
afterAll(async () => shop?.close());

describe('GET /api/users', () => {
  it('asks a visitor to sign in', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/users' });
    expect(response.statusCode).toBe(401);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'Please sign in to continue.' });
  });

  it('refuses a customer with 403', async () => {
    const response = await as(shop.app, customer)({ method: 'GET', url: '/api/users' });
    expect(response.statusCode).toBe(403);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'This needs an admin account.' });
  });

  it('refuses an admin bearer token without an admin session (difference 1)', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/users', headers: { authorization: 'Bearer admin-token' } });
    expect(response.statusCode).toBe(401);
  });

  it('lists every user with id and username for an admin', async () => {
    const response = await as(shop.app, admin)({ method: 'GET', url: '/api/users' });
    expect(response.statusCode).toBe(200);
    const users = response.json<User[]>();
    expect(users.map((u) => u.username)).toEqual([shopperDefaults.username, 'owner']);
    expect(users[0]).toMatchObject({ id: expect.any(Number), username: 'aroha', email: shopperDefaults.email, isAdmin: false });
    expect(users[1]).toMatchObject({ username: 'owner', isAdmin: true });
  });

  it('never answers a password or its hash', async () => {
    const response = await as(shop.app, admin)({ method: 'GET', url: '/api/users' });
    expect(response.body).not.toMatch(/password/i);
    expect(response.body).not.toMatch(/\$argon2/);
    expect(response.body).not.toContain(shopperDefaults.password);
    for (const user of response.json<User[]>()) {
      expect(Object.keys(user).sort()).toEqual(
        ['address', 'city', 'email', 'firstName', 'id', 'isAdmin', 'lastName', 'phone', 'postalCode', 'region', 'username'].sort(),
      );
    }
  });
});
