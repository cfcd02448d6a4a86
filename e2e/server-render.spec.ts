import { expect, test } from './fixtures';
import { registerAndSignIn } from './shopper';

test('the first response of a page carries what it shows: products, prices, badges, the chart and testimonials', async ({ request }) => {
  const home = await (await request.get('/')).text();
  for (const text of ['Premium Mangoes Delivered Fresh to Your Door', 'Alphonso Mangoes', '$64.99', 'Bestseller', 'Seasonal Availability Chart', 'Complete Availability Chart', 'Meera P., Palmerston North', 'MANGO10']) {
    expect(home, text).toContain(text);
  }
  const shop = await (await request.get('/shop')).text();
  for (const text of ['Shop Mangoes', 'Alphonso Mangoes', 'Kesar Mangoes', '$64.99', 'In Stock']) expect(shop, text).toContain(text);
  const product = await (await request.get('/product/1')).text();
  for (const text of ['Alphonso Mangoes', '$64.99', 'You might also like']) expect(product, text).toContain(text);
  const content = await (await request.get('/shipping-policy')).text();
  expect(content).toContain('Shipping Policy');
  for (const html of [home, shop, product, content]) expect(html).not.toContain('Loading...');
});

const pages: Array<[string, number]> = [
  ['/', 200],
  ['/shop', 200],
  ['/shop?category=Premium&sort=price-asc', 200],
  ['/product/1', 200],
  ['/about', 200],
  ['/test-content', 200],
  ['/maintenance', 200],
  ['/auth', 200],
  ['/no-such-page', 404],
  ['/product/99999', 404],
  ['/content/no-such-page', 404],
];

for (const [path, status] of pages) {
  test.describe(`${path}`, () => {
    test.use({ expectedConsoleErrors: status === 404 ? [/status of 404/] : [] });

    test('arrives drawn, hydrates without a mismatch and asks the API for nothing it was sent', async ({ page }) => {
      const asked: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/') || url.pathname.endsWith('.data')) asked.push(url.pathname);
      });
      const response = await page.goto(path);
      expect(response?.status()).toBe(status);
      await page.waitForLoadState('networkidle');
      // A mismatch would be a console error, which fails the test (fixtures.ts).
      expect(asked).toEqual([]);
    });
  });
}

test("pages paint before they fetch their code: a visitor's kept page and a shopper's streamed one", async ({ page, request }) => {
  const visitor = await (await request.get('/shop')).text();
  expect(visitor).not.toContain('<link rel="modulepreload"');
  expect(visitor).toMatch(/<script type="module" async="">const start=/);
  await registerAndSignIn(page, request, 'streamed-page');
  const response = await page.request.get('/shop');
  expect(response.headers()['x-page-cache']).toBeUndefined();
  const own = await response.text();
  expect(own).not.toContain('<link rel="modulepreload"');
  expect(own).toMatch(/<script nonce="[^"]+" type="module" async="">const start=/);
  await page.goto('/shop');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
});

test('a client navigation afterwards loads the next page in the browser and shows it', async ({ page }) => {
  await page.goto('/about');
  await page.getByRole('banner').getByRole('link', { name: 'Shop', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'Shop Mangoes' })).toBeVisible();
  await expect(page).toHaveTitle('Shop | Premium Mangoes Delivered Fresh');
  await page.getByRole('link', { name: /Alphonso Mangoes/ }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Alphonso Mangoes' })).toBeVisible();
  await expect(page).toHaveTitle('Alphonso Mangoes | Premium Mangoes Delivered Fresh');
});

test('the stylesheet comes in the page, not as a request of its own, and stays through client navigations', async ({ page }) => {
  const stylesheets: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet') stylesheets.push(request.url());
  });
  await page.goto('/about');
  await page.waitForLoadState('networkidle');
  const styled = () => page.evaluate(() => ({ styles: document.head.querySelectorAll('style').length, background: getComputedStyle(document.body).backgroundColor }));
  // cream-50, #fffdf7: only the shop's stylesheet paints the page cream.
  expect(await styled()).toEqual({ styles: 1, background: 'rgb(255, 253, 247)' });
  await page.getByRole('banner').getByRole('link', { name: 'Shop', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'Shop Mangoes' })).toBeVisible();
  expect(await styled()).toEqual({ styles: 1, background: 'rgb(255, 253, 247)' });
  expect(stylesheets).toEqual([]);
});
