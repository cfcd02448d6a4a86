import { expect, test } from './fixtures';

test('a visitor browses home, then the shop, then a product', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Premium Mangoes Delivered Fresh to Your Door' })).toBeVisible();
  await expect(page).toHaveTitle('Premium Mangoes Delivered Fresh');
  await page.getByRole('link', { name: 'Shop Now' }).click();
  await expect(page).toHaveURL(/\/shop$/);
  await expect(page).toHaveTitle('Shop | Premium Mangoes Delivered Fresh');
  await page.getByRole('link', { name: /Alphonso Mangoes/ }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Alphonso Mangoes' })).toBeVisible();
  await expect(page.getByText('$64.99')).toBeVisible();
  await expect(page).toHaveTitle('Alphonso Mangoes | Premium Mangoes Delivered Fresh');
});

test.describe('an unknown address', () => {
  test.use({ expectedConsoleErrors: [/status of 404/] });

  test('shows the 404 page of the spec with HTTP status 404', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  });
});

test.describe('a hidden product', () => {
  test.use({ expectedConsoleErrors: [/status of 404/] });

  test('is not found by a visitor', async ({ page }) => {
  await page.goto('/product/13');
    await expect(page.getByRole('heading', { name: 'Product not found' })).toBeVisible();
  });
});

test('a content page renders its text from the database', async ({ page }) => {
  await page.goto('/shipping-policy');
  await expect(page.getByRole('heading', { level: 1, name: 'Shipping Policy' })).toBeVisible();
  await expect(page.getByText(/\$12/).first()).toBeVisible();
});

