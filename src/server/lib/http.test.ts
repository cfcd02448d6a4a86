import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '../../contracts/errors';
import { createTestShop, shopperDefaults, type TestShop } from '../testing/test-app';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(async () => shop?.close());

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const wrongLogin = { email: 'nobody@example.nz', password: 'not-a-password' };
const postLogin = (headers: Record<string, string>, payload: unknown = wrongLogin) =>
  shop.app.inject({ method: 'POST', url: '/api/login', headers, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });
const json = { 'content-type': 'application/json' };

describe('GET /healthz and GET /readyz', () => {
  it('answers that the process is up and the database reachable', async () => {
    const health = await shop.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json<unknown>()).toEqual({ status: 'ok' });
    const ready = await shop.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json<unknown>()).toEqual({ status: 'ready' });
  });
});

describe('unknown API paths', () => {
  it.each([
    ['GET', '/api/nothing-here'],
    ['GET', '/api/products/1/reviews/everything'],
    ['POST', '/api/orders-of-the-future'],
    ['GET', '/api'],
  ] as const)('answers %s %s with a JSON 404 and a message', async (method, url) => {
    const response = await shop.app.inject({ method, url, ...(method === 'POST' && { payload: {} }) });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json<ApiErrorBody>()).toEqual({ message: `No such endpoint: ${method} ${url}` });
  });
});

describe('request bodies', () => {
  it('refuses a text/plain body with 415 and a message', async () => {
    const response = await postLogin({ 'content-type': 'text/plain' });
    expect(response.statusCode).toBe(415);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'Send the request body as JSON (Content-Type: application/json).' });
  });

  it('refuses a form-encoded body with 415 and a message', async () => {
    const response = await postLogin({ 'content-type': 'application/x-www-form-urlencoded' }, 'email=a%40b.nz&password=secret1');
    expect(response.statusCode).toBe(415);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'Send the request body as JSON (Content-Type: application/json).' });
  });

  it('refuses invalid JSON with 400 and a message', async () => {
    const response = await postLogin(json, '{"email": "a@b.nz",');
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('refuses an empty JSON body with 400 and a message', async () => {
    const response = await postLogin(json, '');
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'The request body is empty; send a JSON object.' });
  });

  it('refuses a body over 256 KB with 413 and a message', async () => {
    const response = await postLogin(json, { ...wrongLogin, padding: 'm'.repeat(257 * 1024) });
    expect(response.statusCode).toBe(413);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'The request body is too large.' });
  });
});

