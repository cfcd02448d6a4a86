import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '../../../contracts/errors';
import type { Product } from '../../../contracts/product';
import { queryRows } from '../../db/client';
import { as, createTestShop, registerAndSignIn, signInAdmin, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let customer: string;
let admin: string;
let adminId: number;
beforeAll(async () => {
  shop = await createTestShop();
  customer = (await registerAndSignIn(shop.app)).cookie;
  const signedIn = await signInAdmin(shop);
  admin = signedIn.cookie;
  adminId = signedIn.user.id;
});
afterAll(async () => shop?.close());

const newMango = { name: 'Test Kesar', description: 'A box of mangoes made for testing.', price: 19.99, imageUrl: '/images/products/kesar.svg', category: 'Classic', stock: 8 };
const asAdmin = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) => as(shop.app, admin)({ method, url, ...(payload && { payload }) });
const create = (payload: Record<string, unknown>) => asAdmin('POST', '/api/products', payload);
const publicIds = async () => (await shop.app.inject({ method: 'GET', url: '/api/products' })).json<Product[]>().map((p) => p.id);

interface AuditRow extends Record<string, unknown> {
  action: string;
  entity: string;
  entity_id: string | null;
  actor_user_id: number | null;
  before: unknown;
  after: unknown;
  request_id: string | null;
}
const auditFor = (entityId: number) =>
  queryRows<AuditRow>(shop.database.db, sql`select * from audit_log where entity = 'product' and entity_id = ${String(entityId)} order by id`);

describe('who may write products', () => {
  it.each([
    ['POST', '/api/products'],
    ['PUT', '/api/products/1'],
    ['DELETE', '/api/products/1'],
  ] as const)('%s %s asks a visitor to sign in, and refuses a customer, before reading the body', async (method, url) => {
    const visitor = await shop.app.inject({ method, url, payload: { name: 'x' } });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json<ApiErrorBody>()).toEqual({ message: 'Please sign in to continue.' });
    const signedIn = await as(shop.app, customer)({ method, url, payload: { name: 'x' } });
    expect(signedIn.statusCode).toBe(403);
    expect(signedIn.json<ApiErrorBody>()).toEqual({ message: 'This needs an admin account.' });
    expect((await shop.app.inject({ method: 'GET', url: '/api/products/1' })).json<Product>().name).toBe('Alphonso Mangoes');
  });
});

