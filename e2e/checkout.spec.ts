import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';
import { ordersBusyMessage } from '../src/contracts/checkout';
import { formatDay } from '../src/contracts/dates';
import { expect, test } from './fixtures';
import { adminApi, chooseFirstDeliveryDay, createProduct, fillCheckoutTown, firstDeliveryDate, registerAndSignIn, registerShopper } from './shopper';

async function setGstNumber(api: APIRequestContext, gstNumber: string) {
  const current = await (await api.get('/api/admin/settings')).json();
  expect((await api.put('/api/admin/settings', { data: { ...current, gstNumber } })).status()).toBe(200);
}

test('a shopper checks out two products with a promo code and bank transfer, then finds the order and its receipt', async ({ page, request, baseURL }) => {
  const api = await adminApi(baseURL!);
  await setGstNumber(api, '123-456-789');
  try {
    await registerAndSignIn(page, request, 'mereana');
    for (const productId of [1, 3]) {
      await page.goto(`/product/${productId}`);
      await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
      await expect(page.getByRole('button', { name: 'Added!' })).toBeVisible();
    }
    await page.getByRole('button', { name: 'Cart, 2 items' }).click();
    await page.getByRole('link', { name: 'Checkout' }).click();

    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
    const summary = page.getByRole('complementary', { name: 'Order summary' });
    await expect(summary.getByText('$109.98')).toBeVisible();
    await expect(page.getByLabel('Full name')).toHaveValue('Tama Hohaia');
    await expect(page.getByLabel('Street address')).toHaveValue('21 Lambton Quay');

    // The quantity can still change here, and the totals follow the server's quote.
    await page.getByRole('button', { name: 'One more Banganapalli Mangoes' }).click();
    await expect(summary.getByText('$154.97')).toBeVisible();

    await page.getByLabel('Promo code').fill('nope');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(summary.getByText("We don't recognise that promo code.")).toBeVisible();
    await page.getByLabel('Promo code').fill('mango10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(summary.getByText('Promo code applied')).toBeVisible();
    // $154.97 - $15.50 + $12.00 shipping
    await expect(summary.getByText('$151.47')).toBeVisible();
    await expect(summary.getByText('-$15.50')).toBeVisible();
    await expect(summary.getByText('$19.76')).toBeVisible();

    // The spec's field messages, from the shared schema.
    await page.getByLabel('Phone').fill('12');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByText('Phone number is required')).toBeVisible();
    await expect(page.getByText('City is required')).toBeVisible();
    await expect(page.getByText('Postcode must be 4 digits')).toBeVisible();
    await expect(page.getByText('Choose a region', { exact: true }).last()).toBeVisible();

    await page.getByLabel('Phone').fill('022 123 4567');
    await fillCheckoutTown(page, 'Wellington', '6011', 'Wellington');
    await expect(page.getByText('Choose a delivery date')).toBeVisible();
    const deliveryDate = await chooseFirstDeliveryDay(page);
    await expect(page.getByLabel('Bank transfer')).toBeChecked();
    await page.getByRole('button', { name: 'Place order' }).click();

    await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
    const number = (await page.getByText(/Your order number is/).locator('strong').textContent())!;
    expect(number).toMatch(/^MS-\d+$/);
    await expect(page).toHaveURL(`/success?order=${number}`);
    await expect(page.getByText('Please pay by bank transfer by')).toBeVisible();
    await expect(page.getByRole('term').filter({ hasText: 'Reference' })).toBeVisible();
    await expect(page.getByRole('definition').filter({ hasText: new RegExp(`^${number}$`) })).toBeVisible();
    await expect(page.getByText('$151.47').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cart, 0 items' })).toBeVisible();
    // The day chosen at checkout, on every page of the order after it.
    const deliveryDay = `Delivery day: ${formatDay(deliveryDate)}`;
    await expect(page.getByTestId('delivery-day')).toHaveText(deliveryDay);

    await page.getByRole('link', { name: 'View your order' }).click();
    await expect(page).toHaveURL(`/account/orders/${number}`);
    await expect(page.getByRole('heading', { name: `Order ${number}` })).toBeVisible();
    await expect(page.getByText('Awaiting payment').first()).toBeVisible();
    await expect(page.getByText('Order placed')).toBeVisible();
    await expect(page.getByTestId('delivery-day')).toHaveText(deliveryDay);
    for (const amount of ['$154.97', '$12.00', '-$15.50', '$151.47', '$19.76']) await expect(page.getByText(amount, { exact: true }).first()).toBeVisible();

    await page.getByRole('button', { name: 'View receipt' }).click();
    const receipt = page.getByRole('dialog', { name: 'Tax invoice / receipt' });
    await expect(receipt).toBeVisible();
    await expect(receipt.getByText('GST number: 123-456-789')).toBeVisible();
    await expect(receipt.getByText('Mango Shop', { exact: true })).toBeVisible();
    await expect(receipt.getByRole('row', { name: /Alphonso Mangoes 1 \$64\.99 \$64\.99/ })).toBeVisible();
    await expect(receipt.getByRole('row', { name: /Banganapalli Mangoes 2 \$44\.99 \$89\.98/ })).toBeVisible();
    await expect(receipt.getByRole('row', { name: `Shipping (NZ-wide), delivery ${formatDay(deliveryDate)} $12.00` })).toBeVisible();
    await expect(receipt.getByRole('row', { name: 'Total (GST inclusive) $151.47' })).toBeVisible();
    await expect(receipt.getByRole('row', { name: 'GST included (15%) $19.76' })).toBeVisible();
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'All orders' }).click();
    const history = page.getByRole('list', { name: 'Orders, newest first' });
    await expect(history.getByRole('listitem')).toHaveCount(1);
    await expect(history.getByRole('link', { name: number })).toBeVisible();
    await expect(history.getByText('$151.47')).toBeVisible();
  } finally {
    await setGstNumber(api, '');
    await api.dispose();
  }
});

