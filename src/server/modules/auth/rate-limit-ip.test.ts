import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '../../../contracts/errors';
import { createTestShop, shopperDefaults, type TestShop } from '../../testing/test-app';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop({ LOGIN_FAILS_PER_IP: '5', REGISTRATIONS_PER_IP_PER_HOUR: '3' });
});
afterAll(async () => shop?.close());

const register = (remoteAddress: string, name: string, headers: Record<string, string> = {}) =>
  shop.app.inject({ method: 'POST', url: '/api/register', remoteAddress, headers, payload: { ...shopperDefaults, username: name, email: `${name}@example.nz` } });
const login = (remoteAddress: string, email: string, password: string, headers: Record<string, string> = {}) =>
  shop.app.inject({ method: 'POST', url: '/api/login', remoteAddress, headers, payload: { email, password } });

describe('POST /api/login, failures per IP', () => {
  beforeAll(async () => {
    // The accounts come from another network, so their registrations do not count against these tests.
    for (const name of ['ipuser1', 'ipuser2', 'ipuser3']) expect((await register('10.200.0.1', name)).statusCode).toBe(201);
  });

  it('answers 429 after 5 failed sign-ins from one IP, even across different accounts and with the right password', async () => {
    const emails = ['ipuser1@example.nz', 'ipuser2@example.nz', 'ipuser3@example.nz', 'ghost1@example.nz', 'ghost2@example.nz'];
    for (const email of emails) {
      const failed = await login('10.1.2.3', email, 'wrong-password');
      expect(failed.statusCode).toBe(401);
      expect(failed.json<ApiErrorBody>()).toEqual({ message: 'Invalid email or password' });
    }
    const blocked = await login('10.1.2.3', 'ipuser1@example.nz', shopperDefaults.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<ApiErrorBody>().message).toBe(
      'Too many failed sign-in attempts. Please wait 15 minutes and try again, or reset your password.',
    );
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.cookies.find((c) => c.name === 'mango_session')).toBeUndefined();
  });

  it('does not block the same accounts from another IP', async () => {
    const response = await login('10.1.2.4', 'ipuser1@example.nz', shopperDefaults.password);
    expect(response.statusCode).toBe(200);
    expect(response.json<{ username: string }>().username).toBe('ipuser1');
  });

  it('cannot be dodged with a forged X-Forwarded-For when no proxy is trusted', async () => {
    const response = await login('10.1.2.3', 'ipuser2@example.nz', shopperDefaults.password, { 'x-forwarded-for': '203.0.113.9' });
    expect(response.statusCode).toBe(429);
  });
});

describe('POST /api/register, registrations per IP', () => {
  it('answers 429 with a readable message to the 4th registration from one IP in an hour', async () => {
    for (const name of ['flood1', 'flood2', 'flood3']) {
      const created = await register('10.5.5.5', name);
      expect(created.statusCode).toBe(201);
      expect(created.json<{ username: string }>().username).toBe(name);
    }
    const blocked = await register('10.5.5.5', 'flood4');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<ApiErrorBody>()).toEqual({ message: 'Too many new accounts from this network. Please try again in an hour.' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login('10.9.9.9', 'flood4@example.nz', shopperDefaults.password)).statusCode).toBe(401);
  });

  it('still lets another IP register', async () => {
    const response = await register('10.5.5.6', 'neighbour');
    expect(response.statusCode).toBe(201);
  });

  it('cannot be dodged with a forged X-Forwarded-For when no proxy is trusted', async () => {
    const response = await register('10.5.5.5', 'flood5', { 'x-forwarded-for': '198.51.100.7' });
    expect(response.statusCode).toBe(429);
  });
});