describe('POST /api/products', () => {
  it('creates a product with the flag defaults and shows it in the public list at once', async () => {
    const response = await create(newMango);
    expect(response.statusCode).toBe(201);
    const product = response.json<Product>();
    expect(product).toEqual({
      ...newMango, id: product.id, rating: 0, isBestseller: false, isOrganic: false, isLowStock: false, isPreOrder: false,
      expectedAvailabilityDate: null, isHidden: false, boxInfo: null, preOrderLimit: null, preOrdersFull: false, preOrdersOpenAt: null, ripeningDays: null, daysAtBest: null,
      subscribable: false, subscriberDiscountPercent: 0, seasonEndsOn: null,
      image: { url: '/images/products/kesar.svg', width: 800, height: 600, widths: [] },
      origin: { countries: [], label: 'Country of origin not yet recorded' },
      treatment: { kinds: [], label: 'Treatment not yet recorded' },
      originSetting: { country: null, treatment: null },
    });
    expect(await publicIds()).toContain(product.id);
    const [audit] = await auditFor(product.id);
    expect(audit).toMatchObject({ action: 'product.create', actor_user_id: adminId, before: null });
    expect(audit!.request_id).toBe(response.headers['x-request-id']);
  });

  it('creates a pre-order with its expected availability date', async () => {
    const response = await create({ ...newMango, name: 'Pre Mango', stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-06-01' });
    expect(response.statusCode).toBe(201);
    expect(response.json<Product>()).toMatchObject({ isPreOrder: true, expectedAvailabilityDate: '2027-06-01' });
  });

  it('refuses a pre-order without a date', async () => {
    const response = await create({ ...newMango, isPreOrder: true });
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>().fieldErrors).toEqual({ expectedAvailabilityDate: 'A pre-order product needs an expected availability date' });
  });

  it('refuses an unknown field by name', async () => {
    const response = await create({ ...newMango, colour: 'gold' });
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'Unknown field: colour', fieldErrors: { colour: 'Unknown field: colour' } });
  });

  it.each([
    ['name', 'Name is required', undefined],
    ['name', 'Name must be at least 2 characters', ' A '],
    ['name', 'Name must be at most 120 characters', 'N'.repeat(121)],
    ['description', 'Description is required', undefined],
    ['description', 'Description must be at least 10 characters', 'Too short'],
    ['description', 'Description must be at most 4000 characters', 'd'.repeat(4001)],
    ['price', 'Price must be a number', '19.99'],
    ['price', 'Price must be more than $0.00', 0],
    ['price', 'Price must be more than $0.00', -5],
    ['price', 'Price must be at most $100,000.00', 100000.01],
    ['price', 'Price can have at most 2 decimals', 19.999],
    ['imageUrl', 'Image URL is required', undefined],
    ['imageUrl', 'Image URL is required', '  '],
    ['imageUrl', 'Image URL must be at most 500 characters', `/${'i'.repeat(500)}`],
    ['imageUrl', 'Image URL must be a shop path like /uploads/...: upload the picture', 'javascript:alert(1)'],
    ['imageUrl', 'Image URL must be a shop path like /uploads/...: upload the picture', 'http://example.com/m.png'],
    ['imageUrl', 'Image URL must be a shop path like /uploads/...: upload the picture', '//evil.example/m.png'],
    ['category', 'Category is required', undefined],
    ['category', 'Category is required', 'C'],
    ['category', 'Category must be at most 60 characters', 'c'.repeat(61)],
    ['rating', 'Rating must be a number', 'five'],
    ['rating', 'Rating must be between 0 and 5', 5.5],
    ['rating', 'Rating must be between 0 and 5', -1],
    ['rating', 'Rating can have at most 1 decimal', 4.55],
    ['stock', 'Stock must be a whole number', undefined],
    ['stock', 'Stock must be a whole number', 2.5],
    ['stock', 'Stock cannot be negative', -1],
    ['stock', 'Stock must be at most 1,000,000', 1_000_001],
    ['isBestseller', 'Must be true or false', 'yes'],
    ['isHidden', 'Must be true or false', 1],
    ['expectedAvailabilityDate', 'Expected availability must be a date (YYYY-MM-DD)', '10/06/2027'],
    ['expectedAvailabilityDate', 'Expected availability must be a real date', '2027-13-45'],
    ['boxInfo', 'Box info must be text', 12],
    ['boxInfo', 'Box info must be at most 100 characters', 'b'.repeat(101)],
    ['preOrderLimit', 'Pre-order limit must be a whole number', 2.5],
    ['preOrderLimit', 'Pre-order limit must be at least 1', 0],
    ['preOrderLimit', 'Pre-order limit is too large', 100_001],
  ])('refuses a bad %s with the message %j', async (field, message, value) => {
    const response = await create({ ...newMango, [field]: value });
    expect(response.statusCode).toBe(400);
    const body = response.json<ApiErrorBody>();
    expect(body.fieldErrors?.[field]).toBe(message);
    expect(typeof body.message).toBe('string');
  });

  it('refuses a calendar date that does not exist (30 February) with 400, not a database failure', async () => {
    const response = await create({ ...newMango, isPreOrder: true, expectedAvailabilityDate: '2027-02-30' });
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>().fieldErrors).toEqual({ expectedAvailabilityDate: 'Expected availability must be a real date' });
  });
});

