import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { shootAtBothWidths } from './screenshots';
import { formatDeadline } from '../src/contracts/dates';
import { formatPrice } from '../src/web/lib/format';
import { addFromProductPage, admin, adminApi, chooseFirstDeliveryDay, createProduct, fillCheckoutTown, firstDeliveryDate, registerAndSignIn, signIn } from './shopper';

/** Whether `locator` is inside the viewport now (not only somewhere on the page). */
async function onScreen(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const height = page.viewportSize()!.height;
  return Boolean(box && box.y >= 0 && box.y + box.height <= height);
}

test.describe('a phone shopper', () => {
  test('checkout moves to the first field in error and sums up what is left to fix by the button', async ({ page, request }) => {
    await registerAndSignIn(page, request, 'aroha-errors');
    await page.setViewportSize({ width: 390, height: 844 });
    await addFromProductPage(page, 1);
    await page.goto('/checkout');
    await expect(page.getByLabel('Full name')).toHaveValue('Tama Hohaia');
    await page.getByLabel('Phone').fill('');
    await page.getByRole('button', { name: 'Place order' }).click();

    // The phone is the first field in error: focused and on screen, not far above the button.
    const phone = page.getByLabel('Phone');
    await expect(phone).toBeFocused();
    expect(await onScreen(page, phone)).toBe(true);
    const summary = page.getByRole('alert').filter({ hasText: /\d+ things? to fix/ });
    await expect(summary.getByText('5 things to fix')).toBeVisible();
    // Named by their labels; each message stays beside its field, once.
    await expect(summary.getByRole('listitem')).toHaveText(['Phone', 'Town or city', 'Postcode', 'Region', 'Delivery day']);
    await expect(page.getByText('Phone number is required')).toHaveCount(1);
    await shootAtBothWidths(page, 'checkout-error-summary', summary);
    await page.setViewportSize({ width: 390, height: 844 });

    await phone.fill('022 123 4567');
    await fillCheckoutTown(page, 'Wellington', '6011', 'Wellington');
    await expect(summary.getByText('1 thing to fix')).toBeVisible();
    await page.getByRole('button', { name: 'Place order' }).click();
    const firstDay = page.getByRole('group', { name: 'Delivery day' }).getByRole('radio', { disabled: false }).first();
    await expect(firstDay).toBeFocused();
    expect(await onScreen(page, firstDay)).toBe(true);

    // A line of the summary takes the shopper to its field.
    await page.getByRole('button', { name: 'Place order' }).focus();
    await summary.getByRole('button', { name: 'Delivery day' }).click();
    await expect(firstDay).toBeFocused();
    await chooseFirstDeliveryDay(page);
    await expect(summary).toHaveCount(0);
  });
});

