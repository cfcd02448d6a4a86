import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { admin, adminApi, signIn } from './shopper';

/** Screenshots at 390 and 1280 px: the whole page, or the viewport with `focus` scrolled into it. */
async function shoot(page: Page, name: string, focus?: Locator) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await focus?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: !focus && width === 390 });
  }
}

test('staff close a delivery date and change a region’s days, and the next delivery dates follow at once', async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!);
  const saved = await (await api.get('/api/admin/delivery')).json();
  const offered = (await (await api.get('/api/delivery/dates?region=Auckland')).json()) as { dates: Array<{ date: string; state: { available: boolean } }> };
  const first = offered.dates.find((one) => one.state.available)!.date;
  try {
    await signIn(page, admin.email, admin.password);
    await page.goto('/admin/delivery');
    await expect(page.getByRole('heading', { name: 'Delivery', exact: true })).toBeVisible();
    const preview = page.getByRole('list', { name: 'Delivery dates for Auckland' });
    await expect(preview.getByRole('listitem').first()).toBeVisible();
    await shoot(page, 'delivery-settings');

    // A date closed for a delayed shipment.
    await page.getByLabel('Date to close').fill(first);
    await page.getByRole('button', { name: 'Close date' }).click();
    await expect(page.getByText('Give the date and the reason shoppers will see')).toBeVisible();
    await page.getByLabel('Reason', { exact: true }).fill('Shipment delayed');
    await page.getByRole('button', { name: 'Close date' }).click();
    await expect(page.getByRole('list', { name: 'Closed dates' })).toContainText('Shipment delayed');
    // Northland only on Wednesdays.
    for (const day of ['Tue', 'Thu', 'Fri']) await page.getByLabel(`Northland: deliver on ${day}`).uncheck();
    await page.getByRole('button', { name: 'Save delivery settings' }).click();
    await expect(page.getByText('Delivery settings saved').first()).toBeVisible();

    await expect(preview.getByRole('listitem').filter({ hasText: 'Closed: Shipment delayed' })).toHaveCount(1);
    await page.getByLabel('Region', { exact: true }).selectOption('Northland');
    const northland = page.getByRole('list', { name: 'Delivery dates for Northland' });
    await expect(northland.getByRole('listitem').first()).toContainText('Wed, ');
    for (const text of await northland.getByRole('listitem').allTextContents()) expect(text.startsWith('Wed, ')).toBe(true);
    await shoot(page, 'delivery-preview', northland);

    // What was saved is what the server holds.
    const api2 = await (await api.get('/api/admin/delivery')).json();
    expect(api2.closedDates).toEqual([{ date: first, reason: 'Shipment delayed' }]);
  } finally {
    expect((await api.put('/api/admin/delivery', { data: saved })).status()).toBe(200);
  }
});
