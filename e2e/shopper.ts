import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';
import { expect } from './fixtures';

export const shopperPassword = 'Cart-Journey-1';

/** Registers a shopper through the API. */
export async function registerShopper(request: APIRequestContext, username: string): Promise<{ email: string; password: string }> {
  const email = `${username}@example.nz`;
  const created = await request.post('/api/register', {
    data: { username, email, password: shopperPassword, firstName: 'Tama', lastName: 'Hohaia', phone: '022 123 4567', address: '21 Lambton Quay', city: '', postalCode: '', region: '' },
  });
  expect(created.status()).toBe(201);
  return { email, password: shopperPassword };
}

export const admin = { email: 'owner@mangoshop.co.nz', password: 'orchard-keys-2026' };

/** A request context of its own (own cookies), signed in as the shop's admin. */
export async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL });
  expect((await api.post('/api/login', { data: admin })).status()).toBe(200);
  return api;
}

/** A product made through the admin API for one journey; answers its id. */
export async function createProduct(api: APIRequestContext, data: Record<string, unknown>): Promise<number> {
  const created = await api.post('/api/products', { data });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: number }).id;
}

/** Signs in through the /auth page and waits for the header to show the signed-in state. */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('button', { name: 'Logout' }).first()).toBeVisible();
}

/** Registers a shopper, then signs them in through the /auth page. */
export async function registerAndSignIn(page: Page, request: APIRequestContext, username: string) {
  const { email, password } = await registerShopper(request, username);
  await signIn(page, email, password);
  await expect(page.getByRole('link', { name: username, exact: true })).toBeVisible();
}

/** Fills checkout's town, postcode and region. */
export async function fillCheckoutTown(page: Page, town: string, postcode: string, region: string) {
  await page.getByLabel('Town or city').fill(town);
  await page.getByLabel('Postcode').fill(postcode);
  await page.getByLabel('Region').selectOption(region);
}

/** Picks the soonest delivery day checkout offers (the first that is not greyed out); answers its date. */
export async function chooseFirstDeliveryDay(page: Page): Promise<string> {
  const day = page.getByRole('group', { name: 'Delivery day' }).getByRole('radio', { disabled: false }).first();
  await day.check();
  return (await day.getAttribute('value'))!;
}

/** The soonest delivery date offered to a region, as an order placed through the API sends it. */
export async function firstDeliveryDate(request: APIRequestContext, region: string, boxes = 1): Promise<string> {
  const answer = await request.get(`/api/delivery/dates?region=${encodeURIComponent(region)}&boxes=${boxes}`);
  expect(answer.status()).toBe(200);
  const { dates } = (await answer.json()) as { dates: Array<{ date: string; state: { available: boolean } }> };
  const first = dates.find((one) => one.state.available);
  expect(first, `a delivery date for ${region}`).toBeTruthy();
  return first!.date;
}

/**
 * A new shopper's order of `boxes` of the product through the API (Wellington, the first day
 * offered), marked paid by staff; answers its number and the shopper's sign-in.
 */
export async function paidOrder(request: APIRequestContext, api: APIRequestContext, productId: number, boxes: number, username: string): Promise<{ number: string; email: string; password: string }> {
  const shopper = await registerShopper(request, username);
  expect((await request.post('/api/login', { data: shopper })).status()).toBe(200);
  const me = (await (await request.get('/api/me')).json()) as { id: number };
  expect((await request.post(`/api/cart/${me.id}/items`, { data: { productId, quantity: boxes } })).status()).toBe(200);
  const placed = await request.post('/api/orders', {
    data: {
      idempotencyKey: `paid-${username}-0001`,
      deliveryDate: await firstDeliveryDate(request, 'Wellington', boxes),
      shipping: { name: 'Tama Hohaia', phone: '022 123 4567', street: '21 Lambton Quay', suburb: 'Te Aro', city: 'Wellington', postcode: '6011', region: 'Wellington' },
    },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  await request.post('/api/logout');
  const { number } = ((await placed.json()) as { order: { number: string } }).order;
  expect((await api.post(`/api/admin/orders/${number}/status`, { data: { status: 'paid' } })).status()).toBe(200);
  return { number, ...shopper };
}

/** Adds one box of a product from its page, as a signed-in shopper does, and waits for "Added!". */
export async function addFromProductPage(page: Page, productId: number) {
  await page.goto(`/product/${productId}`);
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Added!' })).toBeVisible();
}
