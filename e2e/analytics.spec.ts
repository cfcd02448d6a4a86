import type { APIRequestContext, Page, Request } from '@playwright/test';
import { expect, test } from './fixtures';
import { resetTokenMailedTo } from './mailbox';
import { admin, chooseFirstDeliveryDay, fillCheckoutTown, registerAndSignIn, registerShopper } from './shopper';

const ids = { gaTrackingId: 'G-MANGO2026', metaPixelId: '2026112233' };
const analyticsHosts = /^https:\/\/(www\.googletagmanager\.com|connect\.facebook\.net)\//;

/** What the page's window holds for these journeys: the tools' globals and the stand-ins' records. */
interface TrackedWindow {
  dataLayer?: ArrayLike<unknown>[];
  gtag?: unknown;
  fbq?: unknown;
  __pixelCalls?: unknown[][];
  __gtagLoaded?: boolean;
  __samePage?: boolean;
  __addressesRead?: string[];
}

async function setAnalyticsIds(request: APIRequestContext, analytics: typeof ids) {
  const login = await request.post('/api/login', { data: admin });
  expect(login.status()).toBe(200);
  const current = await (await request.get('/api/admin/settings')).json();
  const saved = await request.put('/api/admin/settings', { data: { ...current, analytics } });
  expect(saved.status()).toBe(200);
}

/**
 * The machine is offline: both scripts are answered with stand-ins. gtag.js leaves the page's own
 * dataLayer to read; the fbevents.js stand-in records the pixel's queue and every later call. Like
 * the real tools, which read document.location for their events, both note the address each time
 * they would send something.
 */
async function stubAnalyticsScripts(page: Page) {
  const noteAddress = '(window.__addressesRead = window.__addressesRead || []).push(document.location.href);';
  await page.route('https://www.googletagmanager.com/**', (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: `(function () {
        window.__gtagLoaded = true;
        ${noteAddress}
        var dataLayer = window.dataLayer;
        var push = dataLayer.push;
        dataLayer.push = function () { ${noteAddress} return push.apply(dataLayer, arguments); };
      })();`,
    }),
  );
  await page.route('https://connect.facebook.net/**', (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: `(function () {
        var fbq = window.fbq;
        ${noteAddress}
        window.__pixelCalls = fbq.queue.map(function (args) { return Array.from(args); });
        fbq.callMethod = function () { ${noteAddress} window.__pixelCalls.push(Array.from(arguments)); };
      })();`,
    }),
  );
}

const gaHits = (page: Page) =>
  page.evaluate(() => ((window as unknown as TrackedWindow).dataLayer ?? []).map((hit) => Array.from(hit)));
const pixelCalls = (page: Page) => page.evaluate(() => (window as unknown as TrackedWindow).__pixelCalls ?? []);
const gaPageViews = async (page: Page) => (await gaHits(page)).filter((hit) => hit[1] === 'page_view').map((hit) => (hit[2] as { page_path: string }).page_path);
const pixelEvents = async (page: Page, name: string) => (await pixelCalls(page)).filter((call) => call[0] === 'track' && call[1] === name);
const addressesRead = (page: Page) => page.evaluate(() => (window as unknown as TrackedWindow).__addressesRead ?? []);

/** Everything either tool was given or could read that holds the secret or any query string. */
async function leaksOf(page: Page, secret: string): Promise<string[]> {
  const seen = [...(await gaHits(page)), ...(await pixelCalls(page)), ...(await addressesRead(page))].map((item) => JSON.stringify(item));
  return seen.filter((text) => text.includes(secret) || text.includes('?'));
}

