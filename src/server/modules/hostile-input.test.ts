import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { users } from '../db/schema';
import { quickShopper, testProduct } from '../testing/order-helpers';
import { as, createTestShop, signInAdmin, type TestShop } from '../testing/test-app';

/**
 * Every write route, from its schema, under junk: wrong types, huge strings, deep nesting,
 * prototype keys and broken JSON, as a visitor, a shopper and staff. None may answer 5xx, and
 * none may change what every object inherits.
 */
let shop: TestShop;
let productId: number;
let adminId: number;
beforeAll(async () => {
  shop = await createTestShop();
  productId = (await testProduct(shop, { name: 'Junk Kesar', stock: 5 })).id;
  adminId = (await signInAdmin(shop)).user.id;
});
afterAll(async () => shop?.close());

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function writeRoutes() {
  return shop.app.routeTable.filter((route) => writeMethods.has(route.method) && route.url.startsWith('/api/'));
}

/** A route's address with its parameters filled: real ids where they exist, so checks past the id are reached. */
function concrete(url: string, userId: number): string {
  return url
    .replace(':userId', String(userId))
    .replace(':productId', String(productId))
    .replace(':id', String(productId))
    .replace(':number', 'MS-10001')
    .replace(':slug', 'about-us')
    .replace(/:\w+/g, '1');
}

/**
 * A route's address as written and as the router also reaches it with a letter percent-encoded
 * (`/%61pi/register`): a guard keyed on the raw address would let the second past.
 */
