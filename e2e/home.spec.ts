import type { Locator, Page } from '@playwright/test';
import { expect, openHomeFromHeader, test } from './fixtures';

const seededGallery = [
  'Family Orchards of Ratnagiri and Gir',
  'Hand-Picked at Peak Maturity',
  'Graded and Packed with Care',
  'Delivered Fresh Across New Zealand',
];
const builtInGallery = [
  'Our Partner Orchards at Sunrise',
  'Picked by Hand at Peak Ripeness',
  'Sorted and Packed with Care',
  'On Its Way to Your Door',
];

async function expectInPageOrder(sections: Locator[]) {
  let previousTop = -1;
  for (const section of sections) {
    // A section whose code loads near the screen is drawn afresh in place (decision 0039), and may
    // be replaced while it scrolls: then it is found and read again.
    let top = 0;
    await expect(async () => {
      await section.scrollIntoViewIfNeeded({ timeout: 2000 });
      top = await section.evaluate((element) => element.getBoundingClientRect().top + window.scrollY);
    }).toPass();
    expect(top).toBeGreaterThan(previousTop);
    previousTop = top;
  }
}

async function expectGallery(page: Page, titles: string[]) {
  const gallery = page.getByRole('region', { name: 'From Our Farms to You' });
  await expect(gallery.getByRole('figure')).toHaveCount(4);
  for (const [index, title] of titles.entries()) {
    const figure = gallery.getByRole('figure').nth(index);
    await expect(figure.getByRole('img', { name: title })).toHaveAttribute('src', /^\/images\/farm\/.+\.svg$/);
    await expect(figure.locator('figcaption')).toHaveText(title);
  }
  const image = gallery.getByRole('img').first();
  await expect(image).toHaveAttribute('width', '1200');
  await expect(image).toHaveAttribute('height', '675');
  await expect(image).toHaveAttribute('loading', 'lazy');
}

test('the home page shows its sections in the order the spec lists them', async ({ page }) => {
  await page.goto('/');
  const hero = page.getByRole('region', { name: 'Premium Mangoes Delivered Fresh to Your Door' });
  await expect(hero.getByRole('link', { name: 'Shop Now' })).toHaveAttribute('href', '/shop');
  await expect(hero.getByRole('link', { name: 'Learn More' })).toHaveAttribute('href', '/about');
  await expect(hero.getByText('100% Fresh Guarantee')).toBeVisible();
  await expect(hero.getByRole('img', { name: 'A smiling mango waving hello' })).toHaveAttribute('loading', 'eager');

  const products = page.getByRole('region', { name: 'Our Mango Varieties' });
  await expect(products.getByRole('article')).toHaveCount(3);
  await expect(products.getByRole('link', { name: 'View All Varieties' })).toHaveAttribute('href', '/shop');

  const tagline = page.getByRole('heading', { name: 'Bold, Fresh, Unforgettable' });
  await expect(tagline).toBeVisible();

  const whyChoose = page.getByRole('region', { name: 'Why Choose Mango Shop' });
  await expect(whyChoose.getByRole('heading', { level: 3 })).toHaveText([
    'Farm Fresh',
    'Standard Shipping $12',
    'Secure Packaging',
    'Satisfaction Guarantee',
  ]);
  await expect(whyChoose.getByText('One flat rate anywhere in New Zealand, delivered in 24-48 hours.')).toBeVisible();

  await expectGallery(page, seededGallery);

  const story = page.getByRole('region', { name: 'Our Story' });
  await expect(story.getByText(/founded in 2025 to bring premium Indian mangoes to New Zealand/)).toBeVisible();
  await expect(story.getByRole('link', { name: 'Read Our Story' })).toHaveAttribute('href', '/about');
  await expect(story.getByRole('listitem')).toHaveText(['Sustainable Farming', 'Hand-Picked Quality', 'Fair Trade Certified']);

  const chart = page.getByRole('heading', { name: 'Seasonal Availability Chart' });
  const testimonials = page.getByRole('heading', { name: 'What Our Customers Say' });
  await expect(testimonials).toBeVisible();

  await expectInPageOrder([hero, products, tagline, whyChoose, page.getByRole('region', { name: 'From Our Farms to You' }), story, chart, testimonials]);
});

test.describe('when the farm gallery cannot be loaded', () => {
  // Chromium logs its own console error for a failed resource; the page itself only warns.
  test.use({ expectedConsoleErrors: [/status of 500/] });

  test('the built-in farm images are shown instead', async ({ page }) => {
    await page.goto('/about');
    await page.route('**/api/content/banners/location/farm_gallery', (route) => route.fulfill({ status: 500, body: 'Gallery offline' }));
    await openHomeFromHeader(page);
    await expectGallery(page, builtInGallery);
  });
});

test('an empty farm gallery also falls back to the built-in images', async ({ page }) => {
  await page.goto('/about');
  await page.route('**/api/content/banners/location/farm_gallery', (route) => route.fulfill({ json: [] }));
  await openHomeFromHeader(page);
  await expectGallery(page, builtInGallery);
});

test('on a 390 px phone the home page does not scroll sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'What Our Customers Say' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go to testimonials group 1' })).toBeVisible();
  // The page is in the HTML before its stylesheet has loaded; the browser paints only after.
  await page.waitForLoadState('load');
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(pageWidth).toBeLessThanOrEqual(390);
});

test('on a 390 px phone the home page as the server drew it, before any script runs, does not scroll sideways either', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'What Our Customers Say' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await context.close();
});
