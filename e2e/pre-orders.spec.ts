import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { adminApi, admin, registerShopper, signIn } from './shopper';

/** A pre-order product of this journey's own, so no other journey's stock or limits move. */
async function comingVariety(api: APIRequestContext, name: string): Promise<number> {
  const response = await api.post('/api/products', {
    data: {
      name,
      description: 'A pre-order variety made for the season journey.',
      price: 59.99,
      imageUrl: '/images/products/dasheri.svg',
      category: 'Seasonal',
      stock: 0,
      isPreOrder: true,
      expectedAvailabilityDate: '2027-06-10',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** A shopper's pre-order through the API: its number and the shopper's sign-in. */
async function preOrder(request: APIRequestContext, username: string, productId: number, boxes: number) {
  const { email, password } = await registerShopper(request, username);
  expect((await request.post('/api/login', { data: { email, password } })).status()).toBe(200);
  const me = (await (await request.get('/api/me')).json()) as { id: number };
  expect((await request.post(`/api/cart/${me.id}/items`, { data: { productId, quantity: boxes } })).status()).toBe(200);
  const placed = await request.post('/api/orders', {
    data: {
      idempotencyKey: `season-${username}-0001`,
      shipping: { name: 'Mere Tawhiri', phone: '022 765 4321', street: '8 Tennyson Street', city: 'Napier', postcode: '4110', region: "Hawke's Bay" },
    },
  });
  expect(placed.status()).toBe(201);
  await request.post('/api/logout');
  return { email, password, number: ((await placed.json()) as { order: { number: string } }).order.number };
}

test('staff record a short shipment: the paid pre-order gets its boxes, the rest gets a new date, then is cancelled, and the variety sells from stock', async ({ page, request, baseURL, browser }) => {
  const api = await adminApi(baseURL!);
  const name = `Season Kesar ${Date.now().toString(36)}`;
  const productId = await comingVariety(api, name);
  const paid = await preOrder(request, `season-paid-${Date.now().toString(36)}`, productId, 2);
  const unpaid = await preOrder(request, `season-late-${Date.now().toString(36)}`, productId, 3);
  expect((await api.post(`/api/admin/orders/${paid.number}/status`, { data: { status: 'paid' } })).status()).toBe(200);

  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/inventory');
  await page.getByRole('button', { name: `Pre-orders of ${name}` }).click();
  const panel = page.getByRole('dialog', { name: `Pre-orders: ${name}` });
  await expect(panel.getByText('Pre-ordered', { exact: true }).locator('..')).toContainText('5');
  await expect(panel.getByRole('row', { name: new RegExp(paid.number) })).toContainText('Waiting');

  // A shipment of 3 boxes: the paid order (2) is served before the older unpaid one (3 do not fit in 1).
  await panel.getByRole('button', { name: 'Record shipment' }).click();
  await panel.getByRole('button', { name: 'Record and allocate' }).click();
  await expect(panel.getByText('Boxes received must be a whole number')).toBeVisible();
  await panel.getByLabel('Boxes received').fill('3');
  await panel.getByLabel('Arrival date').fill('2026-11-02');
  await panel.getByLabel('Note (optional)').fill('Air freight, chilled');
  await panel.getByRole('button', { name: 'Record and allocate' }).click();
  await expect(page.getByText(/2 boxes set aside for 1 order; 3 boxes still waiting; 1 box left in stock/).first()).toBeVisible();
  // The 1 box left fits no waiting line: nothing to allocate from stock.
  await expect(panel.getByRole('button', { name: 'Allocate from stock' })).toHaveCount(0);
  await expect(panel.getByRole('row', { name: new RegExp(paid.number) })).toContainText('Set aside');
  await expect(panel.getByRole('row', { name: new RegExp(unpaid.number) })).toContainText('Waiting');
  await expect(panel.getByText('Allocated', { exact: true }).locator('..')).toContainText('2');
  await expect(panel.getByText('2 November 2026: 3 boxes received, 2 boxes allocated')).toBeVisible();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`pre-orders-${width}.png`) });
  }

  // The served shopper sees their boxes set aside.
  const shopperContext = await browser.newContext({ baseURL });
  try {
    const shopperPage = await shopperContext.newPage();
    await signIn(shopperPage, paid.email, paid.password);
    await shopperPage.goto(`/account/orders/${paid.number}`);
    await expect(shopperPage.getByText(/pre-order, boxes set aside/)).toBeVisible();
    // All its boxes are here: it has its delivery day now.
    await expect(shopperPage.getByText(/set aside from the shipment of 2 November 2026; delivery \w{3}, \d+ \w+ 20\d\d, dispatched \w{3}, \d+ \w+ 20\d\d/)).toBeVisible();
    await expect(shopperPage.getByTestId('delivery-day')).toHaveText(/^Delivery day: \w{3}, \d+ \w+ 20\d\d$/);
    await shopperPage.setViewportSize({ width: 390, height: 900 });
    await shopperPage.screenshot({ path: test.info().outputPath('pre-order-shopper-390.png'), fullPage: true });
  } finally {
    await shopperContext.close();
  }

  // The rest is late: a new date for the waiting shopper.
  await panel.getByRole('button', { name: 'Move expected date' }).click();
  await panel.getByLabel('New expected date').fill('2027-07-01');
  await panel.getByLabel('Message to shoppers (optional)').fill('The second flight was moved.');
  await panel.getByRole('button', { name: 'Move date and e-mail' }).click();
  await expect(page.getByText('1 waiting shopper was e-mailed the new date.').first()).toBeVisible();
  await expect(panel.getByText(/Expected 1 July 2027/)).toBeVisible();

  // Then the grower cannot supply it: cancel the waiting order, after a confirmation.
  await panel.getByRole('button', { name: 'Cancel waiting pre-orders' }).click();
  await panel.getByLabel('Reason').fill('the grower lost the late harvest');
  await panel.getByRole('button', { name: 'Cancel waiting pre-orders' }).last().click();
  const confirm = page.getByRole('dialog', { name: 'Cancel 1 waiting order?' });
  await confirm.getByRole('button', { name: 'Cancel and refund' }).click();
  await expect(page.getByText('1 unpaid cancelled, 0 paid refunded in full.').first()).toBeVisible();
  await expect(panel.getByRole('row', { name: new RegExp(unpaid.number) })).toHaveCount(0);

  // Every pre-order is served: the leftover box sells from stock.
  await panel.getByRole('button', { name: 'Sell from stock' }).click();
  await page.getByRole('dialog', { name: `Sell ${name} from stock?` }).getByRole('button', { name: 'Sell from stock' }).click();
  await expect(page.getByText(`${name}: 1 in stock.`).first()).toBeVisible();
  // Sold from stock now, it shows its stock in the panel, then Adjust on Inventory.
  await expect(panel.getByText(/^Selling from stock/)).toBeVisible();
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('button', { name: `Adjust stock of ${name}` })).toBeVisible();
  const product = (await (await request.get(`/api/products/${productId}`)).json()) as { isPreOrder: boolean; stock: number };
  expect(product).toMatchObject({ isPreOrder: false, stock: 1 });
  await api.dispose();
});
