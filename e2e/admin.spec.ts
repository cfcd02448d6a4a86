import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { admin, firstDeliveryDate, registerShopper, signIn } from './shopper';

/** A customer's bank-transfer order, placed through the API (2 boxes of Totapuri unless told). */
async function placeOrder(request: APIRequestContext, username: string, line = { productId: 8, quantity: 2 }) {
  const { email, password } = await registerShopper(request, username);
  expect((await request.post('/api/login', { data: { email, password } })).status()).toBe(200);
  const me = (await (await request.get('/api/me')).json()) as { id: number };
  expect((await request.post(`/api/cart/${me.id}/items`, { data: line })).status()).toBe(200);
  const placed = await request.post('/api/orders', {
    data: {
      idempotencyKey: `admin-journey-${username}-0001`,
      deliveryDate: await firstDeliveryDate(request, 'Wellington', line.quantity),
      shipping: { name: 'Tama Hohaia', phone: '022 123 4567', street: '21 Lambton Quay', city: 'Wellington', postcode: '6011', region: 'Wellington' },
    },
  });
  expect(placed.status()).toBe(201);
  return { email, password, number: ((await placed.json()) as { order: { number: string } }).order.number };
}

/** Takes a next step on the open order: its button, the confirmation naming the order, then the dialog closes. */
async function takeStep(page: Page, number: string, action: string, fill?: () => Promise<void>) {
  await page.getByRole('group', { name: 'Next steps' }).getByRole('button', { name: action }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: `${action}: ${number}?` })).toBeVisible();
  await fill?.();
  await dialog.getByRole('button', { name: action }).click();
  await expect(dialog).toBeHidden();
}