test('bank transfer is offered only with an account number, is due before the packing day, and its details copy', async ({ page, request, baseURL, context }) => {
  const api = await adminApi(baseURL!);
  const settings = await (await api.get('/api/admin/settings')).json();
  await registerAndSignIn(page, request, 'hemi-transfer');
  await addFromProductPage(page, 1);

  // No account number: bank transfer is not offered, card is.
  expect((await api.put('/api/admin/settings', { data: { ...settings, bankTransfer: { ...settings.bankTransfer, accountNumber: '' } } })).status()).toBe(200);
  try {
    await page.goto('/checkout');
    await expect(page.getByLabel('Card (Stripe)')).toBeChecked();
    await expect(page.getByLabel('Bank transfer')).toHaveCount(0);
  } finally {
    expect((await api.put('/api/admin/settings', { data: settings })).status()).toBe(200);
  }

  await page.reload();
  await page.getByLabel('Bank transfer').check();
  await fillCheckoutTown(page, 'Wellington', '6011', 'Wellington');
  await expect(page.getByText('Paying by bank transfer leaves a day for your payment to reach us before we pack.')).toBeVisible();
  const deliveryDate = await chooseFirstDeliveryDay(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
  const number = (await page.getByText(/Your order number is/).locator('strong').textContent())!;

  // Due before the boxes are packed: never after the day they arrive.
  const order = await (await page.request.get(`/api/orders/${number}`)).json();
  expect(Date.parse(order.bankTransfer.payBy)).toBeLessThan(Date.parse(`${deliveryDate}T00:00:00+13:00`));
  await expect(page.getByText(`Please pay by bank transfer by ${formatDeadline(order.bankTransfer.payBy)}`)).toBeVisible();
  await expect(page.getByText('Please contact us for it')).toHaveCount(0);

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy reference' }).click();
  await expect(page.getByRole('button', { name: 'Reference copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(number);
  await page.getByRole('button', { name: 'Copy account number' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(settings.bankTransfer.accountNumber);
  await shootAtBothWidths(page, 'bank-transfer-details', page.getByText('Please pay by bank transfer by'));
});

test('a visitor asked to sign in registers, signs in with the e-mail filled, and is back on the product with it in the cart', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/product/3');
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  const notice = page.getByRole('status').filter({ hasText: 'Authentication Required' }).or(page.getByRole('region').getByText('Authentication Required'));
  await expect(notice.first()).toBeVisible();
  await expect(page.getByText('Please login to add items to cart').first()).toBeVisible();
  await shootAtBothWidths(page, 'sign-in-notice');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/auth\?redirect=%2Fproduct%2F3&add=3x1$/);

  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Username').fill('rangi-returns');
  await page.getByLabel('First name').fill('Rangi');
  await page.getByLabel('Last name').fill('Parata');
  await page.getByLabel('Email').fill('rangi-returns@example.nz');
  await page.getByLabel('Phone').fill('021 555 0101');
  await page.getByLabel('Home address').fill('4 Tui Street');
  await page.getByLabel('Password', { exact: true }).fill('Orchard-Return-9');
  await page.getByRole('button', { name: 'Create Account' }).click();

  // Spec: a registration switches to sign-in; the e-mail is already there and the password is next.
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue('rangi-returns@example.nz');
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await page.getByLabel('Password', { exact: true }).fill('Orchard-Return-9');
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();

  await expect(page).toHaveURL(/\/product\/3$/);
  await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
  const cart = await (await page.request.get('/api/me')).json();
  const lines = await (await page.request.get(`/api/cart/${cart.id}`)).json();
  expect(lines.items.map((item: { productId: number; quantity: number }) => [item.productId, item.quantity])).toEqual([[3, 1]]);
});

test('a product no one has rated shows no stars, and the phone header shows who is signed in', async ({ page, request, baseURL }) => {
  const api = await adminApi(baseURL!);
  const id = await createProduct(api, { name: 'Unrated Rajapuri', description: 'A variety no one has rated yet.', price: 48, imageUrl: '/images/products/kesar.svg', category: 'Classic', stock: 4, rating: 0 });
  try {
    await page.goto(`/product/${id}`);
    await expect(page.getByText('Not rated yet')).toBeVisible();
    await expect(page.getByText('0.0')).toHaveCount(0);
    await page.goto('/shop?sort=name');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Unrated Rajapuri' }) });
    await expect(card).toBeVisible();
    await expect(card.getByText(/Rated/)).toHaveCount(0);
    await expect(card.getByText('0.0')).toHaveCount(0);
    await shootAtBothWidths(page, 'unrated-card', card);

    await registerAndSignIn(page, request, 'wiremu-phone');
    await page.setViewportSize({ width: 390, height: 844 });
    const account = page.getByRole('link', { name: 'Your account (wiremu-phone)' });
    await expect(account).toBeVisible();
    await expect(account).toHaveText('w');
    await shootAtBothWidths(page, 'phone-header-signed-in');
    await page.setViewportSize({ width: 390, height: 844 });
    await account.click();
    await expect(page).toHaveURL(/\/account$/);
  } finally {
    await api.delete(`/api/products/${id}`);
  }
});

test("a gift's receipt names the buyer, and a shop without a GST number issues a receipt with no GST on it", async ({ page, request }) => {
  await registerAndSignIn(page, request, 'mere-gift-buyer');
  const me = await (await page.request.get('/api/me')).json();
  expect((await page.request.post(`/api/cart/${me.id}/items`, { data: { productId: 1, quantity: 1 } })).status()).toBe(200);
  const recipient = { name: 'Nana Huia', phone: '027 555 0199', street: '8 Kowhai Lane', suburb: '', city: 'Hamilton', postcode: '3204', region: 'Waikato', deliveryInstructions: '' };
  const placed = await page.request.post('/api/orders', {
    data: { shipping: recipient, gift: { message: 'Happy birthday!' }, paymentMethod: 'bank_transfer', deliveryDate: await firstDeliveryDate(page.request, 'Waikato'), idempotencyKey: 'gift-receipt-0001' },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const { order } = await placed.json();

  await page.goto(`/account/orders/${order.number}`);
  await page.getByRole('button', { name: 'View receipt' }).click();
  const receipt = page.getByRole('dialog', { name: 'Receipt', exact: true });
  await expect(receipt).toBeVisible();
  await expect(receipt.getByText('Tama Hohaia')).toBeVisible();
  await expect(receipt.getByText('mere-gift-buyer@example.nz')).toBeVisible();
  await expect(receipt.getByText('Sent as a gift to Nana Huia, Hamilton')).toBeVisible();
  await expect(receipt.getByText(/GST/)).toHaveText(['All prices are in New Zealand dollars. We are not registered for GST, so no GST is charged.']);
  await expect(receipt.getByRole('row', { name: `Total ${formatPrice(order.total)}` })).toBeVisible();
  await shootAtBothWidths(page, 'gift-receipt', receipt);
});

test.describe('smaller shopper paths', () => {
  test("search's Enter opens a results page, with one button that clears and then closes", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Search products' }).click();
    const dialog = page.getByRole('dialog');
    const box = dialog.getByRole('combobox', { name: 'Search products' });
    await box.fill('organic');
    await expect(dialog.getByRole('option').first()).toBeVisible();
    // One X at a time: the browser's own clear button is hidden.
    await expect(dialog.getByRole('button')).toHaveCount(1);
    await dialog.getByRole('button', { name: 'Clear search' }).click();
    await expect(box).toHaveValue('');
    await expect(box).toBeFocused();
    await expect(dialog.getByRole('button', { name: 'Close search' })).toBeVisible();

    await box.fill('organic');
    await expect(dialog.getByRole('option').first()).toBeVisible();
    await box.press('Enter');
    await expect(page).toHaveURL(/\/shop\?search=organic$/);
    await expect(page.getByRole('status').filter({ hasText: 'Results for “organic”' })).toBeVisible();
    await expect(page.locator('main ul h3')).toContainText(['Mallika Mangoes']);
    await shootAtBothWidths(page, 'search-results');
    await page.getByRole('link', { name: 'Clear search' }).click();
    await expect(page).toHaveURL(/\/shop$/);
  });

  test('a quick view on a phone does not put focus in a field (no keyboard over the product)', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/shop');
    await page.getByRole('button', { name: 'Quick View of Alphonso Mangoes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Alphonso Mangoes' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toBeFocused();
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('INPUT');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test('a promo code applied at checkout survives a reload', async ({ page, request }) => {
    await registerAndSignIn(page, request, 'keri-promo');
    await addFromProductPage(page, 1);
    await page.goto('/checkout');
    const summary = page.getByRole('complementary', { name: 'Order summary' });
    await page.getByLabel('Promo code').fill('mango10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(summary.getByText('MANGO10', { exact: true })).toBeVisible();
    await page.reload();
    await expect(summary.getByText('MANGO10', { exact: true })).toBeVisible();
    await expect(summary.getByText('-$6.50')).toBeVisible();
    await summary.getByRole('button', { name: 'Remove' }).click();
    await page.reload();
    await expect(page.getByLabel('Promo code')).toBeVisible();
    await expect(summary.getByText(/MANGO10/)).toHaveCount(0);
  });
});

test('the dashboard lists what a new shop still lacks, each leading to its setting', async ({ page }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin');
  const setup = page.getByRole('region', { name: 'Still to set up' });
  await expect(setup.getByRole('link', { name: 'Replace the sample bank account number' })).toBeVisible();
  await expect(setup.getByRole('link', { name: 'Add your GST number, or say you are not registered' })).toBeVisible();
  await expect(setup.getByText('Set PUBLIC_URL to the shop’s address')).toBeVisible();
  await expect(setup.getByText('Set SMTP_URL to send e-mail')).toBeVisible();
  await shootAtBothWidths(page, 'setup-checklist', setup);
  await page.setViewportSize({ width: 1280, height: 800 });
  await setup.getByRole('link', { name: 'Replace the sample bank account number' }).click();
  await expect(page).toHaveURL(/\/admin\/settings#tax-and-bank$/);
  await expect(page.getByLabel('Account number')).toHaveAttribute('placeholder', 'Bank-branch-account-suffix');
  await expect(page.getByLabel('Not registered for GST')).not.toBeChecked();
});

test('a cart of in-stock and pre-order boxes marks the pre-order, and sends the in-stock boxes first as one order, the pre-order later as another, one payment for both', async ({ page, request, baseURL }) => {
  const api = await adminApi(baseURL!);
  const tag = Date.now().toString(36);
  const ready = await createProduct(api, { name: `Ready Kesar ${tag}`, description: 'In the cool room now.', price: 54.99, imageUrl: '/images/products/kesar.svg', category: 'Indian', stock: 20 });
  const coming = await createProduct(api, {
    name: `Coming Alphonso ${tag}`,
    description: 'Flown in when the season opens.',
    price: 69.99,
    imageUrl: '/images/products/alphonso.svg',
    category: 'Seasonal',
    stock: 0,
    isPreOrder: true,
    expectedAvailabilityDate: '2027-04-20',
  });
  await registerAndSignIn(page, request, `rangi-split-${tag}`);
  await addFromProductPage(page, ready);
  await page.goto(`/product/${coming}`);
  await page.getByRole('button', { name: 'Pre-Order Now', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Added!' })).toBeVisible();

  // The cart says which line waits, and until when.
  await page.getByRole('button', { name: 'Cart, 2 items' }).click();
  const drawer = page.getByRole('dialog', { name: 'Your Cart' });
  await expect(drawer.getByText('Pre-order, expected 20 April 2027')).toHaveCount(1);
  await shootAtBothWidths(page, 'cart-pre-order-line');
  await page.keyboard.press('Escape');

  await page.goto('/checkout');
  const choice = page.getByRole('group', { name: 'Your cart has in-stock and pre-order boxes' });
  // Together, as an order of pre-orders always went, unless the shopper asks for two deliveries.
  await expect(choice.getByRole('radio', { name: /Send it all together/ })).toBeChecked();
  await expect(choice).toContainText('the pre-order boxes expected 20 April 2027. No extra delivery charge');
  await fillCheckoutTown(page, 'Wellington', '6011', 'Wellington');
  // Sent together, there is no day to choose now; in two deliveries the in-stock boxes need one.
  await expect(page.getByRole('group', { name: 'Delivery day' })).toHaveCount(0);
  await choice.getByRole('radio', { name: /Send in two deliveries/ }).check();
  await page.setViewportSize({ width: 390, height: 900 });
  const deliveryDay = await chooseFirstDeliveryDay(page);
  await shootAtBothWidths(page, 'checkout-send-choice', choice);
  const total = (await (await page.request.post('/api/checkout/quote', { data: {} })).json()) as { total: number };
  await page.getByRole('button', { name: 'Place order' }).click();

  await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
  const paired = page.getByTestId('paired-order');
  await expect(paired).toContainText(/Your pre-order boxes follow as order MS-\d+ \(\$\d+\.\d\d\), sent when they arrive, at no extra delivery charge\. One payment here covers both orders\./);
  // One transfer pays for both: its amount is the whole cart's.
  await expect(page.getByText('Amount', { exact: true }).locator('..')).toContainText(formatPrice(total.total));
  await shootAtBothWidths(page, 'success-two-deliveries', paired);
  const laterNumber = (await paired.getByRole('link').textContent())!;
  const firstNumber = new URL(page.url()).searchParams.get('order')!;

  const first = (await (await page.request.get(`/api/orders/${firstNumber}`)).json()) as { deliveryDate: string; lines: Array<{ name: string }> };
  expect(first.deliveryDate).toBe(deliveryDay);
  expect(first.lines.map((line) => line.name)).toEqual([`Ready Kesar ${tag}`]);

  await paired.getByRole('link').click();
  await expect(page.getByRole('heading', { name: `Order ${laterNumber}` })).toBeVisible();
  await expect(page.getByTestId('paired-order')).toContainText(`These are the pre-order boxes of order ${firstNumber}, sent on their own when they arrive. This order is paid for with that one: please pay there.`);
  await expect(page.getByText(`Coming Alphonso ${tag}`)).toBeVisible();
  await shootAtBothWidths(page, 'later-delivery-order');

  // Staff mark the one transfer paid: both orders are paid.
  expect((await api.post(`/api/admin/orders/${firstNumber}/status`, { data: { status: 'paid' } })).status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId('paired-order')).toContainText('They were paid for with that order.');
  // The shopper leaves; the owner signs in on the same browser.
  await page.context().clearCookies();
  await signIn(page, admin.email, admin.password);
  await page.goto(`/admin/orders?order=${firstNumber}`);
  await expect(page.getByText(/One cart in two deliveries: its pre-order boxes are order MS-\d+, paid with this one/)).toBeVisible();
  await shootAtBothWidths(page, 'admin-two-deliveries');
});