test.describe('with both analytics ids set', () => {
  test.beforeEach(async ({ page, request }) => {
    await setAnalyticsIds(request, ids);
    await stubAnalyticsScripts(page);
  });
  test.afterEach(async ({ request }) => setAnalyticsIds(request, { gaTrackingId: '', metaPixelId: '' }));

  test('a visit reports a page view for the first page and for each client-side route change', async ({ page }) => {
    await page.goto('/');
    await expect.poll(() => gaPageViews(page)).toEqual(['/']);
    await expect.poll(async () => (await pixelEvents(page, 'PageView')).length).toBe(1);
    const gaSetup = (await gaHits(page)).slice(0, 2);
    expect(gaSetup).toEqual([['js', expect.any(Object)], ['config', ids.gaTrackingId, { send_page_view: false }]]);
    expect((await pixelCalls(page))[0]).toEqual(['init', ids.metaPixelId]);
    expect(await page.evaluate(() => (window as unknown as TrackedWindow).__gtagLoaded)).toBe(true);

    await page.evaluate(() => ((window as unknown as TrackedWindow).__samePage = true));
    await page.getByRole('link', { name: 'Shop Now' }).click();
    await expect(page).toHaveURL(/\/shop$/);
    await expect.poll(() => gaPageViews(page)).toEqual(['/', '/shop']);
    await expect.poll(async () => (await pixelEvents(page, 'PageView')).length).toBe(2);
    expect(await page.evaluate(() => (window as unknown as TrackedWindow).__samePage)).toBe(true);
  });

  test('a signed-in shopper who adds a mango to the cart is reported with its value in NZD', async ({ page, request }) => {
    await registerAndSignIn(page, request, 'hemi');
    await page.goto('/product/1');
    const details = page.getByRole('article').filter({ has: page.getByRole('heading', { level: 1, name: 'Alphonso Mangoes' }) });
    await details.getByRole('button', { name: 'Increase quantity' }).click();
    await details.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await expect(page.getByText('Added to Cart').first()).toBeVisible();
    await expect
      .poll(() => pixelEvents(page, 'AddToCart'))
      .toEqual([
        ['track', 'AddToCart', { content_ids: ['1'], content_name: 'Alphonso Mangoes', content_type: 'product', contents: [{ id: '1', quantity: 2 }], value: 129.98, currency: 'NZD' }],
      ]);
  });

  test('checkout reports InitiateCheckout, and the success page reports purchase and Purchase once', async ({ page, request }) => {
    await registerAndSignIn(page, request, 'rangi');
    const me = (await (await page.request.get('/api/me')).json()) as { id: number };
    expect((await page.request.post(`/api/cart/${me.id}/items`, { data: { productId: 8, quantity: 2 } })).status()).toBe(200);
    await page.goto('/checkout');
    const contents = [{ id: '8', quantity: 2 }];
    await expect
      .poll(() => pixelEvents(page, 'InitiateCheckout'))
      .toEqual([['track', 'InitiateCheckout', { content_ids: ['8'], content_type: 'product', contents, num_items: 2, value: 81.98, currency: 'NZD' }]]);

    await fillCheckoutTown(page, 'Rotorua', '3010', 'Bay of Plenty');
    await chooseFirstDeliveryDay(page);
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
    const number = (await page.getByText(/Your order number is/).locator('strong').textContent())!;
    const purchases = async () => (await gaHits(page)).filter((hit) => hit[0] === 'event' && hit[1] === 'purchase');
    await expect
      .poll(purchases)
      .toEqual([
        ['event', 'purchase', { transaction_id: number, value: 81.98, currency: 'NZD', items: [{ item_id: '8', item_name: 'Totapuri Mangoes', price: 34.99, quantity: 2 }] }],
      ]);
    await expect
      .poll(() => pixelEvents(page, 'Purchase'))
      .toEqual([['track', 'Purchase', { value: 81.98, currency: 'NZD', content_ids: ['8'], content_type: 'product', contents }, { eventID: `order-${number}` }]]);

    // Coming back to the success page is not a second sale.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
    await expect.poll(() => gaPageViews(page)).toEqual(['/success']);
    expect(await purchases()).toEqual([]);
    expect(await pixelEvents(page, 'Purchase')).toEqual([]);
  });

  test('a password reset link loses its token before either tool starts, and the reset still works after a reload', async ({ page, request }) => {
    const { email } = await registerShopper(request, 'ngaio');
    expect((await request.post('/api/forgot-password', { data: { email } })).status()).toBe(200);
    await expect.poll(() => resetTokenMailedTo(email)).not.toBe('');
    const token = resetTokenMailedTo(email);
    const toolRequests: Request[] = [];
    page.on('request', (sent) => {
      if (analyticsHosts.test(sent.url())) toolRequests.push(sent);
    });

    await page.goto(`/reset-password?token=${token}`);
    await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
    await expect(page).toHaveURL(/\/reset-password$/);
    await expect.poll(() => gaPageViews(page)).toEqual(['/reset-password']);
    await expect.poll(async () => (await pixelEvents(page, 'PageView')).length).toBe(1);
    await expect.poll(async () => (await addressesRead(page)).length).toBeGreaterThanOrEqual(2);
    expect(await leaksOf(page, token)).toEqual([]);

    // The same tab, reloaded without the token in its address, can still use the link.
    await page.reload();
    await expect(page).toHaveURL(/\/reset-password$/);
    await page.getByLabel('New password', { exact: true }).fill('ripe-kesar-2027');
    await page.getByLabel('Confirm new password').fill('ripe-kesar-2027');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByText('Your password has been changed.')).toBeVisible();
    await expect.poll(() => gaPageViews(page)).toEqual(['/reset-password']);
    await expect.poll(async () => (await addressesRead(page)).length).toBeGreaterThanOrEqual(2);
    expect(await leaksOf(page, token)).toEqual([]);
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(token);

    expect(toolRequests.length).toBeGreaterThanOrEqual(4);
    for (const sent of toolRequests) {
      const referer = (await sent.allHeaders()).referer ?? '';
      expect(sent.url()).not.toContain(token);
      expect(referer).not.toContain('?');
    }
    expect((await request.post('/api/login', { data: { email, password: 'ripe-kesar-2027' } })).status()).toBe(200);
  });

  test('a product page reports ViewContent for its product', async ({ page }) => {
    await page.goto('/product/1');
    await expect(page.getByRole('heading', { level: 1, name: 'Alphonso Mangoes' })).toBeVisible();
    await expect
      .poll(() => pixelEvents(page, 'ViewContent'))
      .toEqual([['track', 'ViewContent', { content_ids: ['1'], content_name: 'Alphonso Mangoes', content_type: 'product', value: 64.99, currency: 'NZD' }]]);
  });
});

