import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';
import type { SubscriptionView } from '../src/contracts/subscriptions';
import { expect, test } from './fixtures';
import { latestMailTo } from './mailbox';
import { shootAtBothWidths } from './screenshots';
import { admin, adminApi, createProduct, fillCheckoutTown, registerAndSignIn, registerShopper, shopperPassword, signIn } from './shopper';

const stamp = () => Date.now().toString(36);

/** A variety staff offer as a season box, 10% off for subscribers. */
async function seasonBoxProduct(baseURL: string, name: string): Promise<number> {
  const api = await adminApi(baseURL);
  return createProduct(api, { name, description: 'A variety offered as a season box.', price: 50, imageUrl: '/images/products/kesar.svg', category: 'Premium', stock: 40, subscribable: true, subscriberDiscountPercent: 10 });
}

/** A shopper's own API session (register, sign in). */
async function shopperApi(baseURL: string, username: string): Promise<{ api: APIRequestContext; email: string }> {
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const { email } = await registerShopper(api, username);
  expect((await api.post('/api/login', { data: { email, password: shopperPassword } })).status()).toBe(200);
  return { api, email };
}

/** Subscribes through the API on the first delivery date the server takes for a season box. */
async function subscribeByApi(api: APIRequestContext, productId: number): Promise<SubscriptionView> {
  const dates = (await (await api.get('/api/delivery/dates?region=Auckland&boxes=1')).json()) as { dates: Array<{ date: string; state: { available: boolean } }> };
  for (const option of dates.dates.filter((one) => one.state.available)) {
    const response = await api.post('/api/subscriptions', {
      data: { productId, quantity: 1, every: 'week', firstDeliveryDate: option.date, paymentMethod: 'bank_transfer', shipping: { name: 'Tama Hohaia', phone: '022 123 4567', street: '21 Ponsonby Road', city: 'Auckland', postcode: '1011', region: 'Auckland' } },
    });
    // The first day or two checkout offers may be past a season box's cut-off (a day earlier).
    if (response.status() === 400) continue;
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as SubscriptionView;
  }
  throw new Error('no delivery date took a season box');
}

/** Chooses the first day the picker offers and starts the box; a day the server finds too soon is greyed and the next tried. */
async function startFromForm(page: Page) {
  const form = page.getByRole('form', { name: 'Start a season box' });
  for (let attempt = 0; attempt < 4; attempt += 1) {
    await form.getByRole('group', { name: 'First delivery' }).getByRole('radio', { disabled: false }).first().check();
    await form.getByRole('button', { name: 'Start my season box' }).click();
    const outcome = await Promise.race([
      page.getByText('Your season box is set up').waitFor().then(() => 'started' as const),
      form.locator('[data-field="firstDeliveryDate"] [role="alert"]').waitFor().then(() => 'refused' as const),
    ]);
    if (outcome === 'started') return;
  }
  throw new Error('no first delivery day was taken');
}

test('a shopper starts a season box from its product page and runs it from My account', async ({ page, request, baseURL }) => {
  const name = `Season Box Kesar ${stamp()}`;
  const productId = await seasonBoxProduct(baseURL!, name);
  await registerAndSignIn(page, request, `regular${stamp()}`);

  await page.goto(`/product/${productId}`);
  const offer = page.getByRole('region', { name: 'Season box' });
  await expect(offer).toContainText('$45.00 a box as a season box (10% off)');
  await offer.getByRole('button', { name: 'Get it every week or fortnight' }).click();
  const form = page.getByRole('form', { name: 'Start a season box' });
  await form.getByLabel('Every fortnight').check();
  await fillCheckoutTown(page, 'Auckland', '1011', 'Auckland');
  await form.getByRole('group', { name: 'First delivery' }).getByRole('radio', { disabled: false }).first().check();
  await expect(form.getByText(/Your box comes every second \w+day/)).toBeVisible();
  await shootAtBothWidths(page, 'season-box-form', form);
  await startFromForm(page);
  await shootAtBothWidths(page, 'season-box-started', page.getByText('Your season box is set up'));

  await page.getByRole('link', { name: 'See your season box in My account' }).click();
  const panel = page.locator('#season-box');
  await expect(panel.getByRole('heading', { name: 'My season box' })).toBeVisible();
  const boxes = panel.getByRole('list', { name: 'Your season boxes' });
  await expect(boxes).toContainText(name);
  await expect(boxes).toContainText(/Every fortnight on \w+day/);
  const first = boxes.locator('li[data-state]').first();
  await expect(first).toHaveAttribute('data-state', 'scheduled');
  await expect(first).toContainText('Skip or change by');
  await shootAtBothWidths(page, 'my-season-box', panel);

  // Skip the next box, and bring it back.
  await first.getByRole('button', { name: 'Skip', exact: true }).click();
  await expect(first).toHaveAttribute('data-state', 'skipped');
  await shootAtBothWidths(page, 'my-season-box-skipped', panel);
  await first.getByRole('button', { name: 'Undo skip' }).click();
  await expect(first).toHaveAttribute('data-state', 'scheduled');

  // Two boxes every time from now on.
  await panel.getByRole('button', { name: 'Change', exact: true }).click();
  const change = panel.getByRole('form', { name: `Change your season box of ${name}` });
  await change.getByRole('button', { name: 'Increase quantity' }).click();
  await change.getByLabel('Every box').check();
  await shootAtBothWidths(page, 'my-season-box-change', change);
  await change.getByRole('button', { name: 'Save change' }).click();
  await expect(first).toContainText(`2 × ${name}`);
  await expect(boxes.locator('li[data-state]').nth(1)).toContainText(`2 × ${name}`);

  // Pause, resume, cancel: each a click or two.
  await panel.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(panel).toContainText('Paused');
  await expect(first).toHaveAttribute('data-state', 'paused');
  await panel.getByRole('button', { name: 'Resume' }).click();
  await expect(first).toHaveAttribute('data-state', 'scheduled');
  await panel.getByRole('button', { name: 'Cancel season box' }).click();
  await expect(panel.getByText('Cancel your season box?')).toBeVisible();
  await shootAtBothWidths(page, 'my-season-box-cancel', panel);
  await panel.getByRole('button', { name: 'Yes, cancel it' }).click();
  await expect(panel).toContainText('Cancelled');
  await expect(boxes.locator('li[data-state]')).toHaveCount(0);
  // Still so after a reload: the server has it.
  await page.reload();
  await expect(page.locator('#season-box')).toContainText('Cancelled');
});

