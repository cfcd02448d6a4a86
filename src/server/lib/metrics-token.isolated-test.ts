import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestShop, type TestShop } from '../testing/test-app';

/** Every constant-time comparison the shop makes, with the lengths it compared. */
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof crypto>();
  const timingSafeEqual = vi.fn(real.timingSafeEqual);
  return { ...real, default: { ...real, timingSafeEqual }, timingSafeEqual };
});

const token = 'scrape-me-0123456789abcdef';
let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop({ METRICS_TOKEN: token });
});
afterAll(async () => shop?.close());

describe('the metrics token', () => {
  it('is compared in full at one length, whatever length is sent: the time taken tells nothing of it', async () => {
    for (const given of ['x', token.slice(0, -1), `${token}x`, 'y'.repeat(500), token.replace('s', 't')]) {
      vi.mocked(crypto.timingSafeEqual).mockClear();
      const answer = await shop.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${given}` } });
      expect(answer.statusCode, given.slice(0, 20)).toBe(401);
      const compared = vi.mocked(crypto.timingSafeEqual).mock.calls;
      expect(compared.length, `comparisons for ${given.slice(0, 20)}`).toBe(1);
      expect(compared.map(([a, b]) => [a.byteLength, b.byteLength])).toEqual([[32, 32]]);
    }
  });

  it('is taken after the Bearer scheme written in any case', async () => {
    for (const authorization of [`Bearer ${token}`, `bearer ${token}`, `BEARER ${token}`, `BeArEr  ${token}`]) {
      expect((await shop.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } })).statusCode, authorization).toBe(200);
    }
    for (const authorization of [`Bearer${token}`, `Basic ${token}`, `Bearer ${token} extra`, `Bearer`]) {
      expect((await shop.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } })).statusCode, authorization).toBe(401);
    }
  });
});