function spellings(url: string): string[] {
  return [url, url.replace(/^\/api\//, '/%61pi/'), url.replace(/^\/api\/(\w)/, (_, letter: string) => `/api/%${letter.charCodeAt(0).toString(16)}`)];
}

/** The top-level fields a body schema names, so each can be sent the wrong thing. */
function fieldsOf(schema: unknown): string[] {
  const inner = unwrapped(schema);
  return inner instanceof z.ZodObject ? Object.keys(inner.shape) : [];
}

/** A schema's object, under the checks and transforms chained after it. */
function unwrapped(schema: unknown): unknown {
  let inner = schema;
  for (let depth = 0; depth < 5 && inner instanceof z.ZodPipe; depth += 1) inner = inner.in;
  return inner;
}

const deep = (depth: number): unknown => (depth === 0 ? 'bottom' : { next: deep(depth - 1) });
const wrongValues: unknown[] = [12345, -1, 1e308, true, null, [], [[[]]], {}, { $gt: '' }, 'x'.repeat(20_000), '\u0000\uffff\ud800', deep(200), ['a', 1, null]];

/** The junk each route is sent: as raw text with a content type, or as JSON. */
function junkFor(fields: string[]): Array<{ label: string; payload: string; contentType: string }> {
  const json = (label: string, value: unknown) => ({ label, payload: JSON.stringify(value), contentType: 'application/json' });
  const bodies = [
    { label: 'broken JSON', payload: '{"name": "Kesar",', contentType: 'application/json' },
    { label: 'not JSON at all', payload: '\u0000\u0001<xml/>', contentType: 'application/json' },
    { label: 'a form post', payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
    { label: 'text', payload: 'hello', contentType: 'text/plain' },
    { label: 'a broken multipart body', payload: '--x\r\ncontent-disposition: form-data; name="claim"\r\n\r\n{', contentType: 'multipart/form-data; boundary=x' },
    json('an array', [1, 2, 3]),
    json('a string', 'Kesar'),
    json('a number', 42),
    json('null', null),
    json('deep nesting', deep(2_000)),
    { label: 'prototype keys', payload: '{"__proto__": {"isAdmin": true, "polluted": 1}, "constructor": {"prototype": {"polluted": 1}}}', contentType: 'application/json' },
  ];
  for (const field of fields) {
    for (const value of wrongValues) bodies.push(json(`${field} = ${JSON.stringify(value)?.slice(0, 20)}`, { [field]: value }));
    bodies.push({ label: `${field} under __proto__`, payload: `{"__proto__": {"${field}": 1}, "${field}": {"__proto__": {"polluted": 1}}}`, contentType: 'application/json' });
  }
  return bodies;
}

describe('hostile input on every write route', () => {
  it('finds the write routes, staff and shoppers both', () => {
    const names = writeRoutes().map((route) => `${route.method} ${route.url}`);
    for (const name of ['POST /api/register', 'POST /api/orders', 'POST /api/admin/claims/:id/approve', 'PUT /api/admin/settings', 'POST /api/products']) expect(names).toContain(name);
    expect(names.length).toBeGreaterThanOrEqual(40);
  });

  it('never answers 5xx, whoever sends it, and pollutes no prototype', async () => {
    const failures: string[] = [];
    const admins = async () => (await shop.database.db.select({ isAdmin: users.isAdmin }).from(users)).filter((row) => row.isAdmin).length;
    for (const who of ['visitor', 'shopper', 'staff'] as const) {
      for (const route of writeRoutes()) {
        // A fresh session for each route: a junk sign-out or account deletion on one route must not blind the next.
        const shopper = await quickShopper(shop, 'junk');
        const call = who === 'visitor' ? shop.app.inject.bind(shop.app) : who === 'shopper' ? shopper.call : as(shop.app, `mango_session=${(await shop.app.services.sessions.create(adminId)).token}`);
        const userId = who === 'staff' ? adminId : shopper.user.id;
        for (const url of spellings(concrete(route.url, userId))) {
          for (const junk of junkFor(fieldsOf(route.bodySchema))) {
            const answer = await call({ method: route.method as 'POST', url, payload: junk.payload, headers: { 'content-type': junk.contentType }, remoteAddress: '10.66.0.1' });
            if (answer.statusCode >= 500) failures.push(`${who} ${route.method} ${url} with ${junk.label}: ${answer.statusCode} ${answer.body.slice(0, 200)}`);
          }
        }
      }
      // Nobody but staff can make an admin (staff may, on the customers screen: junk can say true).
      if (who !== 'staff') expect(await admins(), `admins after the ${who}'s junk`).toBe(1);
    }
    expect(failures).toEqual([]);
    const plain: Record<string, unknown> = {};
    expect(plain.polluted).toBeUndefined();
    expect(plain.isAdmin).toBeUndefined();
  }, 300_000);

  it('never answers 5xx to junk in the address of a read, whoever sends it', async () => {
    const failures: string[] = [];
    const queries = ['q=%00', 'search=%00x', 'date=%00', 'status=%ED%A0%80', 'page=-1&limit=1e999', 'a[b][c]=1', '__proto__[polluted]=1', `q=${'x'.repeat(5000)}`, 'category=&sort=&from=2027-02-30&to=x'];
    const shopper = await quickShopper(shop, 'reader');
    const staffSession = await shop.app.services.sessions.create(adminId);
    const reads = shop.app.routeTable.filter((route) => route.method === 'GET' && route.url.startsWith('/api/'));
    for (const route of reads) {
      for (const [who, call, userId] of [
        ['shopper', shopper.call, shopper.user.id],
        ['staff', as(shop.app, `mango_session=${staffSession.token}`), adminId],
      ] as const) {
        for (const url of spellings(concrete(route.url, userId))) {
          for (const query of queries) {
            const answer = await call({ method: 'GET', url: `${url}?${query}` });
            if (answer.statusCode >= 500) failures.push(`${who} GET ${url}?${query.slice(0, 40)}: ${answer.statusCode} ${answer.body.slice(0, 200)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 300_000);

  it('refuses a date outside the years 2000-2099 with its field\'s message, on every route that takes one', async () => {
    const failures: string[] = [];
    const staff = as(shop.app, `mango_session=${(await shop.app.services.sessions.create(adminId)).token}`);
    // Year 0 (PostgreSQL has none), years 0-99 (JavaScript reads them as 1900-1999), and year 9999.
    const days = ['0000-01-01', '0099-12-31', '1999-12-31', '2100-01-01', '9999-12-31'];
    const months = ['0000-01', '0099-06', '9999-12'];
    const instants = ['0000-01-01T00:00:00Z', '0099-06-01T12:00:00+13:00', '9999-12-31T23:59:59Z'];
    const dateFields = new Set<string>();
    for (const route of shop.app.routeTable.filter((r) => r.url.startsWith('/api/'))) {
      const url = concrete(route.url, adminId);
      const inQuery = route.method === 'GET';
      for (const field of fieldsOf(inQuery ? route.querySchema : route.bodySchema)) {
        for (const value of [...days, ...months, ...instants]) {
          const answer = inQuery
            ? await staff({ method: 'GET', url: `${url}?${field}=${encodeURIComponent(value)}` })
            : await staff({ method: route.method as 'POST', url, payload: { [field]: value } });
          if (answer.statusCode >= 500) failures.push(`${route.method} ${route.url} ${field}=${value}: ${answer.statusCode}`);
          const fieldMessage = answer.statusCode === 400 ? (answer.json() as { fieldErrors?: Record<string, string> }).fieldErrors?.[field] : undefined;
          if (fieldMessage?.includes('between 2000 and 2099')) dateFields.add(`${route.method} ${route.url} ${field}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The staff dates each route names, refused with the field's own message.
    for (const name of [
      'GET /api/admin/orders from',
      'GET /api/admin/orders to',
      'GET /api/admin/dispatch date',
      'GET /api/admin/dispatch.csv date',
      'GET /api/admin/exports/xero-invoices.csv from',
      'GET /api/admin/reports from',
      'GET /api/admin/reports/gst-return ending',
      'GET /api/admin/reports/gst-return.csv ending',
      'POST /api/admin/inventory/:productId/batches harvestedOn',
      'POST /api/admin/inventory/:productId/batches bestBefore',
      'POST /api/products expectedAvailabilityDate',
      'POST /api/products preOrdersOpenAt',
      'POST /api/admin/promo-codes startsAt',
    ]) {
      expect([...dateFields], name).toContain(name);
    }
  }, 300_000);
});
