import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { adminApi, chooseFirstDeliveryDay, createProduct, fillCheckoutTown, registerAndSignIn, registerShopper, signIn } from './shopper';

/** Holds every cart line update (PUT) until released, and notes the method of each line request. */
async function holdCartUpdates(page: Page) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const methods: string[] = [];
  await page.route('**/api/cart/*/items/*', async (route) => {
    methods.push(route.request().method());
    if (route.request().method() === 'PUT') await held;
    await route.continue();
  });
  return { methods, release };
}

test("a visitor's add to cart asks them to sign in", async ({ page }) => {
  await page.goto('/product/1');
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expect(page.getByText('Authentication Required').first()).toBeVisible();
  await expect(page.getByText('Please login to add items to cart').first()).toBeVisible();
});

test('an out-of-stock product cannot be added', async ({ page }) => {
  await page.goto('/product/9');
  await expect(page.getByText('Out of Stock').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Out of Stock', exact: true })).toBeDisabled();
});

test('a shopper adds to cart, changes the quantity in the drawer and removes the line', async ({ page, request }) => {
  await registerAndSignIn(page, request, 'tama');
  await page.goto('/product/1');
  await page.getByRole('button', { name: 'Cart, 0 items' }).click();
  await expect(page.getByText('Your cart is empty')).toBeVisible();
  await expect(page.getByText("Looks like you haven't added any mangoes to your cart yet.")).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Increase quantity' }).click();
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expect(page.getByText('Added to Cart').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Added!' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add to Cart', exact: true })).toBeVisible({ timeout: 5000 });
  await expect(page.getByRole('spinbutton', { name: 'Quantity' })).toHaveValue('1');

  await page.getByRole('button', { name: 'Cart, 2 items' }).click();
  const drawer = page.getByRole('dialog', { name: 'Your Cart' });
  await expect(drawer.getByText('Qty: 2')).toBeVisible();
  await expect(drawer.getByText('$129.98').first()).toBeVisible();
  await expect(drawer.getByText('Calculated at checkout')).toBeVisible();
  await drawer.getByRole('button', { name: 'One more Alphonso Mangoes' }).click();
  await expect(drawer.getByText('Qty: 3')).toBeVisible();
  await expect(drawer.getByText('$194.97').first()).toBeVisible();
  await drawer.getByRole('button', { name: 'One less Alphonso Mangoes' }).click();
  await expect(drawer.getByText('Qty: 2')).toBeVisible();
  await drawer.getByRole('button', { name: 'One less Alphonso Mangoes' }).click();
  await expect(drawer.getByText('Single Item')).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Checkout' })).toHaveAttribute('href', '/checkout');

  await drawer.getByRole('button', { name: 'Remove Alphonso Mangoes' }).click();
  await expect(page.getByText('Removed from Cart').first()).toBeVisible();
  await expect(drawer.getByText('Your cart is empty')).toBeVisible();
  await drawer.getByRole('button', { name: 'Close cart' }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('button', { name: 'Cart, 0 items' })).toBeVisible();
});

