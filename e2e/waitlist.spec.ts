import fs from 'node:fs/promises';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { latestMailTo } from './mailbox';
import { admin, adminApi, createProduct, registerAndSignIn, signIn } from './shopper';

/** A sold-out product of this journey's own, so no other journey's stock moves. */
async function soldOutVariety(api: APIRequestContext, name: string): Promise<number> {
  return createProduct(api, { name, description: 'A variety made for the waitlist journey.', price: 49.5, imageUrl: '/images/products/langra.svg', category: 'Seasonal', stock: 0 });
}

/**
 * The path of the first link to `route` in the newest mail to the address, once the outbox has
 * delivered it: mail goes out just after the answer that queued it, not with it.
 */
async function mailedLink(address: string, route: string): Promise<string> {
  const linkIn = () => new RegExp(`https?://[^/\\s]+(${route}\\?token=[\\w%-]+)`).exec(latestMailTo(address))?.[1];
  let found: string | undefined;
  await expect
    .poll(() => {
      try {
        found = linkIn();
      } catch {
        found = undefined;
      }
      return found;
    }, { message: `a ${route} link mailed to ${address}` })
    .toBeTruthy();
  return found!;
}

/** Screenshots at 390 and 1280 px: the whole page, or the viewport with `focus` scrolled into it. */
async function shoot(page: Page, name: string, focus?: Locator) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await focus?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: !focus && width === 390 });
  }
}