test('a page drawn by the server needs no spinner; a client navigation shows Loading... while the next page loads', async ({ page }) => {
  const html = await (await page.request.get('/shop')).text();
  expect(html).toContain('Shop Mangoes');
  expect(html).toContain('Alphonso Mangoes');
  expect(html).not.toContain('Loading...');

  await page.goto('/about');
  await page.route('**/api/products', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await page.getByRole('banner').getByRole('link', { name: 'Shop', exact: true }).first().click();
  await expect(page.getByRole('status').getByText('Loading...')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Shop Mangoes' })).toBeVisible();
});

test('static assets are cached for a year, and a page only by a shared cache: the browser asks again each time', async ({ request }) => {
  const index = await request.get('/');
  expect(index.headers()['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
  const html = await index.text();
  const script = /"(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(script).toBeTruthy();
  const asset = await request.get(script!);
  expect(asset.headers()['cache-control']).toContain('immutable');
});

test('the shop filters by category and sorts by price, keeping both in the address', async ({ page }) => {
  await page.goto('/shop');
  await page.getByRole('group', { name: 'Category' }).getByRole('button', { name: 'Organic' }).click();
  await expect(page).toHaveURL(/category=Organic/);
  await page.getByLabel('Sort by').selectOption('price-asc');
  await expect(page).toHaveURL(/sort=price-asc/);
  const names = page.locator('main ul h3');
  // Organic is the flag each badge reads: Kesar, filed under Premium, is organic too.
  await expect(names).toHaveText(['Sindoora Mangoes', 'Mallika Mangoes', 'Kesar Mangoes']);
  await page.reload();
  await expect(names).toHaveText(['Sindoora Mangoes', 'Mallika Mangoes', 'Kesar Mangoes']);
  await expect(page.getByRole('button', { name: 'Organic' })).toHaveAttribute('aria-pressed', 'true');
});

test("the shop's two fonts load from its stylesheet, once each, and draw the text", async ({ page }) => {
  const fonts: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('.woff2')) fonts.push(new URL(request.url()).pathname.replace(/^\/assets\/(\w+)-latin-macron-wght-normal-.*$/, '$1'));
  });
  await page.goto('/shop');
  await expect(page.getByRole('heading', { level: 1, name: 'Shop Mangoes' })).toBeVisible();
  // Not preloaded: a preload holds the first paint (decision 0044).
  await expect(page.locator('link[rel="preload"][as="font"]')).toHaveCount(0);
  const loaded = await page.evaluate(async () => {
    await document.fonts.ready;
    return [...document.fonts].filter((face) => face.status === 'loaded').map((face) => face.family.replace(/"/g, ''));
  });
  // The metric-matched local fallbacks (decision 0014) load too: they draw the text until then.
  expect(loaded.filter((family) => family.endsWith(' Variable')).sort()).toEqual(['Fraunces Variable', 'Inter Variable']);
  expect(fonts.sort()).toEqual(['fraunces', 'inter']);
  // The headings and the body copy use them, not a fallback that would stay.
  const families = await page.evaluate(() => [getComputedStyle(document.querySelector('h1')!).fontFamily, getComputedStyle(document.body).fontFamily]);
  expect(families[0]).toMatch(/^"?Fraunces Variable/);
  expect(families[1]).toMatch(/^"?Inter Variable/);
});

test('nothing above the grid moves when the web fonts arrive: the fallbacks take the same room', async ({ browser, baseURL }) => {
  // Sixteen cold visits, one after another.
  test.slow();
  /** The top and height of each heading, paragraph and picture above the product grid in the first screen, drawn with the fonts or without them. */
  const layout = async (width: number, path: string, fonts: boolean) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      // Without the files the fallbacks draw the page for good, as they do until the files arrive.
      if (!fonts) await page.route('**/*.woff2', (route) => route.abort());
      await page.goto(`${baseURL}${path}`);
      const families = await page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts].filter((face) => face.status === 'loaded').map((face) => face.family.replace(/"/g, ''));
      });
      expect(families.filter((family) => family.endsWith(' Variable')).sort()).toEqual(fonts ? ['Fraunces Variable', 'Inter Variable'] : []);
      if (!fonts) {
        expect(families, 'the local faces the fallbacks are sized to (Debian: fonts-liberation)').toEqual(expect.arrayContaining(['Inter Fallback', 'Fraunces Fallback']));
      }
      return await page.evaluate(() => {
        // Everything above the product grid in the first screen, then the grid's first card's top.
        const card = document.querySelector('main li article')?.getBoundingClientRect();
        const above = [...document.querySelectorAll('main h1, main h2, main h3, main p, main img')]
          .map((element) => element.getBoundingClientRect())
          .filter((box) => box.top < innerHeight && (!card || box.bottom <= card.top))
          .flatMap((box) => [box.top, box.height]);
        return card ? [...above, card.top] : above;
      });
    } finally {
      await context.close();
    }
  };
  // The home page's hero and where the shop's grid starts, at phone widths (412 px is
  // Lighthouse's) and on a desktop. The fallbacks match the fonts' widths on average, not string
  // by string (a heading runs up to 5% narrower or wider), so a line elsewhere that ends near the
  // edge can still wrap once more until the fonts arrive.
  for (const width of [360, 390, 412, 1280]) {
    for (const path of ['/', '/shop']) {
      const withFonts = await layout(width, path, true);
      expect(withFonts.length, `${path} at ${width} px has headings, copy or pictures above its grid`).toBeGreaterThan(2);
      const withFallbacks = await layout(width, path, false);
      // The same boxes, each edge within a pixel (fallback letters are not the fonts' to the subpixel).
      expect(withFallbacks.length, `${path} at ${width} px: ${withFallbacks.map(Math.round).join(' ')} against ${withFonts.map(Math.round).join(' ')}`).toBe(withFonts.length);
      const moved = withFallbacks.map((value, index) => Math.abs(value - withFonts[index]!));
      expect(Math.max(...moved), `${path} at ${width} px: ${withFallbacks.map(Math.round).join(' ')} against ${withFonts.map(Math.round).join(' ')}`).toBeLessThanOrEqual(1);
    }
  }
});
