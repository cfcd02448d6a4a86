import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { addDays, nzToday } from '../src/contracts/dates';
import { readyToEatLine } from '../src/contracts/ripeness';
import { expect, test } from './fixtures';
import { admin, adminApi, createProduct, registerAndSignIn, signIn } from './shopper';

/** The shop's day (it may run from a set day in the every-day runs). */
async function shopToday(request: APIRequestContext): Promise<string> {
  return nzToday(Date.parse(((await (await request.get('/api/time')).json()) as { now: string }).now));
}

async function shoot(page: Page, name: string, focus?: Locator) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await focus?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
}

test('staff set a variety\u2019s ripening days in the editor, and its page says when boxes sent now are ready to eat', async ({ page, request, baseURL }) => {
  const api = await adminApi(baseURL!);
  const name = `Ripening Banganapalli ${Date.now().toString(36)}`;
  const productId = await createProduct(api, { name, description: 'A variety of the ripeness journey.', price: 48, imageUrl: '/images/products/banganapalli.svg', category: 'Classic', stock: 0 });
  const today = await shopToday(request);
  const harvestedOn = addDays(today, -2);
  const batch = await api.post(`/api/admin/inventory/${productId}/batches`, { data: { boxes: 6, harvestedOn, bestBefore: addDays(today, 14) } });
  expect(batch.status(), await batch.text()).toBe(201);

  // Without a clock the page says nothing of ripeness.
  await page.goto(`/product/${productId}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText(/^Ready to eat/)).toHaveCount(0);

  await signIn(page, admin.email, admin.password);
  await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const editor = page.getByRole('dialog');
  const ripening = editor.getByRole('group', { name: 'Ripening' });
  await expect(ripening.getByText('Empty: the shop says nothing of ripeness.')).toBeVisible();
  await ripening.getByLabel('Days from harvest until ready to eat').fill('9');
  await editor.getByRole('button', { name: 'Save product' }).click();
  await expect(ripening.getByText('Days at its best is needed with ripening days')).toBeVisible();
  await ripening.getByLabel('Days it stays at its best').fill('5');
  await expect(ripening.getByText('This variety is ready to eat about 9 days after harvest, then at their best for 5 days')).toBeVisible();
  await shoot(page, 'ripening-editor', ripening);
  await editor.getByRole('button', { name: 'Save product' }).click();
  await expect(editor).toBeHidden();

  // Harvested two days ago, ready nine days after harvest, at its best for five.
  const line = readyToEatLine({ ripeningDays: 9, daysAtBest: 5, nextHarvestedOn: harvestedOn }, today)!;
  expect(line).toMatch(/^Ready to eat around \d/);
  await page.goto(`/product/${productId}`);
  await expect(page.getByText(line)).toBeVisible();
  // Drawn by the server too: the page's HTML says it before any script runs.
  const html = await (await request.get(`/product/${productId}`)).text();
  expect(html).toContain(line);
  await shoot(page, 'ripening-product', page.getByText(line));
});

test('a shopper turns the ripeness reminders and the review requests off and on from My account', async ({ page, request }) => {
  await registerAndSignIn(page, request, `ripe-${Date.now().toString(36)}`);
  await page.goto('/account');
  const panel = page.getByRole('region', { name: 'E-mail reminders' });
  const box = panel.getByRole('checkbox', { name: /E-mail me when my mangoes should be ready to eat/ });
  const reviews = panel.getByRole('checkbox', { name: /Ask me how my mangoes were/ });
  // Each choice says "Saved." under itself.
  const saved = panel.getByRole('status');
  await expect(box).toBeChecked();
  await expect(reviews).toBeChecked();
  await box.uncheck();
  await expect(saved.nth(0)).toHaveText('Saved.');
  await expect(saved.nth(1)).toHaveText('');
  await shoot(page, 'ripeness-reminders', panel);
  await page.reload();
  await expect(box).not.toBeChecked();
  await expect(reviews).toBeChecked();
  await box.check();
  await expect(saved.nth(0)).toHaveText('Saved.');
  await reviews.uncheck();
  await expect(saved.nth(1)).toHaveText('Saved.');
  await page.reload();
  await expect(box).toBeChecked();
  await expect(reviews).not.toBeChecked();
  expect(await (await page.request.get('/api/account/reminders')).json()).toEqual({ ripenessReminders: true, reviewRequests: false });
});
