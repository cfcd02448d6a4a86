import { expect, test } from './fixtures';

test('a visitor searches: hints, results with keyboard, and opening a product', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Search products' }).click();
  const dialog = page.getByRole('dialog');
  const box = dialog.getByRole('combobox', { name: 'Search products' });
  await expect(box).toBeFocused();
  await expect(dialog.getByText('Enter a search term to find products.')).toBeVisible();

  await box.fill('ke');
  await expect(dialog.getByText('Please enter at least 3 characters to search.')).toBeVisible();

  await box.fill('zzzz-no-such-mango');
  await expect(dialog.getByText('No products found. Try another search term.')).toBeVisible();

  await box.fill('organic');
  const results = dialog.getByRole('option');
  await expect(results.first()).toBeVisible();
  await expect(dialog.getByRole('option', { name: /Mallika Mangoes/ })).toContainText('$56.99');
  await expect(dialog.getByRole('option', { name: /Mallika Mangoes/ })).toContainText('Organic');
  await expect(results.first()).toHaveAttribute('aria-selected', 'true');
  await box.press('ArrowDown');
  await expect(results.nth(1)).toHaveAttribute('aria-selected', 'true');
  const chosen = (await results.nth(1).locator('p').first().textContent()) ?? '';
  await box.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: chosen })).toBeVisible();
});

test('search waits for a pause in typing before it asks the server', async ({ page }) => {
  const searches: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/products?search=')) searches.push(decodeURIComponent(request.url().split('search=')[1] ?? ''));
  });
  await page.goto('/shop');
  await page.getByRole('button', { name: 'Search products' }).click();
  await page.getByRole('combobox', { name: 'Search products' }).pressSequentially('alphonso', { delay: 40 });
  await expect(page.getByRole('option', { name: /Alphonso Mangoes/ })).toBeVisible();
  expect(searches).toEqual(['alphonso']);
});

test('a hidden product is never found', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Search products' }).click();
  await page.getByRole('combobox', { name: 'Search products' }).fill('amrapali');
  await expect(page.getByText('No products found. Try another search term.')).toBeVisible();
});