test("a subscriber skips a box from the reminder e-mail's link, signed out, and brings it back", async ({ page, baseURL }) => {
  const productId = await seasonBoxProduct(baseURL!, `Mailed Season Box ${stamp()}`);
  const { api, email } = await shopperApi(baseURL!, `mailed${stamp()}`);
  const subscription = await subscribeByApi(api, productId);
  const date = subscription.coming[0]!.date;
  // The first box's cut-off is near: its "skip or change it" mail comes at once.
  await expect.poll(() => (() => { try { return latestMailTo(email); } catch { return ''; } })(), { timeout: 15_000 }).toContain('skip or change it by');
  const mail = latestMailTo(email);
  const link = /Skip this box: (\S+)/.exec(mail)![1]!;
  expect(link).toContain('/api/season-box-mail/skip?token=');

  await page.goto(link);
  await expect(page.getByRole('heading', { name: /^Skip your box on \w+day \d+ \w+\?$/ })).toBeVisible();
  await shootAtBothWidths(page, 'season-box-skip-link');
  const state = async () => ((await (await api.get(`/api/subscriptions/${subscription.id}`)).json()) as SubscriptionView).coming.find((box) => box.date === date)!.state;
  // Opening the link (a mail scanner does) skips nothing.
  expect(await state()).toBe('scheduled');
  await page.getByRole('button', { name: 'Skip this box' }).click();
  await expect(page.getByRole('heading', { name: 'Box skipped' })).toBeVisible();
  await shootAtBothWidths(page, 'season-box-skipped-by-mail');
  expect(await state()).toBe('skipped');
  // That delivery only: the next one still comes.
  expect(((await (await api.get(`/api/subscriptions/${subscription.id}`)).json()) as SubscriptionView).coming[1]!.state).toBe('scheduled');
  await page.getByRole('button', { name: 'Undo skip' }).click();
  await expect(page.getByRole('heading', { name: 'Your box is coming' })).toBeVisible();
  expect(await state()).toBe('scheduled');
  await api.dispose();
});

test('staff see each season box, its history and the eight-week forecast, start a run early and stop all', async ({ page, baseURL }) => {
  const name = `Forecast Alphonso ${stamp()}`;
  const productId = await seasonBoxProduct(baseURL!, name);
  const { api } = await shopperApi(baseURL!, `forecast${stamp()}`);
  const subscription = await subscribeByApi(api, productId);
  await api.dispose();

  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/subscriptions');
  await expect(page.getByRole('heading', { name: 'Season boxes', level: 1 })).toBeVisible();
  const forecast = page.getByRole('region', { name: 'Forecast: boxes per delivery date' });
  await expect(forecast).toContainText(name);
  await expect(forecast.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/admin/subscriptions/forecast.csv');
  await shootAtBothWidths(page, 'admin-season-boxes', forecast);

  // A run started early for the first box's date makes its order.
  const run = page.getByRole('region', { name: 'Start a run early' });
  await run.getByLabel('Delivery date').fill(subscription.coming[0]!.date);
  await run.getByRole('button', { name: 'Start run' }).click();
  await expect(run).toContainText(/Made \d+ orders?/);

  // The subscription's detail: its history has the order.
  await page.getByRole('link', { name: /Tama Hohaia/ }).first().click();
  await expect(page.getByText(/MS-\d+/).first()).toBeVisible();
  await shootAtBothWidths(page, 'admin-season-box-detail');

  // Stop all: shown on the dashboard until turned back on.
  await page.goto('/admin/subscriptions');
  await page.getByRole('button', { name: 'Stop all' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Stop all' }).click();
  await expect(page.getByText(/Stopped since/)).toBeVisible();
  await page.goto('/admin');
  await expect(page.getByText('Season boxes are stopped')).toBeVisible();
  await shootAtBothWidths(page, 'admin-dashboard-season-boxes-stopped', page.getByText('Season boxes are stopped'));
  await page.goto('/admin/subscriptions');
  await page.getByRole('button', { name: 'Turn back on' }).click();
  await expect(page.getByText(/Stopped since/)).toHaveCount(0);
});