test('presses on a line while its update is on its way count from the quantity pressed for, one update at a time', async ({ page, request }) => {
  await registerAndSignIn(page, request, 'quickpresser');
  await page.goto('/product/1');
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();

  // The first update waits until the journey lets it go; every update's quantity is noted.
  const sent: number[] = [];
  const answered: number[] = [];
  let letFirstGo: () => void = () => undefined;
  const firstHeld = new Promise<void>((resolve) => (letFirstGo = resolve));
  let inFlight = 0;
  let mostInFlight = 0;
  await page.route('**/api/cart/*/items/*', async (route) => {
    if (route.request().method() !== 'PUT') return route.continue();
    sent.push((route.request().postDataJSON() as { quantity: number }).quantity);
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    if (sent.length === 1) await firstHeld;
    const response = await route.fetch();
    inFlight -= 1;
    await route.fulfill({ response });
    answered.push(sent.length);
  });

  await page.getByRole('button', { name: 'Cart, 1 item' }).click();
  const drawer = page.getByRole('dialog', { name: 'Your Cart' });
  const more = drawer.getByRole('button', { name: 'One more Alphonso Mangoes' });
  await more.click();
  await expect(drawer.getByText('Qty: 2')).toBeVisible();
  await more.click();
  await more.click();
  await expect(drawer.getByText('Qty: 4')).toBeVisible();
  await drawer.getByRole('button', { name: 'One less Alphonso Mangoes' }).click();
  await expect(drawer.getByText('Qty: 3')).toBeVisible();
  // The subtotal counts what was pressed for, as the line does.
  const subtotal = drawer.getByText('Subtotal').locator('..');
  await expect(subtotal).toContainText('$194.97');
  expect(sent).toEqual([2]);

  letFirstGo();
  await expect.poll(() => sent).toEqual([2, 3]);
  await expect.poll(() => answered.length).toBe(2);
  await expect(drawer.getByText('Qty: 3')).toBeVisible();
  await expect(subtotal).toContainText('$194.97');
  expect(mostInFlight).toBe(1);

  // The server holds what was pressed for last.
  await page.unroute('**/api/cart/*/items/*');
  await page.reload();
  await page.getByRole('button', { name: 'Cart, 3 items' }).click();
  await expect(drawer.getByText('Qty: 3')).toBeVisible();

  // Removing a line whose update is on its way removes it for good: the update's answer does not bring it back.
  const { methods, release: letHeldGo } = await holdCartUpdates(page);
  await more.click();
  await expect(drawer.getByText('Qty: 4')).toBeVisible();
  await drawer.getByRole('button', { name: 'Remove Alphonso Mangoes' }).click();
  await page.waitForTimeout(400);
  expect(methods).toEqual(['PUT']);
  letHeldGo();
  await expect(drawer.getByText('Your cart is empty')).toBeVisible();
  expect(methods).toEqual(['PUT', 'DELETE']);
  await page.unroute('**/api/cart/*/items/*');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Cart, 0 items' })).toBeVisible();
});