test('a visitor and a shopper join a sold-out variety\'s waitlist, staff see the demand, and both are mailed once when it is back', async ({ page, request, baseURL, browser }) => {
  // A long journey across two browsers and the mailbox: it gets three times the usual time on a busy machine.
  test.slow();
  const api = await adminApi(baseURL!);
  const stamp = Date.now().toString(36);
  const name = `Waitlist Langra ${stamp}`;
  const productId = await soldOutVariety(api, name);
  const visitorEmail = `waiting-${stamp}@example.nz`;

  // A visitor: the address, then the confirm link from the mail.
  await page.goto(`/product/${productId}`);
  await expect(page.getByRole('button', { name: 'Out of Stock', exact: true })).toBeDisabled();
  await page.getByRole('button', { name: `Notify me when ${name} is back` }).click();
  const form = page.getByRole('form', { name: `Notify me when ${name} is back` });
  await form.getByRole('button', { name: 'Notify me' }).click();
  await expect(form.getByText('Email address is required')).toBeVisible();
  await form.getByLabel('Email address').fill('not an address');
  await form.getByRole('button', { name: 'Notify me' }).click();
  await expect(form.getByText('Please enter a valid email address')).toBeVisible();
  await form.getByLabel('Email address').fill(visitorEmail);
  await shoot(page, 'waitlist-form', form);
  await form.getByRole('button', { name: 'Notify me' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Almost there: we have sent a link to ${visitorEmail}` })).toBeVisible();
  await shoot(page, 'waitlist-visitor');

  await page.goto(await mailedLink(visitorEmail, '/api/waitlist/manage'));
  await expect(page.getByRole('heading', { name: 'Confirm your place' })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 700 });
  await page.screenshot({ path: test.info().outputPath('waitlist-confirm-390.png') });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { name: "You're on the waitlist" })).toBeVisible();

  // A signed-in shopper: one click; a new account's address is confirmed by the mailed link first
  // (anyone can register with any address), then the list shows on the account.
  const shopperContext = await browser.newContext({ baseURL });
  const shopperPage = await shopperContext.newPage();
  const username = `waiter-${stamp}`;
  try {
    await registerAndSignIn(shopperPage, request, username);
    await shopperPage.goto(`/product/${productId}`);
    await shopperPage.getByRole('button', { name: `Notify me when ${name} is back` }).click();
    await expect(shopperPage.getByRole('status').filter({ hasText: `Almost there: we have sent a link to ${username}@example.nz` })).toBeVisible();
    await shopperPage.goto(await mailedLink(`${username}@example.nz`, '/api/waitlist/manage'));
    await shopperPage.getByRole('button', { name: 'Confirm' }).click();
    await expect(shopperPage.getByRole('heading', { name: "You're on the waitlist" })).toBeVisible();
    await shopperPage.goto(`/product/${productId}`);
    await expect(shopperPage.getByRole('status').filter({ hasText: `You are on the waitlist for ${name}.` })).toBeVisible();
    await shopperPage.getByRole('link', { name: 'Your waitlists' }).click();
    const lists = shopperPage.getByRole('list', { name: 'Your waitlists' });
    await expect(lists.getByRole('link', { name })).toBeVisible();
    await shoot(shopperPage, 'waitlist-account', lists);

    // Staff see two waiting and download the list.
    await signIn(page, admin.email, admin.password);
    await page.goto('/admin');
    const panel = page.getByRole('region', { name: 'Waitlists' });
    await expect(panel.getByRole('listitem').filter({ hasText: name })).toContainText('2 waiting');
    await shoot(page, 'waitlist-dashboard', panel);
    await page.goto('/admin/inventory');
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: `2 waiting for ${name}: download the waitlist as CSV` }).click();
    const csv = await fs.readFile((await (await download).path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('Joined,Email,Customer,Status,Emailed');
    expect(csv).toContain(`,${visitorEmail},,Waiting,`);
    expect(csv).toContain(`,${username}@example.nz,Tama Hohaia,Waiting,`);

    // Staff receive boxes: the shop mails both, once.
    await page.getByRole('button', { name: `Adjust stock of ${name}` }).click();
    await page.getByLabel('Change in boxes').fill('6');
    await page.getByRole('button', { name: 'Save adjustment' }).click();
    await expect(page.getByText(`${name}: 6 in stock.`).first()).toBeVisible();
    for (const address of [visitorEmail, `${username}@example.nz`]) {
      await expect.poll(() => { try { return latestMailTo(address); } catch { return ''; } }, { timeout: 15_000 }).toContain(`Subject: ${name} is back at Mango Shop`);
    }
    await shopperPage.goto('/account');
    await expect(shopperPage.getByText('You are on no waitlist.')).toBeVisible();

    // The mail's unsubscribe link asks, then takes the address off every list.
    await page.goto(await mailedLink(visitorEmail, '/api/waitlist/unsubscribe'));
    await expect(page.getByRole('heading', { name: 'Leave every waitlist?' })).toBeVisible();
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('heading', { name: 'Unsubscribed' })).toBeVisible();
  } finally {
    await shopperContext.close();
  }
});

test('the seasonal chart offers Notify me on a sold-out variety the shop sells, and links the others', async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!);
  // Mulgoba is on the chart and not in the seeded catalogue: this journey's own product.
  const existing = (await (await page.request.get('/api/products')).json()) as Array<{ id: number; name: string }>;
  if (!existing.some((p) => p.name === 'Mulgoba Mangoes')) await soldOutVariety(api, 'Mulgoba Mangoes');
  await page.goto('/');
  const table = page.getByRole('table', { name: 'Complete Availability Chart' });
  await expect(table.getByRole('link', { name: 'Alphonso', exact: true })).toHaveAttribute('href', /\/product\/\d+$/);
  await shoot(page, 'waitlist-chart-rows', table.getByRole('rowheader', { name: /Mulgoba/ }));
  await table.getByRole('button', { name: 'Notify me when Mulgoba is back' }).click();
  const dialog = page.getByRole('dialog', { name: 'Notify me when Mulgoba is back' });
  await expect(dialog.getByText('Mulgoba Mangoes is sold out for now.')).toBeVisible();
  await dialog.getByLabel('Email address').fill(`chart-${Date.now().toString(36)}@example.nz`);
  await shoot(page, 'waitlist-chart', dialog);
  await dialog.getByRole('button', { name: 'Notify me' }).click();
  await expect(dialog.getByRole('status')).toContainText('Almost there');
});
