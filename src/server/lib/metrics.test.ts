import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickShopper, testProduct } from '../testing/order-helpers';
import { createTestShop, type TestShop } from '../testing/test-app';

const token = 'scrape-me-0123456789abcdef';
let shop: TestShop;
let plain: TestShop;

beforeAll(async () => {
  [shop, plain] = await Promise.all([createTestShop({ METRICS_TOKEN: token }), createTestShop()]);
});
afterAll(async () => {
  await Promise.all([shop.close(), plain.close()]);
});

async function scrape(): Promise<string> {
  const response = await shop.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
  expect(response.statusCode).toBe(200);
  return response.body;
}

/** One sample's value, by its name and labels as Prometheus writes them. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('is off without METRICS_TOKEN, and asks for the token as a bearer, never cached', async () => {
    // Not there: the address falls to the pages (404 in a built shop; this one has no web app).
    const off = await plain.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect([404, 503]).toContain(off.statusCode);
    expect(off.body).not.toContain('mango_');
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${token}`, `Bearer ${token}x`]) {
      const refused = await shop.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(refused.statusCode, authorization).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(refused.body).not.toContain('mango_');
    }
    const answered = await shop.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(answered.statusCode).toBe(200);
    expect(answered.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answered.headers['cache-control']).toBe('no-store');
  });

  it('counts requests by route and status, orders placed and refused, mail waiting, the database and the process', async () => {
    const before = await scrape();
    const listed = (text: string) => sample(text, 'mango_http_requests_total{method="GET",route="/api/products",status="200"}') ?? 0;
    const placed = (text: string) => sample(text, 'mango_orders_placed_total') ?? 0;
    const soldOut = (text: string) => sample(text, 'mango_orders_refused_total{status="409"}') ?? 0;
    const queries = (text: string) => sample(text, 'mango_db_query_seconds_count') ?? 0;
    await shop.app.inject({ method: 'GET', url: '/api/products' });
    await shop.app.inject({ method: 'GET', url: '/api/products' });
    await shop.app.inject({ method: 'GET', url: '/api/products/999999' });
    await shop.mail();

    const product = await testProduct(shop, { stock: 1 });
    const first = await quickShopper(shop, 'metered');
    const second = await quickShopper(shop, 'metered');
    await first.add(product.id, 1);
    await second.add(product.id, 1);
    const key = `metrics-${Date.now()}-0123456789`;
    expect((await first.order({ idempotencyKey: key })).statusCode).toBe(201);
    // The same order key again: the same order, counted neither as placed nor as refused.
    expect((await first.order({ idempotencyKey: key })).statusCode).toBe(200);
    expect((await second.order()).statusCode).toBe(409);

    const after = await scrape();
    expect(listed(after) - listed(before)).toBe(2);
    expect(sample(after, 'mango_http_requests_total{method="GET",route="/api/products/:id",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(placed(after) - placed(before)).toBe(1);
    expect(soldOut(after) - soldOut(before)).toBe(1);
    expect(after).not.toMatch(/mango_orders_refused_total\{status="200"\}/);
    expect(sample(after, 'mango_http_request_duration_seconds_count{method="POST",route="/api/orders"}')).toBeGreaterThanOrEqual(2);
    expect(queries(after)).toBeGreaterThan(queries(before));
    expect(sample(after, 'mango_db_wait_seconds_count')).toBeGreaterThan(0);
    expect(sample(after, 'mango_db_waiting')).toBe(0);
    expect(sample(after, 'mango_db_up')).toBe(1);
    // The confirmation waits in the outbox until the worker sends it.
    expect(sample(after, 'mango_mail_waiting')).toBe(1);
    expect(sample(after, 'mango_mail_given_up_last_day')).toBe(0);
    await shop.mail();
    expect(sample(await scrape(), 'mango_mail_waiting')).toBe(0);
    expect(after).toMatch(/^mango_page_cache_hits_total \d+$/m);
    expect(sample(after, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(after).toMatch(/^nodejs_eventloop_lag_p99_seconds /m);
  });
});