describe('PUT /api/products/:id', () => {
  it('hides a product with only {isHidden: true}, and the public list drops it at once', async () => {
    expect(await publicIds()).toContain(3);
    const response = await asAdmin('PUT', '/api/products/3', { isHidden: true });
    expect(response.statusCode).toBe(200);
    expect(response.json<Product>()).toMatchObject({ id: 3, name: 'Banganapalli Mangoes', isHidden: true, price: 44.99 });
    expect(await publicIds()).not.toContain(3);
    expect((await shop.app.inject({ method: 'GET', url: '/api/products/3' })).statusCode).toBe(404);
    expect((await shop.app.inject({ method: 'GET', url: '/api/products?search=banganapalli' })).json<Product[]>()).toEqual([]);
  });

  it('shows it again with {isHidden: false}, and both are audited as hide and show', async () => {
    const response = await asAdmin('PUT', '/api/products/3', { isHidden: false });
    expect(response.statusCode).toBe(200);
    expect(await publicIds()).toContain(3);
    const actions = (await auditFor(3)).map((row) => row.action);
    expect(actions).toEqual(['product.hide', 'product.show']);
  });

  it('changes only the fields it is sent, and the public list and ETag follow', async () => {
    const etagBefore = (await shop.app.inject({ method: 'GET', url: '/api/products' })).headers.etag;
    const response = await asAdmin('PUT', '/api/products/8', { price: 36.5, stock: 7 });
    expect(response.statusCode).toBe(200);
    expect(response.json<Product>()).toMatchObject({ id: 8, name: 'Totapuri Mangoes', price: 36.5, stock: 7, category: 'Classic', rating: 4.1 });
    const list = await shop.app.inject({ method: 'GET', url: '/api/products' });
    expect(list.headers.etag).not.toBe(etagBefore);
    expect(list.json<Product[]>().find((p) => p.id === 8)).toMatchObject({ price: 36.5, stock: 7 });
    const [audit] = await auditFor(8);
    expect(audit).toMatchObject({ action: 'product.update', actor_user_id: adminId });
    expect(audit!.before).toMatchObject({ priceCents: 3499, stock: 60 });
    expect(audit!.after).toMatchObject({ priceCents: 3650, stock: 7 });
  });

  it('refuses to make a product a pre-order without a date, and to remove the date of a pre-order', async () => {
    const turned = await asAdmin('PUT', '/api/products/1', { isPreOrder: true });
    expect(turned.statusCode).toBe(400);
    expect(turned.json<ApiErrorBody>().fieldErrors).toEqual({ expectedAvailabilityDate: 'A pre-order product needs an expected availability date' });
    const undated = await asAdmin('PUT', '/api/products/4', { expectedAvailabilityDate: null });
    expect(undated.statusCode).toBe(400);
    expect((await shop.app.inject({ method: 'GET', url: '/api/products/4' })).json<Product>().expectedAvailabilityDate).toBe('2027-06-10');
  });

  it('refuses an empty update, an unknown field and a bad value', async () => {
    const empty = await asAdmin('PUT', '/api/products/1', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json<ApiErrorBody>().message).toBe('Send at least one product field');
    const unknown = await asAdmin('PUT', '/api/products/1', { isHidden: true, sku: 'A1' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<ApiErrorBody>().fieldErrors).toEqual({ sku: 'Unknown field: sku' });
    const negative = await asAdmin('PUT', '/api/products/1', { stock: -2 });
    expect(negative.statusCode).toBe(400);
    expect(negative.json<ApiErrorBody>().fieldErrors).toEqual({ stock: 'Stock cannot be negative' });
    expect(await publicIds()).toContain(1);
  });

  it('answers 404 for an unknown product', async () => {
    const response = await asAdmin('PUT', '/api/products/9999', { stock: 1 });
    expect(response.statusCode).toBe(404);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'Product not found' });
  });
});

describe('DELETE /api/products/:id', () => {
  it('deletes a product, audits it, and it is gone everywhere', async () => {
    const created = (await create({ ...newMango, name: 'Short-lived Mango' })).json<Product>();
    const response = await asAdmin('DELETE', `/api/products/${created.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'Product deleted' });
    expect((await shop.app.inject({ method: 'GET', url: `/api/products/${created.id}` })).statusCode).toBe(404);
    expect((await as(shop.app, admin)({ method: 'GET', url: `/api/products/${created.id}` })).statusCode).toBe(404);
    expect(await publicIds()).not.toContain(created.id);
    const actions = await auditFor(created.id);
    expect(actions.map((row) => row.action)).toEqual(['product.create', 'product.delete']);
    expect(actions[1]).toMatchObject({ actor_user_id: adminId, after: null, before: expect.objectContaining({ name: 'Short-lived Mango' }) });
  });

  it('answers 404 for a product already deleted or never made', async () => {
    const response = await asAdmin('DELETE', '/api/products/9999');
    expect(response.statusCode).toBe(404);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'Product not found' });
  });
});