test('with no analytics ids, neither script loads and each tool warns that it is off', async ({ page, request }) => {
  await setAnalyticsIds(request, { gaTrackingId: '', metaPixelId: '' });
  const scriptRequests: string[] = [];
  const warnings: string[] = [];
  page.on('request', (request) => {
    if (analyticsHosts.test(request.url())) scriptRequests.push(request.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });

  await page.goto('/');
  await expect.poll(() => warnings).toEqual(expect.arrayContaining(['Google Analytics is off: no GA4 measurement id is set in settings.', 'Meta pixel is off: no pixel id is set in settings.']));
  await page.getByRole('link', { name: 'Shop Now' }).click();
  await expect(page.getByRole('heading', { name: 'Shop Mangoes' })).toBeVisible();
  await page.goto('/product/1');
  await expect(page.getByRole('heading', { level: 1, name: 'Alphonso Mangoes' })).toBeVisible();
  // The page is drawn by the server before its scripts run: wait for the second load's warnings.
  await expect.poll(() => warnings.filter((text) => text.includes(' is off: ')).length).toBe(4);

  expect(scriptRequests).toEqual([]);
  const globals = await page.evaluate(() => {
    const tracked = window as unknown as TrackedWindow;
    return [tracked.dataLayer, tracked.gtag, tracked.fbq].map((value) => typeof value);
  });
  expect(globals).toEqual(['undefined', 'undefined', 'undefined']);
  expect(warnings.filter((text) => text.includes(' is off: '))).toHaveLength(4);
});