test('a visitor is sent to sign in and comes back to checkout', async ({ page, request }) => {
  const { email, password } = await registerShopper(request, 'piripi');
  await page.goto('/checkout');
  await expect(page).toHaveURL('/auth?redirect=%2Fcheckout');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL('/checkout');
  await expect(page.getByText('Your cart is empty')).toBeVisible();
  await page.getByRole('link', { name: 'Browse the shop' }).click();
  await expect(page).toHaveURL('/shop');
});

test.describe('when the stock runs out during checkout', () => {
  // The browser logs the refused order's 409 answer; the journey checks what the shopper reads.
  test.use({ expectedConsoleErrors: [/status of 409/] });

  test('a shopper who loses the last boxes to someone else reads what is left, and keeps the cart', async ({ page, request, baseURL }) => {
    const api = await adminApi(baseURL!);
    const productId = await createProduct(api, { name: 'Last Box Kesar', description: 'The last boxes of the season.', price: 61.5, imageUrl: '/images/products/kesar.svg', category: 'Premium', stock: 2 });
    const rival = await playwrightRequest.newContext({ baseURL });
    try {
      await registerAndSignIn(page, request, 'aperahama');
      const me = (await (await page.request.get('/api/me')).json()) as { id: number };
      expect((await page.request.post(`/api/cart/${me.id}/items`, { data: { productId, quantity: 2 } })).status()).toBe(200);
      await page.goto('/checkout');
      await fillCheckoutTown(page, 'Wellington', '6011', 'Wellington');
      await chooseFirstDeliveryDay(page);

      // Meanwhile another shopper buys one of the two boxes.
      const { email, password } = await registerShopper(rival, 'rawiri');
      expect((await rival.post('/api/login', { data: { email, password } })).status()).toBe(200);
      const rivalUser = (await (await rival.get('/api/me')).json()) as { id: number };
      expect((await rival.post(`/api/cart/${rivalUser.id}/items`, { data: { productId, quantity: 1 } })).status()).toBe(200);
      const rivalOrder = await rival.post('/api/orders', {
        data: {
          idempotencyKey: 'rival-order-key-0001',
          deliveryDate: await firstDeliveryDate(rival, "Hawke's Bay"),
          shipping: { name: 'Rawiri Tane', phone: '021 555 0000', street: '3 Kauri Street', city: 'Napier', postcode: '4110', region: "Hawke's Bay" },
        },
      });
      expect(rivalOrder.status()).toBe(201);

      await page.getByRole('button', { name: 'Place order' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Sorry, only 1 of Last Box Kesar is available. Please lower the quantity in your cart.' })).toBeVisible();
      await expect(page).toHaveURL('/checkout');
      await expect(page.getByText('Qty: 2')).toBeVisible();

      await page.getByRole('button', { name: 'One less Last Box Kesar' }).click();
      await expect(page.getByText('Single Item')).toBeVisible();
      await page.getByRole('button', { name: 'Place order' }).click();
      await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
    } finally {
      await api.put(`/api/products/${productId}`, { data: { isHidden: true } });
      await api.dispose();
      await rival.dispose();
    }
  });
});

/** A new shopper orders one box of product 2 by card and lands on Stripe's page (played on loopback). */
async function placeCardOrder(page: Page, request: APIRequestContext, name: string) {
  await registerAndSignIn(page, request, name);
  const me = (await (await page.request.get('/api/me')).json()) as { id: number };
  expect((await page.request.post(`/api/cart/${me.id}/items`, { data: { productId: 2, quantity: 1 } })).status()).toBe(200);
  await page.goto('/checkout');
  await fillCheckoutTown(page, 'Christchurch', '8011', 'Canterbury');
  await chooseFirstDeliveryDay(page);
  await page.getByLabel('Card (Stripe)').check();
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { name: 'Test card payment' })).toBeVisible();
}

