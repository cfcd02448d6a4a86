import { expect, test } from './fixtures';
import { adminApi, createProduct, registerAndSignIn, registerShopper } from './shopper';

test('a shopper adds from a product card: quantity selector, a 2-second success, then a reset', async ({ page, request }) => {
  await registerAndSignIn(page, request, 'mere');
  await page.goto('/shop');
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Kesar Mangoes' }) });
  await card.getByRole('button', { name: 'Add to Cart: Kesar Mangoes' }).click();
  await expect(card.getByRole('spinbutton', { name: 'Quantity' })).toHaveValue('1');
  await card.getByRole('button', { name: 'Increase quantity' }).click();
  await card.getByRole('button', { name: 'Add 2 Kesar Mangoes to the cart' }).click();
  await expect(card.getByRole('button', { name: 'Added!' })).toBeVisible();
  await expect(page.getByText('Added to Cart').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cart, 2 items' })).toBeVisible();
  // After the success state the selector closes and the quantity is back to 1.
  await expect(card.getByRole('button', { name: 'Add to Cart: Kesar Mangoes' })).toBeVisible({ timeout: 5000 });
  await expect(card.getByRole('spinbutton', { name: 'Quantity' })).toHaveCount(0);
  await card.getByRole('button', { name: 'Add to Cart: Kesar Mangoes' }).click();
  await expect(card.getByRole('spinbutton', { name: 'Quantity' })).toHaveValue('1');
});

test('Quick View shows the whole product in a dialog and gives focus back when closed', async ({ page }) => {
  await page.goto('/shop');
  const opener = page.getByRole('button', { name: 'Quick View of Alphonso Mangoes' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'Alphonso Mangoes' });
  await expect(dialog.getByRole('heading', { name: 'Alphonso Mangoes' })).toBeVisible();
  await expect(dialog.getByText('$64.99')).toBeVisible();
  await expect(dialog.getByText('In Stock')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Add to Cart', exact: true })).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'View full details' })).toHaveAttribute('href', '/product/1');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

test.describe('a failed sign-in in the pre-order modal', () => {
  test.use({ expectedConsoleErrors: [/status of 401/] });

  test("a visitor's pre-order opens 'Almost There!', checks the form and returns them to the product after sign-in", async ({ page, request }) => {
    test.slow();
    const { email, password } = await registerShopper(request, 'wiremu');
    await page.goto('/shop');
    await page.getByRole('button', { name: 'Pre-Order Now: Dasheri Mangoes' }).click();
    const modal = page.getByRole('dialog', { name: 'Almost There!' });
    await expect(modal.getByText('Sign In to Complete Your Dasheri Mangoes Pre-Order!')).toBeVisible();
    await expect(modal.getByLabel('Email')).toBeFocused();

    // Checked on submit, then on every change.
    await modal.getByRole('button', { name: 'Continue' }).click();
    await expect(modal.getByText('Please enter a valid email address')).toBeVisible();
    await expect(modal.getByText('Password is required')).toBeVisible();
    await modal.getByLabel('Email').fill(email);
    await expect(modal.getByText('Please enter a valid email address')).toBeHidden();
    await expect(modal.getByText('Password is required')).toBeVisible();

    // A failed sign-in is only logged: no message appears.
    await modal.getByLabel('Password', { exact: true }).fill('not-the-password');
    const refused = page.waitForResponse((response) => response.url().endsWith('/api/login'));
    await modal.getByRole('button', { name: 'Continue' }).click();
    expect((await refused).status()).toBe(401);
    await expect(modal.getByRole('button', { name: 'Continue' })).toBeEnabled();
    await expect(page.getByText('Login Failed')).toHaveCount(0);
    await expect(modal.getByRole('alert')).toHaveCount(0);

    await modal.getByLabel('Password', { exact: true }).fill(password);
    await modal.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Welcome back!').first()).toBeVisible();
    await expect(page.getByText("You've successfully signed in.").first()).toBeVisible();
    await expect(modal).toBeHidden();
    await expect(page).toHaveURL(/\/product\/4$/);
    await expect(page.getByRole('link', { name: 'wiremu' })).toBeVisible();
    await page.getByRole('main').getByRole('button', { name: 'Pre-Order Now', exact: true }).click();
    await expect(page.getByText('Pre-Order Placed').first()).toBeVisible();
  });
});

test("the pre-order modal's 'Create a free account' link opens sign-up", async ({ page }) => {
  await page.goto('/product/5');
  await page.getByRole('main').getByRole('button', { name: 'Pre-Order Now', exact: true }).click();
  const modal = page.getByRole('dialog', { name: 'Almost There!' });
  await expect(modal.getByText('Sign In to Complete Your Langra Mangoes Pre-Order!')).toBeVisible();
  await modal.getByRole('link', { name: 'Create a free account' }).click();
  await expect(modal).toBeHidden();
  await expect(page).toHaveURL(/\/auth\?signup=true$/);
  await expect(page.getByLabel('Username')).toBeVisible();
});

test("a signed-in shopper's Pre-Order Now on a card goes straight to the product page", async ({ page, request }) => {
  await registerAndSignIn(page, request, 'aroha');
  await page.goto('/shop');
  await page.getByRole('button', { name: 'Pre-Order Now: Chausa Mangoes' }).click();
  await expect(page).toHaveURL(/\/product\/6$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Chausa Mangoes' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a product page shows its details, the delivery note and other varieties', async ({ page }) => {
  await page.goto('/product/1');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: 'Alphonso Mangoes' })).toBeVisible();
  await expect(main.getByText('Standard shipping $12.00 flat anywhere in New Zealand. Delivered fresh in 24-48 hours from dispatch.')).toBeVisible();
  const others = main.getByRole('region', { name: 'You might also like' });
  await expect(others.getByRole('heading', { level: 3 })).toHaveCount(4);
  await expect(others.getByRole('heading', { name: 'Alphonso Mangoes' })).toHaveCount(0);
});

test("a product page's HTML carries its title, description, Open Graph tags and Product JSON-LD", async ({ request }) => {
  const response = await request.get('/product/4');
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toContain('<title>Dasheri Mangoes | Premium Mangoes Delivered Fresh</title>');
  expect(html).toMatch(/<meta name="description" content="[^"]+"/);
  expect(html).toContain('<meta property="og:title" content="Dasheri Mangoes"/>');
  expect(html).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/product\/4"\/>/);
  expect(html).toMatch(/<meta property="og:image" content="http:\/\/127\.0\.0\.1:\d+\/[^"]+"/);
  const json = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1];
  const product = JSON.parse(json ?? '{}') as { '@type': string; name: string; offers: Record<string, string> };
  expect(product['@type']).toBe('Product');
  expect(product.name).toBe('Dasheri Mangoes');
  expect(product.offers).toMatchObject({ priceCurrency: 'NZD', availability: 'https://schema.org/PreOrder', availabilityStarts: '2027-06-10' });
  expect(product.offers.price).toMatch(/^\d+\.\d{2}$/);

  const hidden = await request.get('/product/13');
  expect(hidden.status()).toBe(404);
  expect(await hidden.text()).not.toContain('Amrapali');
});

test("dollar signs in a product's name stay text in its page's title and tags", async ({ request, baseURL }) => {
  const api = await adminApi(baseURL!);
  const name = "Bulk $' Deal $& Mangoes $`";
  const id = await createProduct(api, { name, description: 'Save $` on $& boxes </script><script>alert(1)</script>', price: 40, imageUrl: '/images/products/kesar.svg', category: 'Premium', stock: 3 });
  try {
    const html = await (await request.get(`/product/${id}`)).text();
    expect(html).toContain('<title>Bulk $&#x27; Deal $&amp; Mangoes $` | Premium Mangoes Delivered Fresh</title>');
    expect(html).toContain('<meta property="og:title" content="Bulk $&#x27; Deal $&amp; Mangoes $`"/>');
    expect(html).not.toContain('<script>alert(1)</script>');
    const json = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1];
    expect((JSON.parse(json ?? '{}') as { description: string }).description).toBe('Save $` on $& boxes </script><script>alert(1)</script>');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/<\/head>/g)).toHaveLength(1);
  } finally {
    await api.delete(`/api/products/${id}`);
    await api.dispose();
  }
});