test('the admin area asks a visitor to sign in and tells a customer it is not for them', async ({ page, request }) => {
  await page.goto('/admin/orders');
  await expect(page.getByRole('heading', { name: 'Staff sign-in' })).toBeVisible();
  const { email, password } = await registerShopper(request, 'hinemoa');
  await signIn(page, email, password);
  await page.goto('/admin/orders');
  await expect(page.getByRole('heading', { name: 'Not authorised' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin sections' })).toHaveCount(0);
});

test('an admin marks an order paid, packs and ships it with a tracking number, and the customer sees it', async ({ page, request, browser }) => {
  const customer = await placeOrder(request, 'manaia');
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Orders' }).click();
  await page.getByLabel('Search number, name or e-mail').fill(customer.email);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('link', { name: customer.number }).click();
  await expect(page.getByRole('heading', { name: `Order ${customer.number}` })).toBeVisible();

  const step = (action: string, fill?: () => Promise<void>) => takeStep(page, customer.number, action, fill);
  await step('Mark paid');
  await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
  await step('Mark packed');
  // Shipping needs its tracking number.
  await page.getByRole('group', { name: 'Next steps' }).getByRole('button', { name: 'Mark shipped' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Mark shipped' }).click();
  await expect(page.getByRole('dialog').getByText('A tracking number is required to mark an order shipped')).toBeVisible();
  await expect(page.getByRole('dialog').getByText('Choose the carrier', { exact: true }).last()).toBeVisible();
  await page.keyboard.press('Escape');
  await step('Mark shipped', async () => {
    await page.getByLabel('Carrier').selectOption({ label: 'CourierPost' });
    await page.getByLabel('Tracking number').fill('NZP-4455-6677');
  });
  await expect(page.getByText('Tracking: CourierPost NZP-4455-6677')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Next steps' }).getByRole('button', { name: 'Mark delivered' })).toBeVisible();

  const customerContext = await browser.newContext();
  const customerPage = await customerContext.newPage();
  try {
    await signIn(customerPage, customer.email, customer.password);
    await customerPage.goto(`/account/orders/${customer.number}`);
    await expect(customerPage.getByText('Shipped').first()).toBeVisible();
    await expect(customerPage.getByText('Tracking: CourierPost NZP-4455-6677')).toBeVisible();
    await expect(customerPage.getByRole('link', { name: /Track your parcel/ })).toHaveAttribute('href', 'https://www.nzpost.co.nz/tools/tracking/item/NZP-4455-6677');
  } finally {
    await customerContext.close();
  }
});

test('an admin receives boxes into stock and reads the history, and the shop shows the new stock', async ({ page, request }) => {
  const before = ((await (await request.get('/api/products/3')).json()) as { stock: number }).stock;
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/inventory');
  await page.getByRole('button', { name: 'Adjust stock of Banganapalli Mangoes' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Change in boxes').fill('0');
  await dialog.getByRole('button', { name: 'Save adjustment' }).click();
  await expect(dialog.getByText('Change cannot be 0')).toBeVisible();
  await dialog.getByLabel('Change in boxes').fill('5');
  await dialog.getByLabel('Reason').selectOption('received');
  await dialog.getByLabel('Note (optional)').fill('Morning delivery from the farm');
  await dialog.getByRole('button', { name: 'Save adjustment' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: /Banganapalli Mangoes/ }).getByRole('cell').first()).toHaveText(String(before + 5));

  await page.getByRole('button', { name: 'Stock history of Banganapalli Mangoes' }).click();
  const history = page.getByRole('dialog', { name: 'Stock history: Banganapalli Mangoes' });
  await expect(history.getByRole('row').nth(1)).toContainText('Received');
  await expect(history.getByRole('row').nth(1)).toContainText('Morning delivery from the farm');
  await expect(history.getByRole('row').nth(1)).toContainText('+5');
  await expect(history.getByText('Opening stock')).toBeVisible();
  expect(((await (await request.get('/api/products/3')).json()) as { stock: number }).stock).toBe(before + 5);
});

test('an admin refunds a packed order: its boxes go back to stock and the history shows the refund', async ({ page, request, browser }) => {
  const stockOfPairi = async () => ((await (await request.get('/api/products/14')).json()) as { stock: number }).stock;
  const before = await stockOfPairi();
  const customer = await placeOrder(request, 'whetu', { productId: 14, quantity: 3 });
  expect(await stockOfPairi()).toBe(before - 3);

  await signIn(page, admin.email, admin.password);
  await page.goto(`/admin/orders?order=${customer.number}`);
  await expect(page.getByRole('heading', { name: `Order ${customer.number}` })).toBeVisible();
  await takeStep(page, customer.number, 'Mark paid');
  await takeStep(page, customer.number, 'Mark packed');
  await page.getByRole('group', { name: 'Next steps' }).getByRole('button', { name: 'Record refund' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('3 boxes go back to stock.')).toBeVisible();
  await dialog.getByLabel('Note (optional)').fill('Boxes bruised in the packing shed');
  await dialog.getByRole('button', { name: 'Record refund' }).click();
  await expect(dialog).toBeHidden();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByText('Refunded', { exact: true })).toBeVisible();
  await expect(timeline.getByText(/Boxes bruised in the packing shed/)).toBeVisible();
  await expect(page.getByRole('group', { name: 'Next steps' }).getByRole('button', { name: 'Record refund' })).toHaveCount(0);
  expect(await stockOfPairi()).toBe(before);

  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Inventory' }).click();
  await expect(page.getByRole('row', { name: /Pairi Mangoes/ }).getByRole('cell').first()).toHaveText(String(before));
  await page.getByRole('button', { name: 'Stock history of Pairi Mangoes' }).click();
  const history = page.getByRole('dialog', { name: 'Stock history: Pairi Mangoes' });
  await expect(history.getByRole('row').nth(1)).toContainText(`Refund ${customer.number}`);
  await expect(history.getByRole('row').nth(1)).toContainText('+3');
  await expect(history.getByRole('row').nth(2)).toContainText(`Order ${customer.number}`);
  await expect(history.getByRole('row').nth(2)).toContainText('-3');

  const customerContext = await browser.newContext();
  const customerPage = await customerContext.newPage();
  try {
    await signIn(customerPage, customer.email, customer.password);
    await customerPage.goto(`/account/orders/${customer.number}`);
    await expect(customerPage.getByText('Refunded').first()).toBeVisible();
  } finally {
    await customerContext.close();
  }
});
