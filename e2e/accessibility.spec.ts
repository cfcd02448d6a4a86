import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { admin, fillCheckoutTown, registerAndSignIn, signIn } from './shopper';

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

/**
 * axe runs in the page itself (legacy mode): the shop has no frames, and the default splits each
 * audit over a blank page of its own, which took a third of every audit's time.
 */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).setLegacyMode().analyze();
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
    // Let lazy sections and the chart's delayed table settle before the audit: the page is drawn
    // by the server, so the network can be idle before the table has faded in.
    await page.waitForLoadState('networkidle');
    const chart = page.getByTestId('availability-chart');
    if (await chart.count()) await expect(chart).toHaveCSS('opacity', '1');
    expect(await seriousViolations(page), 'at 390 px').toEqual([]);
    // The same page laid out for a desktop: the layout is CSS only, so no reload is needed.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await seriousViolations(page), 'at 1280 px').toEqual([]);
  });
}

test.describe('open dialogs and the drawer', () => {
  test('the search dialog, the auth dialog, Quick View and the cart drawer have no serious violation', async ({ page }) => {
    // Four dialogs, each scanned by axe: three times the usual time on a busy machine.
    test.slow();
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

test.describe("a signed-in shopper's checkout and account", () => {
  test('checkout, the success page, the account, an order and its receipt have no serious violation at 390 px or 1280 px', async ({ page, request }) => {
    // Nine audits of full pages: each takes a few seconds on a two-core machine.
    test.setTimeout(120_000);
    const audit = async (heading: string) => {
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await seriousViolations(page), `${heading} at 390 px`).toEqual([]);
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(await seriousViolations(page), `${heading} at 1280 px`).toEqual([]);
    };
    await registerAndSignIn(page, request, 'kahurangi');
    const me = (await (await page.request.get('/api/me')).json()) as { id: number };
    await page.request.post(`/api/cart/${me.id}/items`, { data: { productId: 8, quantity: 1 } });
    await page.request.post(`/api/cart/${me.id}/items`, { data: { productId: 5, quantity: 1 } });
    await page.goto('/checkout');
    await expect(page.getByRole('button', { name: 'Place order' })).toBeEnabled();
    await audit('Checkout');

    await fillCheckoutTown(page, 'Nelson', '7010', 'Nelson');
    await page.getByRole('button', { name: 'Place order' }).click();
    await audit('Thank you for your order!');

    await page.getByRole('link', { name: 'View your order' }).click();
    await audit('My Account');
    await page.getByRole('button', { name: 'View receipt' }).click();
    await expect(page.getByRole('dialog', { name: 'Receipt', exact: true })).toBeVisible();
    expect(await seriousViolations(page), 'receipt').toEqual([]);
    await page.keyboard.press('Escape');

    await page.goto('/account');
    await expect(page.getByRole('heading', { name: 'Your orders' })).toBeVisible();
    await audit('My Account');
  });
});

test.describe('the admin area', () => {
  test('every admin screen has no serious violation at 390 px or 1280 px', async ({ page }) => {
    test.setTimeout(240_000);
    await signIn(page, admin.email, admin.password);
    const screens = [
      ['/admin', 'Dashboard'],
      ['/admin/products', 'Products'],
      ['/admin/orders', 'Orders'],
      ['/admin/subscriptions', 'Season boxes'],
      ['/admin/dispatch', 'Dispatch'],
      ['/admin/claims', 'Claims'],
      ['/admin/inventory', 'Inventory'],
      ['/admin/delivery', 'Delivery'],
      ['/admin/customers', 'Customers'],
      ['/admin/promo-codes', 'Promo codes'],
      ['/admin/testimonials', 'Testimonials'],
      ['/admin/reports', 'Reports'],
      ['/admin/content', 'Content'],
      ['/admin/settings', 'Settings'],
      ['/admin/pixel-test', 'Pixel test'],
    ];
    for (const [path, heading] of screens) {
      await page.goto(path!);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await seriousViolations(page), `${path} at 390 px`).toEqual([]);
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(await seriousViolations(page), `${path} at 1280 px`).toEqual([]);
    }
  });

  test('the product editor has no serious violation', async ({ page }) => {
    await signIn(page, admin.email, admin.password);
    await page.goto('/admin/products');
    await page.getByRole('button', { name: 'Edit Kesar Mangoes' }).click();
    await expect(page.getByRole('dialog').getByRole('heading', { name: 'Edit Kesar Mangoes' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
