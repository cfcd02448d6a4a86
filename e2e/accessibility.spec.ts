import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** Every storefront page a shopper can reach, with a heading that says it has rendered. */
const pages: Array<[string, string]> = [
  ['/', 'Premium Mangoes Delivered Fresh to Your Door'],
  ['/shop', 'Shop Mangoes'],
  ['/product/1', 'Alphonso Mangoes'],
  ['/product/4', 'Dasheri Mangoes'],
  ['/auth', 'Sign In'],
  ['/auth?signup=true', 'Create Account'],
  ['/cart', 'Your Cart'],
  ['/about', 'About Us'],
  ['/contact', 'Contact Us'],
  ['/shipping-policy', 'Shipping Policy'],
  ['/refund-policy', 'Refund Policy'],
  ['/terms-conditions', 'Terms & Conditions'],
  ['/privacy-policy', 'Privacy Policy'],
  ['/mango-season-guide', 'Mango Season Guide'],
  ['/test-content', 'Test Content'],
  ['/reset-password?token=not-a-real-token-but-long-enough', 'Reset Password'],
  ['/maintenance', "We'll be right back"],
  ['/no-such-page', '404 Page Not Found'],
];

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

// The 404 page answers with HTTP 404, which the browser reports on its console.
test.use({ expectedConsoleErrors: [/status of 404/] });

for (const [path, heading] of pages) {
  test(`${path} has no serious or critical accessibility violation at 390 px or 1280 px`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    // Let lazy sections and the chart's delayed table settle before the audit.
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page), 'at 390 px').toEqual([]);
    // The same page laid out for a desktop: the layout is CSS only, so no reload is needed.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await seriousViolations(page), 'at 1280 px').toEqual([]);
  });
}

test.describe('open dialogs and the drawer', () => {
  test('the search dialog, the auth dialog, Quick View and the cart drawer have no serious violation', async ({ page }) => {
    await page.goto('/shop');
    await page.getByRole('banner').getByRole('button', { name: 'Search products' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Quick View of Alphonso Mangoes' }).click();
    await expect(page.getByRole('dialog', { name: 'Alphonso Mangoes' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Pre-Order Now: Dasheri Mangoes' }).click();
    await expect(page.getByRole('dialog', { name: 'Almost There!' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: /^Cart, / }).click();
    await expect(page.getByRole('dialog', { name: 'Your Cart' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
