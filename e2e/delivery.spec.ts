import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { formatDay } from '../src/contracts/dates';
import { admin, adminApi, fillCheckoutTown, registerAndSignIn, signIn } from './shopper';

/** A date as `GET /api/delivery/dates` offers it. */
interface Offered {
  date: string;
  dispatchDate: string;
  state: { available: boolean; reason?: string };
}

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
  const offered = (await (await api.get('/api/delivery/dates?region=Auckland')).json()) as { dates: Offered[] };
  const first = offered.dates.find((one) => one.state.available)!.date;
  // Closing a date stops both its deliveries and its packing: whatever today is, the dates it
  // closes are the date itself and any date packed on it (the next day, with a one-day lead).
  const closedByIt = offered.dates.filter((one) => one.date === first || one.dispatchDate === first).map((one) => formatDay(one.date));
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

    const closedItems = preview.getByRole('listitem').filter({ hasText: 'Closed: Shipment delayed' });
    await expect(closedItems).toHaveCount(closedByIt.length);
    for (const [index, day] of closedByIt.entries()) await expect(closedItems.nth(index)).toContainText(`${day} (packed`);
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

test('a shopper picks a delivery day for a rural address and sees it through to the receipt; staff print the day’s dispatch list', async ({ page, request, browser, baseURL }) => {
  test.slow();
  const api = await adminApi(baseURL!);
  const saved = await (await api.get('/api/admin/delivery')).json();
  const offered = (await (await api.get('/api/delivery/dates?region=Waikato')).json()) as { dates: Offered[] };
  const available = offered.dates.filter((one) => one.state.available).map((one) => one.date);
  // The closed day takes with it any date packed on it; the shopper picks the first date it leaves open.
  const closedByIt = offered.dates.filter((one) => one.date === available[0] || one.dispatchDate === available[0]);
  const chosen = offered.dates.find((one) => one.state.available && !closedByIt.includes(one))!.date;
  // Staff close the soonest day: checkout greys it out at once.
  expect((await api.put('/api/admin/delivery', { data: { ...saved, closedDates: [...saved.closedDates, { date: available[0], reason: 'Truck in for service' }] } })).status()).toBe(200);
  try {
    await registerAndSignIn(page, request, 'hemirangi');
    const me = (await (await page.request.get('/api/me')).json()) as { id: number };
    expect((await page.request.post(`/api/cart/${me.id}/items`, { data: { productId: 1, quantity: 2 } })).status()).toBe(200);
    await page.goto('/checkout');
    await page.getByLabel('Street address').fill('1020 Gordonton Road, RD 1');
    await fillCheckoutTown(page, 'Taupiri', '3791', 'Waikato');
    const picker = page.getByRole('group', { name: 'Delivery day' });
    await expect(picker.getByText('Closed: Truck in for service')).toHaveCount(closedByIt.length);
    for (const one of closedByIt) await expect(picker.getByRole('radio', { name: formatDay(one.date) })).toBeDisabled();
    expect(await picker.getByRole('radio', { disabled: false }).count()).toBeGreaterThanOrEqual(5);
    // The RD number makes it rural: the surcharge is in the quote before payment.
    await expect(page.getByLabel('Rural delivery')).toBeChecked();
    await expect(page.getByLabel('Rural delivery')).toBeDisabled();
    const summary = page.getByRole('complementary', { name: 'Order summary' });
    await expect(summary.getByText('Rural delivery', { exact: true })).toBeVisible();
    await expect(summary.getByText('$5.00')).toBeVisible();
    // 2 x $64.99 + $12.00 + $5.00
    await expect(summary.getByText('$146.98')).toBeVisible();
    await picker.getByRole('radio', { name: formatDay(chosen) }).check();
    await shoot(page, 'checkout-delivery-day', picker);
    await page.getByRole('button', { name: 'Place order' }).click();

    await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
    const number = (await page.getByText(/Your order number is/).locator('strong').textContent())!;
    await expect(page.getByTestId('delivery-day')).toHaveText(`Delivery day: ${formatDay(chosen)} (rural delivery)`);
    await page.getByRole('link', { name: 'View your order' }).click();
    await expect(page.getByTestId('delivery-day')).toHaveText(`Delivery day: ${formatDay(chosen)} (rural delivery)`);
    await page.getByRole('button', { name: 'View receipt' }).click();
    // A shop without a GST number issues a receipt with no GST on it.
    const receipt = page.getByRole('dialog', { name: 'Receipt', exact: true });
    await expect(receipt.getByRole('row', { name: `Shipping (NZ-wide), delivery ${formatDay(chosen)} $12.00` })).toBeVisible();
    await expect(receipt.getByRole('row', { name: 'Rural delivery $5.00' })).toBeVisible();
    await expect(receipt.getByRole('row', { name: 'Total $146.98' })).toBeVisible();
    await expect(receipt.getByText(/GST included/)).toHaveCount(0);

    // Staff mark it paid and print the dispatch day's slips.
    expect((await api.post(`/api/admin/orders/${number}/status`, { data: { status: 'paid' } })).status()).toBe(200);
    const order = await (await api.get(`/api/admin/orders/${number}`)).json();
    const staffContext = await browser.newContext();
    const staffPage = await staffContext.newPage();
    try {
      await signIn(staffPage, admin.email, admin.password);
      await staffPage.goto(`/admin/dispatch?date=${order.dispatchDate}`);
      await expect(staffPage.getByRole('heading', { name: 'Dispatch', exact: true })).toBeVisible();
      const waikato = staffPage.getByRole('region', { name: 'Waikato' });
      await expect(waikato.getByRole('link', { name: number })).toBeVisible();
      await expect(waikato.getByText('Rural', { exact: true }).first()).toBeVisible();
      await shoot(staffPage, 'dispatch-list');
      const csv = await staffPage.request.get(`/api/admin/dispatch.csv?date=${order.dispatchDate}`);
      expect(await csv.text()).toContain(`${number},Tama Hohaia,022 123 4567,hemirangi@example.nz,"1020 Gordonton Road, RD 1",,Taupiri,3791,Waikato,Yes,2,${chosen},2 x Alphonso Mangoes`);
      await staffPage.emulateMedia({ media: 'print' });
      const slip = staffPage.getByTestId('dispatch-slip').filter({ hasText: number });
      await expect(slip).toBeVisible();
      await expect(slip).toContainText(`Deliver on ${formatDay(chosen)}`);
      await expect(slip).toContainText('RURAL DELIVERY');
      await staffPage.screenshot({ path: test.info().outputPath('dispatch-print-1280.png'), fullPage: true });
    } finally {
      await staffContext.close();
    }
  } finally {
    expect((await api.put('/api/admin/delivery', { data: saved })).status()).toBe(200);
    await api.dispose();
  }
});
