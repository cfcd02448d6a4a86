import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '../../../contracts/errors';
import type { Product } from '../../../contracts/product';
import { as, createTestShop, signInCustomerAndAdmin, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let customer: string;
let admin: string;
beforeAll(async () => {
  shop = await createTestShop();
  ({ customer, admin } = await signInCustomerAndAdmin(shop));
});
afterAll(async () => shop?.close());

const get = (url: string, headers: Record<string, string> = {}) => shop.app.inject({ method: 'GET', url, headers });
const search = async (term: string) => {
  const response = await get(`/api/products?search=${encodeURIComponent(term)}`);
  expect(response.statusCode).toBe(200);
  return response.json<Product[]>().map((p) => p.id);
};

/** Spec 3: the product object, every field; `image` (its size and widths, decision 0012) and the pre-order fields are ours. */
const productKeys = [
  'boxInfo', 'category', 'daysAtBest', 'description', 'expectedAvailabilityDate', 'id', 'image', 'imageUrl', 'isBestseller', 'isHidden', 'isLowStock',
  'isOrganic', 'isPreOrder', 'name', 'preOrderLimit', 'preOrdersFull', 'preOrdersOpenAt', 'price', 'rating', 'ripeningDays', 'stock',
  // Where the boxes offered were grown and how treated, as the law asks every offer to say.
  'origin', 'treatment', 'originSetting',
  // Offered as a season box (docs/season-box.md).
  'subscribable', 'subscriberDiscountPercent', 'seasonEndsOn',
].sort();

describe('GET /api/products', () => {
  it('lists every visible product of the seeded catalogue in id order, without the hidden one', async () => {
    const response = await get('/api/products');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const products = response.json<Product[]>();
    expect(products.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14]);
    expect(products.every((p) => !p.isHidden)).toBe(true);
    expect(Object.keys(products[0]!).sort()).toEqual(productKeys);
  });

  it('answers prices in dollars with at most 2 decimals, ratings to 1 decimal', async () => {
    const products = (await get('/api/products')).json<Product[]>();
    expect(products[0]).toMatchObject({ id: 1, name: 'Alphonso Mangoes', price: 64.99, rating: 4.9 });
    expect(products.find((p) => p.id === 12)).toMatchObject({ price: 89.99, rating: 5, boxInfo: '6 Premium Alphonso Mangoes in a Gift Box' });
    for (const product of products) {
      expect(Math.round(product.price * 100) / 100).toBe(product.price);
      expect(Math.round(product.rating * 10) / 10).toBe(product.rating);
    }
  });

  it('answers the stock facts the badges need: low stock, out of stock and pre-orders', async () => {
    const byId = new Map((await get('/api/products')).json<Product[]>().map((p) => [p.id, p]));
    expect(byId.get(7)).toMatchObject({ name: 'Himsagar Mangoes', stock: 4, isLowStock: true, isPreOrder: false });
    expect(byId.get(9)).toMatchObject({ name: 'Neelam Mangoes', stock: 0, isLowStock: false, isPreOrder: false });
    expect(byId.get(4)).toMatchObject({ name: 'Dasheri Mangoes', stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-06-10' });
    expect(byId.get(1)).toMatchObject({ stock: 40, isLowStock: false });
  });

  it('sends an ETag and answers 304 with no body when If-None-Match matches it', async () => {
    const first = await get('/api/products');
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    const again = await get('/api/products', { 'if-none-match': String(etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const stale = await get('/api/products', { 'if-none-match': '"something-else"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.json<Product[]>()).toHaveLength(13);
  });
});

describe('GET /api/products?search=', () => {
  it('matches names case-insensitively', async () => {
    expect(await search('ALPHONSO')).toEqual([1, 12, 14]);
    expect(await search('himsagar')).toEqual([7]);
  });

  it('matches descriptions and categories too', async () => {
    expect(await search('Murshidabad')).toEqual([7]);
    expect(await search('gift box')).toEqual([12]);
    expect(await search('organic')).toEqual([2, 10, 11]);
  });

  it('never finds a hidden product', async () => {
    expect(await search('Amrapali')).toEqual([]);
  });

  it('answers every visible product for an empty or blank term', async () => {
    expect(await search('')).toHaveLength(13);
    expect(await search('   ')).toHaveLength(13);
  });

  it.each([
    ["' OR 1=1 --"],
    ['%'],
    ['_'],
    ['<script>alert(1)</script>'],
    ['"; drop table products; --'],
    ['🥭🥭🥭'],
  ])('treats %j as plain text and finds nothing', async (term) => {
    expect(await search(term)).toEqual([]);
    expect((await get('/api/products')).json<Product[]>()).toHaveLength(13);
  });

  it('matches accented text whatever its case', async () => {
    expect(await search('PURÉE')).toEqual([14]);
  });

  it('accepts a term of 100 characters and refuses 101 with a field message', async () => {
    expect(await search('m'.repeat(100))).toEqual([]);
    const response = await get(`/api/products?search=${'m'.repeat(101)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>()).toEqual({
      message: 'Search must be at most 100 characters',
      fieldErrors: { search: 'Search must be at most 100 characters' },
    });
  });

  it('refuses an unknown query parameter by name', async () => {
    const response = await get('/api/products?sort=price');
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>().fieldErrors).toEqual({ sort: 'Unknown field: sort' });
  });
});

describe('GET /api/products/:id', () => {
  it('answers one visible product in the spec shape', async () => {
    const response = await get('/api/products/7');
    expect(response.statusCode).toBe(200);
    const product = response.json<Product>();
    // Its own answer also says which harvest its next box comes from.
    expect(Object.keys(product).sort()).toEqual([...productKeys, 'nextHarvestedOn'].sort());
    expect(product).toMatchObject({ id: 7, name: 'Himsagar Mangoes', price: 52.99, stock: 4, isLowStock: true, category: 'Classic' });
  });

  it('hides a hidden product from visitors and customers with 404', async () => {
    const visitor = await get('/api/products/13');
    expect(visitor.statusCode).toBe(404);
    expect(visitor.json<ApiErrorBody>()).toEqual({ message: 'Product not found' });
    const signedIn = await as(shop.app, customer)({ method: 'GET', url: '/api/products/13' });
    expect(signedIn.statusCode).toBe(404);
    expect(signedIn.json<ApiErrorBody>()).toEqual({ message: 'Product not found' });
  });

  it('shows a hidden product to an admin', async () => {
    const response = await as(shop.app, admin)({ method: 'GET', url: '/api/products/13' });
    expect(response.statusCode).toBe(200);
    expect(response.json<Product>()).toMatchObject({ id: 13, name: 'Amrapali Mangoes', isHidden: true });
  });

  it('answers 404 for an id no product has', async () => {
    const response = await get('/api/products/9999');
    expect(response.statusCode).toBe(404);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'Product not found' });
  });

  it.each(['abc', '1.5', '0', '-3', '1e3x'])('answers 400 with a field message for the id %j', async (id) => {
    const response = await get(`/api/products/${id}`);
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>().fieldErrors).toEqual({ id: 'Product id must be a whole number' });
  });

  it('answers 400 for an id beyond the database range instead of failing', async () => {
    const response = await get('/api/products/99999999999');
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>().fieldErrors).toEqual({ id: 'Product id is out of range' });
  });
});

describe('GET /api/admin/products', () => {
  it('asks a visitor to sign in', async () => {
    const response = await get('/api/admin/products');
    expect(response.statusCode).toBe(401);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'Please sign in to continue.' });
  });

  it('refuses a customer with 403', async () => {
    const response = await as(shop.app, customer)({ method: 'GET', url: '/api/admin/products' });
    expect(response.statusCode).toBe(403);
    expect(response.json<ApiErrorBody>()).toEqual({ message: 'This needs an admin account.' });
  });

  it('lists every product for an admin, hidden ones included', async () => {
    const response = await as(shop.app, admin)({ method: 'GET', url: '/api/admin/products' });
    expect(response.statusCode).toBe(200);
    const products = response.json<Product[]>();
    expect(products.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(products.find((p) => p.id === 13)?.isHidden).toBe(true);
  });
});
