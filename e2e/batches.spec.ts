import type { Locator, Page } from '@playwright/test';
import { addDays, formatDate, nzToday } from '../src/contracts/dates';
import { expect, test } from './fixtures';
import { admin, adminApi, createProduct, paidOrder, signIn } from './shopper';

// Writing off more boxes than the batch has is refused by the server, as it should be.
test.use({ expectedConsoleErrors: [/status of 409 .*\/write-offs/] });

async function shoot(page: Page, name: string, focus?: Locator) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await focus?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
}

test('staff record a batch, write off spoiled boxes, see it on the dashboard near its best-before, and pack from it by the slip', async ({ page, request, baseURL }) => {
  test.slow();
  const api = await adminApi(baseURL!);
  const stamp = Date.now().toString(36);
  const name = `Batch Kesar ${stamp}`;
  const productId = await createProduct(api, { name, description: 'A variety made for the batch journey.', price: 54, imageUrl: '/images/products/kesar.svg', category: 'Classic', stock: 0 });
  const shopToday = nzToday(Date.parse(((await (await request.get('/api/time')).json()) as { now: string }).now));
  const bestBefore = addDays(shopToday, 2);

  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/inventory');
  await page.getByRole('button', { name: `Batches of ${name}` }).click();
  const panel = page.getByRole('dialog', { name: `Batches: ${name}` });
  await expect(panel.getByText('No batches yet.')).toBeVisible();
  await panel.getByRole('button', { name: 'Record a batch' }).click();
  const form = panel.getByRole('form', { name: 'Record a batch' });
  await form.getByRole('button', { name: 'Record batch' }).click();
  await expect(form.getByText('Boxes must be a whole number')).toBeVisible();
  await expect(form.getByText('Harvest date must be a date (YYYY-MM-DD)')).toBeVisible();
  await form.getByLabel('Boxes').fill('6');
  await form.getByLabel('Harvested on').fill(addDays(shopToday, -6));
  await form.getByLabel('Best before').fill(addDays(shopToday, -7));
  await form.getByRole('button', { name: 'Record batch' }).click();
  await expect(form.getByText('Best-before date must be on or after the harvest date')).toBeVisible();
  await form.getByLabel('Best before').fill(bestBefore);
  await form.getByLabel('Grower (optional)').fill('Rangi Orchard');
  await form.getByRole('button', { name: 'Record batch' }).click();
  const row = panel.getByRole('row').filter({ hasText: 'Rangi Orchard' });
  await expect(row).toContainText(formatDate(bestBefore));
  await expect(row).toContainText('6 of 6');

  // Two boxes went soft: written off, out of the batch and out of stock.
  await row.getByRole('button', { name: /Write off boxes of batch/ }).click();
  const writeOff = panel.getByRole('form', { name: /Write off boxes of batch/ });
  await writeOff.getByLabel('Boxes to write off').fill('9');
  await writeOff.getByRole('button', { name: 'Write off' }).click();
  await expect(writeOff.getByText(/has only 6 boxes left/)).toBeVisible();
  await writeOff.getByLabel('Boxes to write off').fill('2');
  await writeOff.getByLabel('Note (optional)').fill('Soft spots');
  await shoot(page, 'batch-write-off', panel);
  await writeOff.getByRole('button', { name: 'Write off' }).click();
  await expect(row).toContainText('4 of 6');
  await shoot(page, 'batch-panel', panel);
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('4');

  // The dashboard lists it: best-before in two days.
  await page.goto('/admin');
  const near = page.getByRole('region', { name: 'Batches near their best-before' });
  await expect(near.getByText(name)).toBeVisible();
  await expect(near.getByText(`Best before ${formatDate(bestBefore)} (in 2 days)`).first()).toBeVisible();
  await shoot(page, 'batch-dashboard', near);

  // A paid order's packing slip says which batch to take its boxes from, then which it was packed from.
  const { number } = await paidOrder(request, api, productId, 3, `batcher-${stamp}`);
  await page.goto(`/admin/orders?order=${number}`);
  await page.getByRole('button', { name: 'Packing slip' }).click();
  const slip = page.getByRole('dialog', { name: 'Packing slip' });
  await expect(slip.getByText(new RegExp(`Take 3 from batch \\d+ \\(best before ${formatDate(bestBefore)}, Rangi Orchard\\)`))).toBeVisible();
  await shoot(page, 'batch-slip', slip);
  await slip.getByRole('button', { name: 'Close' }).click();
  expect((await api.post(`/api/admin/orders/${number}/status`, { data: { status: 'packed' } })).status()).toBe(200);
  await page.reload();
  await expect(page.getByText(new RegExp(`Packed: 3 from batch \\d+ \\(best before ${formatDate(bestBefore)}, Rangi Orchard\\)`)).first()).toBeVisible();
});
