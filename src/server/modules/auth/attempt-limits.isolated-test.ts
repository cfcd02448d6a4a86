import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { as, createTestShop, registerAndSignIn, shopperDefaults, type TestShop } from '../../testing/test-app';
import * as passwords from './passwords';

/** Every password hash and check is counted: a limit must refuse before this work, never after. */
vi.mock('./passwords', async (importOriginal) => {
  const real = await importOriginal<typeof passwords>();
  return { hashPassword: vi.fn(real.hashPassword), verifyPassword: vi.fn(real.verifyPassword), verifyAgainstDecoy: vi.fn(real.verifyAgainstDecoy) };
});
const hashingWork = () =>
  vi.mocked(passwords.hashPassword).mock.calls.length +
  vi.mocked(passwords.verifyPassword).mock.calls.length +
  vi.mocked(passwords.verifyAgainstDecoy).mock.calls.length;

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop({ LOGIN_FAILS_PER_ACCOUNT: '10', LOGIN_FAILS_PER_IP: '1000', RESET_PASSWORD_PER_IP_PER_HOUR: '5' });
});
afterAll(async () => shop?.close());
beforeEach(() => vi.clearAllMocks());

const statusCounts = (responses: Array<{ statusCode: number }>) =>
  responses.reduce<Record<number, number>>((counts, { statusCode }) => ({ ...counts, [statusCode]: (counts[statusCode] ?? 0) + 1 }), {});

describe('POST /api/login under a parallel brute force on one account', () => {
  it('checks exactly 10 of 40 parallel wrong passwords and refuses the other 30 before hashing', async () => {
    await registerAndSignIn(shop.app, { username: 'parallel', email: 'parallel@example.nz' });
    vi.clearAllMocks();
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        shop.app.inject({ method: 'POST', url: '/api/login', remoteAddress: `10.9.${i}.1`, payload: { email: 'parallel@example.nz', password: `guess-${i}` } }),
      ),
    );
    expect(statusCounts(responses)).toEqual({ 401: 10, 429: 30 });
    expect(hashingWork()).toBe(10);
    const rightPassword = await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'parallel@example.nz', password: shopperDefaults.password } });
    expect(rightPassword.statusCode).toBe(429);
  });

  it('does not count successful sign-ins against the account', async () => {
    await registerAndSignIn(shop.app, { username: 'regular', email: 'regular@example.nz' });
    for (let i = 0; i < 15; i += 1) {
      const response = await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'regular@example.nz', password: shopperDefaults.password } });
      expect(response.statusCode).toBe(200);
    }
  });
});

describe('PUT /api/account/password under parallel wrong current passwords', () => {
  it('checks exactly 10 of 20 and refuses the other 10 before hashing', async () => {
    const { cookie } = await registerAndSignIn(shop.app, { username: 'changer', email: 'changer@example.nz' });
    vi.clearAllMocks();
    const call = as(shop.app, cookie);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call({ method: 'PUT', url: '/api/account/password', payload: { currentPassword: `wrong-${i}-x`, newPassword: 'pohutukawa-7' } })),
    );
    expect(statusCounts(responses)).toEqual({ 400: 10, 429: 10 });
    expect(hashingWork()).toBe(10);
  });
});

describe('POST /api/reset-password with made-up tokens', () => {
  it('looks the token up before hashing anything, and limits requests per IP', async () => {
    const made = (i: number) => `made-up-token-${String(i).padStart(8, '0')}-abcdefghijklmnop`;
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        shop.app.inject({ method: 'POST', url: '/api/reset-password', remoteAddress: '10.77.0.1', payload: { token: made(i), password: 'new-secret-9' } }),
      ),
    );
    expect(statusCounts(responses)).toEqual({ 400: 5, 429: 3 });
    const refused = responses.find((r) => r.statusCode === 429)!;
    expect(refused.json().message).toBe('Too many password reset attempts. Please try again in an hour.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(hashingWork()).toBe(0);
  });

  it('still hashes and saves the new password for a real token', async () => {
    await registerAndSignIn(shop.app, { username: 'resetter', email: 'resetter@example.nz' });
    await shop.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: 'resetter@example.nz' } });
    expect((await shop.mail()).at(-1)?.to).toBe('resetter@example.nz');
    const token = /reset-password\?token=([\w-]+)/.exec((await shop.mail()).at(-1)!.text)![1]!;
    vi.clearAllMocks();
    const reset = await shop.app.inject({ method: 'POST', url: '/api/reset-password', remoteAddress: '10.78.0.1', payload: { token, password: 'new-secret-9' } });
    expect(reset.statusCode).toBe(200);
    expect(vi.mocked(passwords.hashPassword)).toHaveBeenCalledTimes(1);
    const login = await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'resetter@example.nz', password: 'new-secret-9' } });
    expect(login.statusCode).toBe(200);
  });
});
