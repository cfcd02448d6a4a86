import { expect, test } from './fixtures';
import { admin, signIn } from './shopper';

/** A real 1x1 PNG, so the shop can show the uploaded picture. */
const tinyPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

// Only the upload that is meant to be refused may fail.
test.use({ expectedConsoleErrors: [/status of 400 .*\/api\/admin\/uploads/] });

test('an admin adds a product with an uploaded image, sees it in the shop, then hides it and it disappears', async ({ page, browser }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/products');
  await page.getByRole('button', { name: 'New product' }).click();
  const editor = page.getByRole('dialog');
  await expect(editor.getByRole('heading', { name: 'New product' })).toBeVisible();

  // The shared schema answers beside each field before anything is sent.
  await editor.getByRole('button', { name: 'Add product' }).click();
  await expect(editor.getByText('Name must be at least 2 characters')).toBeVisible();
  await expect(editor.getByText('Image URL is required')).toBeVisible();

  // A file that is not a picture is refused with the server's message.
  await editor.getByLabel('Image: upload a JPEG, PNG or WebP file').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
  await expect(editor.getByText('Choose a JPEG, PNG or WebP image')).toBeVisible();
  await editor.getByLabel('Image: upload a JPEG, PNG or WebP file').setInputFiles({ name: 'rajapuri.png', mimeType: 'image/png', buffer: tinyPng });
  await expect(editor.getByLabel('Image address')).toHaveValue(/^\/uploads\/[a-f0-9]{32}\.png$/);
  const imageUrl = await editor.getByLabel('Image address').inputValue();

  await editor.getByLabel('Name').fill('Rajapuri Mangoes');
  await editor.getByLabel('Category').fill('Classic');
  await editor.getByLabel('Description').fill('Large, mild Rajapuri mangoes from Gujarat, perfect for pickles and aamras.');
  await editor.getByLabel('Price (NZD, GST included)').fill('41.5');
  await editor.getByLabel('Opening stock').fill('15');
  await editor.getByRole('button', { name: 'Add product' }).click();
  await expect(editor).toBeHidden();
  await expect(page.getByRole('rowheader', { name: /Rajapuri Mangoes/ })).toBeVisible();

  // A visitor in another browser sees it in the shop, with its picture served by the shop.
  const visitor = await browser.newPage();
  await visitor.goto('/shop');
  const card = visitor.getByRole('listitem').filter({ has: visitor.getByRole('heading', { name: 'Rajapuri Mangoes' }) });
  await expect(card).toBeVisible();
  await expect(card.getByText('$41.50')).toBeVisible();
  // Shown from the 1 px AVIF variant the shop made of it.
  const picture = card.locator(`img[src="${imageUrl}"]`);
  // Its picture loads lazily, once the card nears the screen.
  await card.scrollIntoViewIfNeeded();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc)).toMatch(/\/1\.avif$/);

  // Hidden: gone from the shop for the visitor.
  await page.getByRole('switch', { name: 'Show Rajapuri Mangoes in the shop' }).click();
  await expect(page.getByRole('switch', { name: 'Show Rajapuri Mangoes in the shop' })).toHaveAttribute('aria-checked', 'false');
  await visitor.goto('/shop');
  await expect(visitor.getByRole('heading', { name: 'Kesar Mangoes' })).toBeVisible();
  await expect(visitor.getByRole('heading', { name: 'Rajapuri Mangoes' })).toHaveCount(0);
  await visitor.close();
});

test.describe('the settings screen', () => {
  // Whatever happens, the shop is open again for the journeys that follow.
  test.afterEach(async ({ request }) => {
    expect((await request.post('/api/login', { data: admin })).status()).toBe(200);
    const current = await (await request.get('/api/admin/settings')).json();
    expect((await request.put('/api/admin/settings', { data: { ...current, gstNumber: '', maintenance: { ...current.maintenance, enabled: false } } })).status()).toBe(200);
  });

  test('an admin turns maintenance on and a visitor is sent to the maintenance page at once', async ({ page, browser }) => {
    await signIn(page, admin.email, admin.password);
    await page.goto('/admin/settings');
    await expect(page.getByRole('button', { name: 'All changes saved' })).toBeDisabled();

    // A bad value is answered beside its field and nothing is saved.
    await page.getByLabel('GST number').fill('12345');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('A GST number looks like 123-456-789')).toBeVisible();
    await page.getByLabel('GST number').fill('123-456-789');

    await page.getByRole('switch', { name: /Maintenance mode/ }).check();
    await page.getByLabel('Maintenance message').fill('Picking the new season: back at 2 pm.');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const confirm = page.getByRole('dialog');
    await expect(confirm.getByRole('heading', { name: 'Turn maintenance on?' })).toBeVisible();
    await confirm.getByRole('button', { name: 'Turn maintenance on' }).click();
    await expect(page.getByText('The shop is in maintenance now.')).toBeVisible();

    const visitor = await browser.newPage();
    await visitor.goto('/shop');
    await expect(visitor).toHaveURL(/\/maintenance$/);
    await expect(visitor.getByRole('main').getByText('Picking the new season: back at 2 pm.')).toBeVisible();
    await visitor.close();

    // Staff keep working during maintenance, and the GST number was saved with it.
    await page.reload();
    await expect(page.getByLabel('GST number')).toHaveValue('123-456-789');
    await page.getByRole('switch', { name: /Maintenance mode/ }).uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('button', { name: 'All changes saved' })).toBeVisible();
    const later = await browser.newPage();
    await later.goto('/shop');
    await expect(later.getByRole('heading', { name: 'Kesar Mangoes' })).toBeVisible();
    await later.close();
  });
});