describe('requests from another site (difference 9)', () => {
  const refused = { message: 'This request came from another site and was refused.' };

  it('refuses a POST whose Origin is another site', async () => {
    const response = await postLogin({ ...json, origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(response.json<ApiErrorBody>()).toEqual(refused);
  });

  it.each(['cross-site', 'same-site'])('refuses a POST marked Sec-Fetch-Site: %s', async (site) => {
    const response = await postLogin({ ...json, 'sec-fetch-site': site });
    expect(response.statusCode).toBe(403);
    expect(response.json<ApiErrorBody>()).toEqual(refused);
  });

  it('refuses a cross-site registration and creates no account', async () => {
    const details = { ...shopperDefaults, username: 'csrfed', email: 'csrfed@example.nz' };
    const response = await shop.app.inject({ method: 'POST', url: '/api/register', headers: { origin: 'https://evil.example' }, payload: details });
    expect(response.statusCode).toBe(403);
    const login = await postLogin(json, { email: details.email, password: details.password });
    expect(login.statusCode).toBe(401);
  });

  it('refuses a cross-site POST sent to a percent-encoded /api path as well', async () => {
    const details = { ...shopperDefaults, username: 'encoded', email: 'encoded@example.nz' };
    const response = await shop.app.inject({ method: 'POST', url: '/%61pi/register', headers: { origin: 'https://evil.example' }, payload: details });
    expect(response.statusCode).toBe(403);
    expect(response.json<ApiErrorBody>()).toEqual(refused);
  });

  it('lets a POST from our own origin through', async () => {
    // Under inject the Host is localhost:80, so our own origin is http://localhost:80.
    const response = await postLogin({ ...json, origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' });
    expect(response.statusCode).toBe(401);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'Invalid email or password' });
  });

  it('lets a POST with neither header through (not a browser, so no ambient cookies)', async () => {
    const response = await postLogin(json);
    expect(response.statusCode).toBe(401);
  });

  it('keeps reads open to other sites', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/products/1', headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ id: number }>().id).toBe(1);
  });
});

describe('security headers', () => {
  it.each(['/robots.txt', '/sitemap.xml', '/api/newsletter/unsubscribe?token=not-a-token'])('are all set on %s, which is not JSON', async (url) => {
    const response = await shop.app.inject({ method: 'GET', url });
    expect(String(response.headers['content-type'])).not.toMatch(/^application\/json/);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(response.headers['permissions-policy']).toContain('camera=()');
  });

  it.each(['/api/products', '/api/products/1', '/api/nothing-here'])('on %s, a JSON answer, are those that protect JSON, and a policy that lets nothing load', async (url) => {
    const response = await shop.app.inject({ method: 'GET', url });
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(response.headers['permissions-policy']).toBeUndefined();
  });

  it('allow GA4 and the Meta pixel to load and report, and no other outside host', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/robots.txt' });
    const directives = new Map(
      String(response.headers['content-security-policy'])
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name = '', ...sources]) => [name, sources]),
    );
    const outside = (name: string) => (directives.get(name) ?? []).filter((source) => source.startsWith('https://')).sort();
    expect(outside('script-src')).toEqual(['https://connect.facebook.net', 'https://www.googletagmanager.com']);
    expect(outside('connect-src')).toEqual([
      'https://*.analytics.google.com',
      'https://*.google-analytics.com',
      'https://connect.facebook.net',
      'https://www.facebook.com',
      'https://www.googletagmanager.com',
    ]);
    expect(outside('img-src')).toEqual(['https://*.google-analytics.com', 'https://www.facebook.com', 'https://www.googletagmanager.com']);
    expect(outside('frame-src')).toEqual([]);
    expect(outside('default-src')).toEqual([]);
  });
});

describe('x-request-id', () => {
  it('is set on every answer', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/healthz' });
    expect(String(response.headers['x-request-id'])).toMatch(uuid);
  });

  it('reuses a sane incoming id', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'lb-2026.11_abc-42' } });
    expect(response.headers['x-request-id']).toBe('lb-2026.11_abc-42');
  });

  it.each([['with spaces and <html>'], ['x'.repeat(65)], ['id\u00e9'], ['']])('replaces an insane incoming id %j with a new one', async (given) => {
    const response = await shop.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': given } });
    expect(String(response.headers['x-request-id'])).toMatch(uuid);
  });
});

describe('a failure on our side', () => {
  let broken: TestShop;
  beforeAll(async () => {
    broken = await createTestShop();
    await broken.database.close();
  });
  afterAll(async () => {
    // The database is closed already and closing it twice throws, which is not what these tests are about.
    await broken?.close().catch(() => undefined);
    if (broken) await fs.rm(broken.config.dataDir, { recursive: true, force: true });
  });

  it('answers 500 with only a message and the request id, never a stack or SQL', async () => {
    const response = await broken.app.inject({ method: 'GET', url: '/api/products?search=alphonso' });
    expect(response.statusCode).toBe(500);
    const body = response.json<ApiErrorBody>();
    expect(Object.keys(body)).toEqual(['message']);
    expect(body.message).toBe(`Something went wrong on our side. Please try again. (Reference: ${String(response.headers['x-request-id'])})`);
    expect(response.body).not.toMatch(/\n\s+at |\bat .+:\d+:\d+|select |from "|PGlite|Error:/i);
  });

  it('reports the database as unreachable on /readyz with 503, and /healthz still answers', async () => {
    const ready = await broken.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json<{ message: string }>().message).toBe('The database cannot be reached.');
    expect((await broken.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
