import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { latestMailTo } from './mailbox';
import { shootAtBothWidths } from './screenshots';
import { admin, adminApi, firstDeliveryDate, registerShopper, signIn } from './shopper';

/** A shopper's bank-transfer order of 2 boxes, placed through the API and moved along by staff to `until`. */
async function bankTransferOrder(request: APIRequestContext, api: APIRequestContext, username: string, until: string[], deliveryDate?: string) {
  const { email, password } = await registerShopper(request, username);
  expect((await request.post('/api/login', { data: { email, password } })).status()).toBe(200);
  const me = (await (await request.get('/api/me')).json()) as { id: number };
  expect((await request.post(`/api/cart/${me.id}/items`, { data: { productId: 8, quantity: 2 } })).status()).toBe(200);
  const placed = await request.post('/api/orders', {
    data: {
      idempotencyKey: `owner-daily-${username}-0001`,
      deliveryDate: deliveryDate ?? (await firstDeliveryDate(request, 'Wellington', 2)),
      shipping: { name: 'Tama Hohaia', phone: '022 123 4567', street: '21 Lambton Quay', city: 'Wellington', postcode: '6011', region: 'Wellington' },
    },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  await request.post('/api/logout');
  const order = ((await placed.json()) as { order: { number: string; total: number } }).order;
  for (const status of until) {
    const step = await api.post(`/api/admin/orders/${order.number}/status`, { data: { status } });
    expect(step.status(), await step.text()).toBe(200);
  }
  return { email, password, ...order };
}

/** Whether the page itself scrolls sideways (a screen cut off), as opposed to a region inside it. */
const pageOverflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

test.describe('the admin is its own place', () => {
  test('no promo bar, shop menu or footer; the way back to the shop and who is signed in', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, admin.email, admin.password);
    // The storefront has its offer, menu and footer...
    await page.goto('/shop');
    await expect(page.getByRole('complementary', { name: 'Current offer' })).toBeVisible();
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Current offer' })).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    await page.mouse.wheel(0, 20_000);
    await page.waitForTimeout(500);
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
    const bar = page.getByRole('banner');
    await expect(bar.getByText(/^Signed in as \S+/)).toBeVisible();
    await expect(bar.getByRole('button', { name: 'Logout' })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await shootAtBothWidths(page, 'admin-frame');
    await bar.getByRole('link', { name: 'View shop' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  });

  test("a customer's page leads with e-mailing them; making them an admin is a quieter, confirmed action", async ({ page, request }) => {
    const { email } = await registerShopper(request, 'pohutukawa');
    await signIn(page, admin.email, admin.password);
    await page.goto('/admin/customers');
    await page.getByLabel('Search name, username, e-mail or phone').fill('pohutukawa');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('row').filter({ hasText: email }).getByRole('link', { name: 'Tama Hohaia' }).click();
    await expect(page.getByRole('link', { name: 'E-mail Tama' })).toHaveAttribute('href', `mailto:${email}`);
    const access = page.getByRole('region', { name: 'Staff access' });
    await expect(access.getByText('A customer account.')).toBeVisible();
    // Beside the name there is no "Make admin": it waits in its own panel, and asks first.
    await expect(page.getByRole('button', { name: 'Make admin' })).toHaveCount(1);
    await shootAtBothWidths(page, 'admin-customer');
    await access.getByRole('button', { name: 'Make admin' }).click();
    await expect(page.getByRole('dialog').getByRole('heading', { name: 'Make Tama Hohaia an admin?' })).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(access.getByText('A customer account.')).toBeVisible();
  });

  test('the orders table scrolls inside its panel on a phone; the page is not cut off', async ({ page, request, baseURL }) => {
    await bankTransferOrder(request, await adminApi(baseURL!), `scroller-${Date.now().toString(36)}`, []);
    await signIn(page, admin.email, admin.password);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin/orders');
    const table = page.getByRole('table', { name: 'Orders, newest first' });
    await expect(table).toBeVisible();
    expect(await pageOverflows(page)).toBe(false);
    const scroller = table.locator('xpath=..');
    expect(await scroller.evaluate((element) => element.scrollWidth > element.clientWidth && getComputedStyle(element).overflowX === 'auto')).toBe(true);
    // Every column can be reached by scrolling the table.
    await scroller.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expect(table.getByRole('columnheader', { name: 'Total' })).toBeInViewport();
    await page.screenshot({ path: test.info().outputPath('admin-orders-390.png') });
  });
});

test('a bank-transfer refund is owed until staff pay it out into the account the shopper gave', async ({ page, request, baseURL, browser }) => {
  test.slow();
  const api = await adminApi(baseURL!);
  const username = `refunded-${Date.now().toString(36)}`;
  const order = await bankTransferOrder(request, api, username, ['paid']);
  const total = `$${order.total.toFixed(2)}`;

  // Staff refund the paid order: the confirmation says the money is owed, not sent.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, admin.email, admin.password);
  await staff.goto(`/admin/orders?order=${order.number}`);
  await staff.getByRole('group', { name: 'Next steps' }).getByRole('button', { name: 'Record refund' }).click();
  const dialog = staff.getByRole('dialog');
  await expect(dialog).toContainText('they are asked for their bank account, and the refund stays on the dashboard as owed until you mark it paid out');
  await dialog.getByRole('button', { name: 'Record refund' }).click();
  await expect(dialog).toBeHidden();
  await expect(staff.getByRole('region', { name: 'Refunds' })).toContainText('Refund owed, waiting for the shopper’s account');
  await expect(staff.getByText('Refund under way')).toBeVisible();

  await expect.poll(() => { try { return latestMailTo(order.email); } catch { return ''; } }, { timeout: 15_000 }).toContain('We need your bank account to pay it back');

  // The shopper is asked on their order page, and says where.
  await signIn(page, order.email, order.password);
  await page.goto(`/account/orders/${order.number}#refund`);
  const refunds = page.getByRole('region', { name: 'Refunds' });
  await expect(refunds).toContainText(`We owe you ${total}. Tell us the bank account to pay it into.`);
  await shootAtBothWidths(page, 'refund-owed', refunds);
  await page.setViewportSize({ width: 1280, height: 900 });
  await refunds.getByLabel('Name on the account').fill('T Hohaia');
  await refunds.getByLabel('Bank account number').fill('12-3456-789');
  await refunds.getByRole('button', { name: 'Save bank account' }).click();
  await expect(refunds.getByText('A New Zealand account number looks like 12-3456-0123456-00')).toBeVisible();
  await refunds.getByLabel('Bank account number').fill('12-3456-0123456-00');
  await refunds.getByRole('button', { name: 'Save bank account' }).click();
  await expect(refunds).toContainText(`We owe you ${total}: we pay it into your account ending …0123456-00`);

  // Staff see it on the dashboard with the account, and mark it paid out after a confirmation.
  await staff.goto('/admin');
  const toPay = staff.getByRole('region', { name: 'Refunds to pay' });
  const row = toPay.getByRole('listitem').filter({ hasText: order.number });
  await expect(row).toContainText('Pay into 12-3456-0123456-00 (T Hohaia)');
  await shootAtBothWidths(staff, 'dashboard-refunds', toPay);
  await staff.setViewportSize({ width: 1280, height: 900 });
  await row.getByRole('button', { name: 'Mark paid out' }).click();
  const confirm = staff.getByRole('dialog', { name: /paid out\?$/ });
  await expect(confirm).toContainText('Only once the transfer into 12-3456-0123456-00 has left');
  await confirm.getByRole('button', { name: 'Mark paid out' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);
  await staffContext.close();

  await expect.poll(() => { try { return latestMailTo(order.email); } catch { return ''; } }, { timeout: 15_000 }).toContain(`Your refund of ${total} is on its way`);
  await page.reload();
  await expect(refunds).toContainText(`${total} refunded on`);
  await expect(refunds).toContainText('by bank transfer');
  await expect(page.getByText('Refund under way')).toHaveCount(0);
});

test('a packer filters by day, marks orders paid in one go, notes an order, resends its e-mail and is warned before shipping early', async ({ page, request, baseURL }) => {
  test.slow();
  const api = await adminApi(baseURL!);
  const stamp = Date.now().toString(36);
  // A day a few deliveries out, so its dispatch day is still to come.
  const offered = (await (await request.get('/api/delivery/dates?region=Wellington&boxes=2')).json()) as { dates: Array<{ date: string; state: { available: boolean } }> };
  const day = offered.dates.filter((one) => one.state.available)[3]!.date;
  const first = await bankTransferOrder(request, api, `packer-a-${stamp}`, [], day);
  const second = await bankTransferOrder(request, api, `packer-b-${stamp}`, [], day);
  await signIn(page, admin.email, admin.password);
  await page.goto(`/admin/orders?day=${day}&status=pending_payment`);
  await expect(page.getByLabel('Delivery or pickup day')).toHaveValue(day);
  const table = page.getByRole('table', { name: 'Orders, newest first' });
  await expect(table.getByRole('columnheader', { name: 'Day' })).toBeVisible();
  await table.getByLabel(`Choose order ${first.number}`).check();
  await table.getByLabel(`Choose order ${second.number}`).check();
  const bar = page.getByRole('group', { name: 'With the chosen orders' });
  await expect(bar).toContainText('2 chosen');
  await shootAtBothWidths(page, 'orders-bulk', bar);
  await page.setViewportSize({ width: 1280, height: 900 });
  await bar.getByRole('button', { name: 'Mark paid' }).click();
  const confirm = page.getByRole('dialog', { name: 'Mark 2 orders paid?' });
  await expect(confirm).toContainText(first.number);
  await confirm.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByText('2 orders marked paid').first()).toBeVisible();
  for (const number of [first.number, second.number]) {
    expect(((await (await api.get(`/api/admin/orders/${number}`)).json()) as { status: string }).status).toBe('paid');
  }

  await page.goto(`/admin/orders?order=${first.number}`);
  const notes = page.getByRole('region', { name: 'Staff notes' });
  await notes.getByLabel('New note (staff only)').fill('Rang: leave the boxes by the side gate.');
  await notes.getByRole('button', { name: 'Add note' }).click();
  await expect(notes).toContainText('Rang: leave the boxes by the side gate.');
  await page.getByRole('button', { name: 'Resend e-mail' }).click();
  await expect(page.getByText('Order e-mail sent again').first()).toBeVisible();
  await shootAtBothWidths(page, 'order-notes', notes);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Packed, then shipped before its dispatch day: the step says so first.
  await page.getByRole('group', { name: 'Next steps' }).getByRole('button', { name: 'Mark packed' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Mark packed' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await page.getByRole('group', { name: 'Next steps' }).getByRole('button', { name: 'Mark shipped' }).click();
  const ship = page.getByRole('dialog');
  await expect(ship.getByRole('alert')).toContainText('Its dispatch day is');
  await shootAtBothWidths(page, 'ship-early-warning');
});

test.describe('smaller admin paths', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, admin.email, admin.password);
  });

  test('a new product goes under an existing category unless a new one is asked for on purpose', async ({ page }) => {
    await page.goto('/admin/products');
    await page.getByRole('button', { name: 'New product' }).click();
    const editor = page.getByRole('dialog');
    const name = `Langra Mangoes ${Date.now().toString(36)}`;
    await editor.getByLabel('Name').fill(name);
    await editor.getByLabel('Category').fill('Clasic');
    await editor.getByLabel('Description').fill('Green-skinned Langra mangoes from Varanasi, sweet and fibreless.');
    await editor.getByLabel('Price (NZD, GST included)').fill('44');
    await editor.getByLabel('Image address').fill('/images/products/kesar.svg');
    await editor.getByRole('button', { name: 'Add product' }).click();
    await expect(editor.getByText('Choose one of your categories, or tick the box to add “Clasic” as a new one')).toBeVisible();
    await expect(editor.getByLabel('Category')).toBeFocused();
    await shootAtBothWidths(page, 'product-new-category', editor.getByLabel('Category'));
    await page.setViewportSize({ width: 1280, height: 900 });
    // The same word in another case is the existing category.
    await editor.getByLabel('Category').fill('classic');
    await expect(editor.getByText('Choose one of your categories')).toHaveCount(0);
    await editor.getByRole('button', { name: 'Add product' }).click();
    await expect(editor).toBeHidden();
    await expect(page.getByRole('row').filter({ hasText: name }).first()).toContainText('Classic');
  });

  test('stock reasons read as words, the maintenance question says what each answer does, and Dispatch has no pickups while pickup is off', async ({ page }) => {
    await page.goto('/admin/inventory');
    await page.getByRole('button', { name: /^Adjust / }).first().click();
    const reasons = page.getByRole('dialog').getByLabel('Reason');
    await expect(reasons.locator('option')).toHaveText(['Received', 'Spoiled', 'Correction']);
    await page.keyboard.press('Escape');

    await page.goto('/admin/settings');
    await page.getByLabel(/^Maintenance mode/).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    const ask = page.getByRole('dialog');
    await expect(ask.getByRole('button', { name: 'Turn maintenance on' })).toBeVisible();
    await shootAtBothWidths(page, 'maintenance-confirm');
    await ask.getByRole('button', { name: 'Leave the shop open' }).click();
    await expect(ask).toBeHidden();
    expect(((await (await page.request.get('/api/settings')).json()) as { maintenance: { enabled: boolean } }).maintenance.enabled).toBe(false);

    // Pickup is off in a new shop: Dispatch offers no pickup places.
    await page.goto('/admin/dispatch');
    await expect(page.getByRole('heading', { name: 'Dispatch', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: /^Pickups/ })).toHaveCount(0);
  });
});
