import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { formatOpening } from '../src/contracts/availability';
import { formatDateTime, nzWallTime } from '../src/contracts/dates';
import { expect, test } from './fixtures';
import { admin, adminApi, registerAndSignIn, signIn } from './shopper';

/** The shop's clock (it may run from a set day in the every-day runs), in ms. */
async function shopNow(request: APIRequestContext): Promise<number> {
  return Date.parse(((await (await request.get('/api/time')).json()) as { now: string }).now);
}

/** A pre-order variety of this journey's own, opening at `opensAt`. */
async function openingVariety(api: APIRequestContext, name: string, opensAt: string | null): Promise<number> {
  const response = await api.post('/api/products', {
    data: {
      name,
      description: 'A pre-order variety that opens at an announced time.',
      price: 62.5,
      imageUrl: '/images/products/chausa.svg',
      category: 'Seasonal',
      stock: 0,
      isPreOrder: true,
      expectedAvailabilityDate: '2027-06-10',
      preOrdersOpenAt: opensAt,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

async function shoot(page: Page, name: string, focus?: Locator) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await focus?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
}

/** An opening this many ms after the shop's clock, on a whole second. */
async function openingIn(request: APIRequestContext, ms: number): Promise<string> {
  return new Date(Math.ceil((await shopNow(request)) / 1000) * 1000 + ms).toISOString();
}

test('the countdown turns into Pre-Order Now at the opening without a reload, and the server held the line until then', async ({ page, request, baseURL }) => {
  test.slow();
  const api = await adminApi(baseURL!);
  const stamp = Date.now().toString(36);
  // One variety opens in ten minutes, for what a shopper sees before the opening; another opens
  // seconds after its page is shown, for the turn itself.
  const name = `Opening Chausa ${stamp}`;
  const opensAt = await openingIn(request, 10 * 60_000);
  const productId = await openingVariety(api, name, opensAt);
  try {
    await seeTheOpeningTurn(page, request, baseURL!, api, { stamp, name, opensAt, productId });
  } finally {
    // A countdown left on /shop would have every later visit there set its clock by the shop's.
    expect((await api.put(`/api/products/${productId}`, { data: { isHidden: true } })).ok(), 'the ten-minute variety hidden').toBe(true);
  }
});

async function seeTheOpeningTurn(
  page: Page,
  request: APIRequestContext,
  baseURL: string,
  api: APIRequestContext,
  { stamp, name, opensAt, productId }: { stamp: string; name: string; opensAt: string; productId: number },
) {
  await registerAndSignIn(page, request, `opener-${stamp}`);

  // The card on /shop: when, how long, and "Notify me" instead of "Pre-Order Now".
  await page.goto('/shop');
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
  await expect(card.getByText(`Opens ${formatOpening(opensAt)}`)).toBeVisible();
  await expect(card.getByRole('timer')).toHaveText(/^(10:00|09:\d\d)$/);
  await expect(card.getByRole('button', { name: `Pre-orders open later: notify me about ${name}` })).toBeVisible();
  await expect(card.getByRole('button', { name: `Pre-Order Now: ${name}` })).toHaveCount(0);
  await shoot(page, 'opening-card', card);

  // The product page, the same; the server refuses an early add whatever the browser shows.
  await page.goto(`/product/${productId}`);
  await expect(page.getByText(`Opens ${formatOpening(opensAt)}`)).toBeVisible();
  await expect(page.getByText('Pre-Orders Open Soon')).toBeVisible();
  await expect(page.getByRole('button', { name: `Notify me when pre-orders for ${name} open` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pre-Order Now', exact: true })).toHaveCount(0);
  await shoot(page, 'opening-product');
  const me = (await (await page.request.get('/api/me')).json()) as { id: number };
  const early = await page.request.post(`/api/cart/${me.id}/items`, { data: { productId, quantity: 1 }, headers: { origin: baseURL } });
  expect(early.status()).toBe(409);
  expect(((await early.json()) as { message: string }).message).toBe(`Pre-orders for ${name} open ${formatOpening(opensAt)}. Join the waitlist and we will e-mail you when they open.`);

  // The page turns by itself at the instant: the same document, never reloaded.
  const soonName = `Turning Chausa ${stamp}`;
  // Seconds enough for its page to load and be checked on a busy machine.
  const soonAt = await openingIn(request, 12_000);
  const soonId = await openingVariety(api, soonName, soonAt);
  await page.goto(`/product/${soonId}`);
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await expect(page.getByRole('button', { name: `Notify me when pre-orders for ${soonName} open` })).toBeVisible();
  await expect(page.getByRole('timer').filter({ hasText: /^00:\d\d$/ }).first()).toBeVisible();
  const soonEarly = await page.request.post(`/api/cart/${me.id}/items`, { data: { productId: soonId, quantity: 1 }, headers: { origin: baseURL } });
  expect(soonEarly.status(), 'refused before its opening').toBe(409);
  const preOrderNow = page.getByRole('button', { name: 'Pre-Order Now', exact: true });
  await expect(preOrderNow).toBeVisible({ timeout: 30_000 });
  expect(await shopNow(request)).toBeGreaterThanOrEqual(Date.parse(soonAt));
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await expect(page.getByText('Available for Pre-Order').first()).toBeVisible();
  await shoot(page, 'opening-turned');
  await preOrderNow.click();
  await expect(page.getByText('Pre-Order Placed', { exact: true })).toBeVisible();
  const cart = (await (await page.request.get(`/api/cart/${me.id}`)).json()) as { items: Array<{ productId: number; quantity: number }> };
  expect(cart.items).toEqual([expect.objectContaining({ productId: soonId, quantity: 1 })]);
}

test('staff set the opening in New Zealand time in the product editor, then open pre-orders now', async ({ page, request, baseURL }) => {
  const api = await adminApi(baseURL!);
  const name = `Editor Opening ${Date.now().toString(36)}`;
  const productId = await openingVariety(api, name, null);
  // Tomorrow at 7 pm on New Zealand's wall clock, as staff type it.
  const tomorrow = nzWallTime((await shopNow(request)) + 24 * 60 * 60 * 1000).slice(0, 10);
  const wall = `${tomorrow}T19:00`;

  await signIn(page, admin.email, admin.password);
  await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const editor = page.getByRole('dialog');
  const field = editor.getByLabel('Pre-orders open (New Zealand time)');
  await expect(field).toHaveValue('');
  await expect(editor.getByText('Empty: pre-orders are open as soon as you save.')).toBeVisible();
  await field.fill(wall);
  await expect(editor.getByRole('button', { name: 'Open pre-orders now instead' })).toBeVisible();
  await shoot(page, 'opening-editor', field);
  await editor.getByRole('button', { name: 'Save product' }).click();
  await expect(editor).toBeHidden();
  const saved = (await (await request.get(`/api/products/${productId}`)).json()) as { preOrdersOpenAt: string };
  expect(nzWallTime(saved.preOrdersOpenAt)).toBe(wall);
  expect(formatOpening(saved.preOrdersOpenAt)).toMatch(/ at 7:00 pm$/);
  // The product list says when, in New Zealand time.
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByText(`Opening ${formatDateTime(saved.preOrdersOpenAt)} (NZ)`)).toBeVisible();
  await shoot(page, 'opening-admin-list', row);

  // Open now: the field emptied, the product is open.
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  await expect(field).toHaveValue(wall);
  await editor.getByRole('button', { name: 'Open pre-orders now instead' }).click();
  await expect(field).toHaveValue('');
  await editor.getByRole('button', { name: 'Save product' }).click();
  await expect(editor).toBeHidden();
  expect(((await (await request.get(`/api/products/${productId}`)).json()) as { preOrdersOpenAt: string | null }).preOrdersOpenAt).toBeNull();
});