test('a shopper pays by card on Stripe and comes back to a paid order', async ({ page, request }) => {
  await placeCardOrder(page, request, 'tui');
  // The order's total, in NZD.
  await expect(page.getByText(/^Order MS-\d+: \$71\.99 NZD$/)).toBeVisible();
  await page.getByRole('button', { name: 'Pay $71.99' }).click();

  await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
  await expect(page.getByText('Payment received: thank you.')).toBeVisible();
  await page.getByRole('link', { name: 'View your order' }).click();
  await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
  await expect(page.getByText(/Card payment received/)).toBeVisible();
  await expect(page.getByText('Payment: Card (Stripe)')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
});

test.describe('when Stripe confirms a card payment late', () => {
  // The browser logs the refused second payment's 409 answer; the journey checks what the shopper reads.
  test.use({ expectedConsoleErrors: [/status of 409/] });

  test('a shopper who has paid and asks to pay again is told the order is paid, and is not charged twice', async ({ page, request }) => {
    await placeCardOrder(page, request, 'hohepa');
    await page.getByRole('button', { name: 'Pay, holding the webhook back' }).click();

    await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
    await expect(page.getByText('We are waiting for Stripe to confirm your card payment.')).toBeVisible();
    await page.getByRole('button', { name: 'Pay by card now' }).click();
    const toast = page.getByRole('region', { name: /^Notifications/ });
    await expect(toast.getByText('Card payment could not start')).toBeVisible();
    await expect(toast.getByText('Your card payment for this order has already been received. There is nothing more to pay.')).toBeVisible();
    await expect(page.getByText('Payment received: thank you.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Pay by card now' })).toHaveCount(0);
    await expect(page).toHaveURL(/\/success\?order=MS-\d+$/);

    await page.getByRole('link', { name: 'View your order' }).click();
    await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
    await expect(page.getByText(/Card payment received/)).toHaveCount(1);
  });
});

test('a shopper cancels an unpaid order from the account page', async ({ page, request }) => {
  await registerAndSignIn(page, request, 'ngaire');
  const me = (await (await page.request.get('/api/me')).json()) as { id: number };
  await page.request.post(`/api/cart/${me.id}/items`, { data: { productId: 8, quantity: 1 } });
  const placed = await page.request.post('/api/orders', {
    data: {
      idempotencyKey: 'cancel-journey-key-01',
      deliveryDate: await firstDeliveryDate(page.request, 'Otago'),
      shipping: { name: 'Ngaire Tuhi', phone: '027 555 0101', street: '9 Rimu Road', city: 'Dunedin', postcode: '9016', region: 'Otago' },
    },
  });
  const { order } = (await placed.json()) as { order: { number: string } };
  await page.goto(`/order/${order.number}`);
  await page.getByRole('button', { name: 'Cancel order' }).click();
  await page.getByRole('button', { name: 'Yes, cancel order' }).click();
  await expect(page.getByText('Cancelled by the customer')).toBeVisible();
  await expect(page.getByText('Cancelled').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
});

test.describe('a rush', () => {
  // The browser logs each 429 it is answered; checkout handles them.
  test.use({ expectedConsoleErrors: [/status of 429 .*\/api\/orders/] });

  test('in a rush checkout keeps the shopper’s place: it tries again by itself through 429s, and one order lands', async ({ page, request }) => {
    await registerAndSignIn(page, request, 'patience');
    const me = (await (await page.request.get('/api/me')).json()) as { id: number };
    expect((await page.request.post(`/api/cart/${me.id}/items`, { data: { productId: 3, quantity: 1 } })).status()).toBe(200);
    // The shop is full of shoppers: the first two placements are told to wait, as the server does past ORDERS_AT_ONCE.
    const keys: string[] = [];
    await page.route('**/api/orders', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push((route.request().postDataJSON() as { idempotencyKey: string }).idempotencyKey);
      if (keys.length > 2) return route.continue();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return route.fulfill({ status: 429, headers: { 'retry-after': '1' }, contentType: 'application/json', json: { message: ordersBusyMessage } });
    });
    await page.goto('/checkout');
    await fillCheckoutTown(page, 'Wellington', '6011', 'Wellington');
    await chooseFirstDeliveryDay(page);
    await page.getByRole('button', { name: 'Place order' }).click();
    const waiting = page.getByRole('status').filter({ hasText: 'Many people are ordering right now. We are keeping your place and trying again' });
    await expect(waiting).toBeVisible();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await waiting.scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath(`checkout-rush-${width}.png`) });
    }
    await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible({ timeout: 20_000 });
    // Three tries, one order key, one order.
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    const mine = (await (await page.request.get('/api/orders')).json()) as unknown[];
    expect(mine).toHaveLength(1);
  });
});
