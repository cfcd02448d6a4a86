import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { admin } from './shopper';

async function setMaintenance(request: APIRequestContext, enabled: boolean) {
  const login = await request.post('/api/login', { data: admin });
  expect(login.status()).toBe(200);
  const current = await (await request.get('/api/admin/settings')).json();
  const saved = await request.put('/api/admin/settings', { data: { ...current, maintenance: { enabled, message: enabled ? 'Back after the morning harvest.' : current.maintenance.message } } });
  expect(saved.status()).toBe(200);
}

test.describe('promo banner', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('a visitor copies the promo code and hides the banner for 24 hours', async ({ page }) => {
    await page.clock.install({ time: new Date('2026-11-22T09:00:00+13:00') });
    await page.goto('/');
    const banner = page.getByRole('complementary', { name: 'Current offer' });
    await expect(banner).toContainText('MANGO10');
    await banner.getByRole('button', { name: 'Copy code' }).click();
    await expect(page.getByText('Promo code copied!').first()).toBeVisible();
    await expect(page.getByText('MANGO10 copied to clipboard.').first()).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('MANGO10');

    await banner.getByRole('button', { name: 'Hide this offer for 24 hours' }).click();
    await expect(page.getByText('Promo banner hidden').first()).toBeVisible();
    await expect(page.getByText('It will remain hidden for 24 hours').first()).toBeVisible();
    await expect(banner).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Premium Mangoes Delivered Fresh to Your Door' })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Current offer' })).toBeHidden();

    await page.clock.setSystemTime(new Date('2026-11-23T09:01:00+13:00'));
    await page.reload();
    await expect(page.getByRole('complementary', { name: 'Current offer' })).toContainText('MANGO10');
  });
});

test.describe('maintenance mode', () => {
  test.afterEach(async ({ request }) => setMaintenance(request, false));

  test('a visitor is sent to the maintenance page, with the bypass rules of the spec', async ({ page, request }) => {
    await setMaintenance(request, true);
    await page.context().clearCookies();
    await page.goto('/shop');
    await expect(page).toHaveURL(/\/maintenance$/);
    await expect(page.getByText('Back after the morning harvest.').first()).toBeVisible();

    await page.goto('/shop?bypass=maintenance');
    await expect(page.getByRole('heading', { name: 'Shop Mangoes' })).toBeVisible();

    await page.goto('/admin?bypass=maintenance');
    await expect(page).toHaveURL(/\/admin$/);

    await page.evaluate(() => localStorage.setItem('adminBypassMaintenance', 'true'));
    await page.goto('/shop');
    await expect(page.getByRole('heading', { name: 'Shop Mangoes' })).toBeVisible();
  });

  test('an admin is not redirected and reads the admin note', async ({ page, request }) => {
    await setMaintenance(request, true);
    await page.goto('/shop');
    await expect(page).toHaveURL(/\/maintenance$/);
    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email').fill(admin.email);
    await dialog.getByLabel('Password', { exact: true }).fill(admin.password);
    await dialog.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Admin' })).toBeVisible();
    await page.goto('/shop');
    await expect(page.getByRole('heading', { name: 'Shop Mangoes' })).toBeVisible();
    await expect(page.getByText('Admin note: regular users would see the maintenance page.')).toBeVisible();
  });
});