test.describe('signing out while a cart change is on its way', () => {
  // Signing out ends the session on the server: the change on its way is refused there.
  test.use({ expectedConsoleErrors: [/status of 401/] });

  test("sends none of that shopper's changes still waiting, and says nothing of them", async ({ page, request }) => {
    const { email, password } = await registerShopper(request, 'leaver');
    await signIn(page, email, password);
    await page.goto('/product/1');
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();

    // The update waits until the journey lets it go; the removal pressed after it waits behind it.
    const { methods, release: letGo } = await holdCartUpdates(page);
    await page.getByRole('button', { name: 'Cart, 1 item' }).click();
    const drawer = page.getByRole('dialog', { name: 'Your Cart' });
    await drawer.getByRole('button', { name: 'One more Alphonso Mangoes' }).click();
    await expect(drawer.getByText('Qty: 2')).toBeVisible();
    await drawer.getByRole('button', { name: 'Remove Alphonso Mangoes' }).click();
    await page.waitForTimeout(400);
    await drawer.getByRole('button', { name: 'Close cart' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByText('Logged Out').first()).toBeVisible();

    letGo();
    await expect.poll(() => methods).toEqual(['PUT']);
    await page.waitForTimeout(500);
    expect(methods).toEqual(['PUT']);
    await expect(page.getByText('Failed to remove item from cart')).toHaveCount(0);
    await expect(page.getByText('Failed to update cart. Please try again.')).toHaveCount(0);

    // Signed in again: the line is as it was before the presses.
    await page.unroute('**/api/cart/*/items/*');
    await signIn(page, email, password);
    await page.getByRole('button', { name: 'Cart, 1 item' }).click();
    await expect(page.getByRole('dialog', { name: 'Your Cart' }).getByText('Single Item')).toBeVisible();
  });
});

test('a signed-in shopper pre-orders a coming variety', async ({ page, request }) => {
  await registerAndSignIn(page, request, 'ana');
  await page.goto('/product/4');
  await expect(page.getByRole('article').first().getByText('Available for Pre-Order')).toBeVisible();
  await page.getByRole('button', { name: 'Pre-Order Now', exact: true }).click();
  await expect(page.getByText('Pre-Order Placed').first()).toBeVisible();
  await expect(page.getByText('Dasheri Mangoes has been pre-ordered successfully. Expected availability: 10 June 2027').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
});

test.describe('when checkout is refused while a cart change is on its way', () => {
  // The browser logs the refused order's 409 answer; the journey checks what the shopper reads.
  test.use({ expectedConsoleErrors: [/status of 409/] });

  test('the cart is read again only after the change lands, so the shopper sees what the server holds', async ({ page, request, baseURL }) => {
    const api = await adminApi(baseURL!);
    const productId = await createProduct(api, { name: 'Reload Raspuri', description: 'A variety whose price moves during checkout.', price: 50, imageUrl: '/images/products/kesar.svg', category: 'Premium', stock: 20 });
    try {
      await registerAndSignIn(page, request, 'rongomai');
      const me = (await (await page.request.get('/api/me')).json()) as { id: number };
      expect((await page.request.post(`/api/cart/${me.id}/items`, { data: { productId, quantity: 1 } })).status()).toBe(200);
      await page.goto('/checkout');
      await fillCheckoutTown(page, 'Nelson', '7010', 'Nelson');
      await chooseFirstDeliveryDay(page);
      await expect(page.getByText('Single Item')).toBeVisible();

      // What reaches the server, in order: the held update once let go, its answer, and each read of the cart.
      const events: string[] = [];
      page.on('request', (sent) => {
        if (sent.method() === 'GET' && new URL(sent.url()).pathname === `/api/cart/${me.id}`) events.push('read');
      });
      page.on('response', (answer) => {
        if (answer.request().method() === 'PUT') events.push('update answered');
      });
      const { methods, release } = await holdCartUpdates(page);
      await page.getByRole('button', { name: 'One more Reload Raspuri' }).click();
      await expect(page.getByText('Qty: 2')).toBeVisible();

      // Staff raise the price while the update waits; the order, priced at the old total, is refused.
      expect((await api.put(`/api/products/${productId}`, { data: { price: 55 } })).status()).toBe(200);
      // The refusal asks for the cart and a fresh quote at the same moment: once the quote has
      // answered, a cart read that did not wait would have been sent.
      let refused = false;
      page.on('response', (answer) => {
        if (answer.request().method() === 'POST' && new URL(answer.url()).pathname === '/api/orders' && answer.status() === 409) refused = true;
      });
      const requoted = page.waitForResponse((answer) => refused && new URL(answer.url()).pathname === '/api/checkout/quote');
      await page.getByRole('button', { name: 'Place order' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Prices or your cart changed since you opened checkout.' })).toBeVisible();
      await requoted;
      await page.waitForTimeout(300);
      expect(events).toEqual([]);

      release();
      await expect(page.getByText('Qty: 2')).toBeVisible();
      await expect(page.getByText('$110.00').first()).toBeVisible();
      expect(methods).toEqual(['PUT']);
      expect(events.indexOf('read')).toBeGreaterThan(events.indexOf('update answered'));
      expect(events.indexOf('update answered')).toBeGreaterThanOrEqual(0);
      const held = (await (await page.request.get(`/api/cart/${me.id}`)).json()) as { items: Array<{ productId: number; quantity: number }> };
      expect(held.items).toEqual([expect.objectContaining({ productId, quantity: 2 })]);

      // The new total is the one shown: placing again goes through.
      await page.getByRole('button', { name: 'Place order' }).click();
      await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
    } finally {
      await api.put(`/api/products/${productId}`, { data: { isHidden: true } });
      await api.dispose();
    }
  });
});
