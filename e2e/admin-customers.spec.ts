import { expect, test } from './fixtures';
import { admin, registerShopper, signIn } from './shopper';

// The owner's last-admin refusal is a 409, which the browser logs.
test.use({ expectedConsoleErrors: [/status of 409/] });

test('an admin finds a customer, makes them an admin and back, and cannot remove the last admin', async ({ page, request }) => {
  const { email } = await registerShopper(request, 'kowhai');
  await signIn(page, admin.email, admin.password);
  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Customers' }).click();
  const search = async (text: string) => {
    await page.getByLabel('Search name, username, e-mail or phone').fill(text);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
  };

  await search('kowhai');
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(page.getByText('1 customer · page 1 of 1')).toBeVisible();
  await expect(row.getByText('Admin', { exact: true })).toHaveCount(0);
  await row.getByRole('link', { name: 'Tama Hohaia' }).click();
  await expect(page).toHaveURL(/customer=\d+/);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Tama Hohaia');
  await expect(page.getByRole('region', { name: 'Contact details' })).toContainText(email);
  await expect(page.getByRole('region', { name: 'Profile address' })).toContainText('21 Lambton Quay');

  // Granting asks first; the safe choice is a way back.
  await page.getByRole('button', { name: 'Make admin' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Make Tama Hohaia an admin?' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(heading).not.toContainText('Admin');
  await page.getByRole('button', { name: 'Make admin' }).click();
  await dialog.getByRole('button', { name: 'Make admin' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Tama Hohaia is now an admin', { exact: true })).toBeVisible();
  await expect(heading).toContainText('Admin');

  await page.getByRole('button', { name: 'All customers' }).click();
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();

  // Back to one admin, then the owner cannot be removed.
  await row.getByRole('link', { name: 'Tama Hohaia' }).click();
  await page.getByRole('button', { name: 'Remove admin' }).click();
  await expect(dialog.getByRole('heading', { name: 'Remove admin from Tama Hohaia?' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Remove admin' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Tama Hohaia is no longer an admin', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Make admin' })).toBeVisible();

  await page.getByRole('button', { name: 'All customers' }).click();
  await search(admin.email);
  const owner = page.getByRole('row').filter({ hasText: admin.email });
  await expect(owner.getByText('Admin', { exact: true })).toBeVisible();
  await owner.getByRole('link', { name: 'Shop Admin' }).click();
  await page.getByRole('button', { name: 'Remove admin' }).click();
  await expect(dialog.getByRole('heading', { name: 'Remove your own admin role?' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Remove admin' }).click();
  await expect(page.getByText('The shop needs at least one admin: make someone else an admin first.', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(heading).toContainText('Admin');
  await expect(page.getByRole('button', { name: 'Remove admin' })).toBeVisible();
});
