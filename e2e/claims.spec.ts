import type { APIRequestContext, Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { latestMailTo } from './mailbox';
import { admin, adminApi, createProduct, firstDeliveryDate, registerShopper, signIn } from './shopper';

/** Screenshots at 390 and 1280 px: the whole page, or the viewport with `focus` scrolled into it. */
async function shoot(page: Page, name: string, focus?: Locator) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    // The layout settles at the new width before the region is scrolled to.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await focus?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: !focus && width === 390 });
  }
}

/** A shopper's order of 3 boxes ($45.00 each) that staff have delivered. */
async function deliveredOrder(request: APIRequestContext, api: APIRequestContext, username: string) {
  const productId = await createProduct(api, { name: `Claim Kesar ${username}`, description: 'A variety made for the claims journey.', price: 45, imageUrl: '/images/products/kesar.svg', category: 'Seasonal', stock: 10 });
  const { email, password } = await registerShopper(request, username);
  expect((await request.post('/api/login', { data: { email, password } })).status()).toBe(200);
  const me = (await (await request.get('/api/me')).json()) as { id: number };
  expect((await request.post(`/api/cart/${me.id}/items`, { data: { productId, quantity: 3 } })).status()).toBe(200);
  const placed = await request.post('/api/orders', {
    data: { idempotencyKey: `claims-${username}-0001`, deliveryDate: await firstDeliveryDate(request, "Hawke's Bay", 3), shipping: { name: 'Mere Tawhiri', phone: '022 765 4321', street: '8 Tennyson Street', city: 'Napier', postcode: '4110', region: "Hawke's Bay" } },
  });
  expect(placed.status()).toBe(201);
  await request.post('/api/logout');
  const number = ((await placed.json()) as { order: { number: string } }).order.number;
  for (const status of ['paid', 'packed', 'shipped', 'delivered']) {
    const step = await api.post(`/api/admin/orders/${number}/status`, { data: { status, ...(status === 'shipped' ? { carrier: 'nz_post', trackingNumber: 'NZP-777' } : {}) } });
    expect(step.status(), await step.text()).toBe(200);
  }
  return { email, password, number, productName: `Claim Kesar ${username}` };
}

test('a shopper reports bruised mangoes with a photo, staff review and refund it, and the shopper sees the refund', async ({ page, request, baseURL, browser }) => {
  // A long journey across two browsers and the mailbox: it gets three times the usual time on a busy machine.
  test.slow();
  const api = await adminApi(baseURL!);
  const username = `claimer-${Date.now().toString(36)}`;
  const order = await deliveredOrder(request, api, username);
  const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#d9a23b' } }).jpeg().toBuffer();

  await signIn(page, order.email, order.password);
  await page.goto(`/account/orders/${order.number}`);
  const guarantee = page.getByRole('region', { name: 'Freshness guarantee' });
  await expect(guarantee).toContainText('Not delighted with your mangoes? Tell us within 48 hours of delivery');
  await guarantee.getByRole('button', { name: 'Report a problem' }).click();
  const form = guarantee.getByRole('form', { name: 'Report a problem' });

  // Nothing chosen: each field says what it needs, and nothing is sent.
  await form.getByRole('button', { name: 'Send claim' }).click();
  await expect(form.getByText('Choose the boxes with a problem')).toBeVisible();
  await expect(form.getByText('Choose what went wrong')).toBeVisible();
  await expect(form.getByText('Add at least one photo of the mangoes')).toBeVisible();
  await expect(form.getByText('Choose a refund or a replacement')).toBeVisible();

  await form.getByLabel(`Boxes of ${order.productName} with a problem`).selectOption('2');
  await form.getByLabel('Bruised').check();
  await form.getByLabel('What happened?').fill('Two mangoes had soft brown bruises when we opened the box.');
  await form.locator('input[type=file]').setInputFiles([{ name: 'box.jpg', mimeType: 'image/jpeg', buffer: photo }]);
  await expect(form.getByRole('img', { name: 'Chosen photo 1' })).toBeVisible();
  await form.getByLabel('A refund').check();
  await shoot(page, 'claim-form', form);
  await form.getByRole('button', { name: 'Send claim' }).click();

  const claims = guarantee.getByRole('list', { name: 'Your claims' });
  await expect(claims.getByRole('listitem').first()).toContainText('We have your claim and will reply within one working day.');
  await expect(claims.getByRole('img', { name: 'Photo 1' })).toBeVisible();
  await expect(page.getByText(/Problem reported \(claim #\d+\): 2 boxes, bruised/)).toBeVisible();
  await expect(guarantee.getByText('You can report another problem with these boxes once your open claim is decided.')).toBeVisible();
  const claimId = /Claim #(\d+)/.exec((await claims.getByRole('listitem').first().textContent()) ?? '')![1]!;
  await expect.poll(() => { try { return latestMailTo(order.email); } catch { return ''; } }, { timeout: 15_000 }).toContain(`Subject: We have your claim #${claimId}`);
  await shoot(page, 'claim-sent', guarantee);

  // Staff: the queue, the claim with its photo, review, and a refund within the limit.
  const staffContext = await browser.newContext({ baseURL });
  const staffPage = await staffContext.newPage();
  try {
    await signIn(staffPage, admin.email, admin.password);
    await staffPage.goto('/admin');
    await staffPage.getByRole('link', { name: /Freshness claims to decide/ }).click();
    await expect(staffPage.getByRole('heading', { name: 'Claims', exact: true })).toBeVisible();
    await staffPage.getByRole('button', { name: new RegExp(`Claim #${claimId}\\b`) }).click();
    await expect(staffPage.getByRole('heading', { name: `Claim #${claimId}` })).toBeVisible();
    await expect(staffPage.getByRole('img', { name: 'Photo 1' })).toBeVisible();
    await expect(staffPage.getByRole('region', { name: 'Customer' })).toContainText('None: this is their first.');
    await shoot(staffPage, 'claim-staff');
    await staffPage.getByRole('button', { name: 'Start review' }).click();
    await expect(staffPage.getByText('In review', { exact: true }).first()).toBeVisible();

    const amount = staffPage.getByLabel('Refund amount (at most $90.00)');
    await expect(amount).toHaveValue('90.00');
    await amount.fill('95');
    await staffPage.getByRole('button', { name: 'Approve refund' }).click();
    await expect(staffPage.getByText('The refund can be at most $90.00: what was paid for these boxes, less refunds already given on the order.')).toBeVisible();
    await amount.fill('60');
    await staffPage.getByLabel('Note to the shopper (optional)').fill('Sorry about the bruises: enjoy the rest.');
    await staffPage.getByRole('button', { name: 'Approve refund' }).click();
    // A refund moves money: it is confirmed first, and says how it goes back.
    const confirm = staffPage.getByRole('dialog', { name: /^Refund \$60\.00 to / });
    await expect(confirm).toContainText('they are asked for their bank account');
    await confirm.getByRole('button', { name: 'Approve refund' }).click();
    const decision = staffPage.getByRole('region', { name: 'Decision' });
    await expect(decision).toContainText('Approved with a refund of $60.00; the boxes are written off.');
    await shoot(staffPage, 'claim-approved', decision);
  } finally {
    await staffContext.close();
  }

  await expect.poll(() => { try { return latestMailTo(order.email); } catch { return ''; } }, { timeout: 15_000 }).toContain(`Subject: Your claim #${claimId} is approved: refund of $60.00`);
  await page.reload();
  await expect(claims.getByRole('listitem').first()).toContainText('Approved: we owe you $60.00, paid by transfer once you add your bank account on this page.');
  await expect(page.getByText(`Claim #${claimId} approved: refund of $60.00`)).toBeVisible();
  await shoot(page, 'claim-refunded', guarantee);
});

test('a replacement order waits on Dispatch as to schedule until staff choose its day', async ({ page, request, baseURL }) => {
  test.slow();
  const api = await adminApi(baseURL!);
  const username = `replaced-${Date.now().toString(36)}`;
  const order = await deliveredOrder(request, api, username);
  const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#d9a23b' } }).jpeg().toBuffer();
  expect((await request.post('/api/login', { data: { email: order.email, password: order.password } })).status()).toBe(200);
  const { lines } = (await (await request.get(`/api/orders/${order.number}/claims`)).json()) as { lines: Array<{ lineId: number }> };
  const claim = { lines: [{ lineId: lines[0]!.lineId, quantity: 2 }], reason: 'overripe', description: 'Two boxes arrived soft and leaking.', outcome: 'replacement' };
  const sent = await request.post(`/api/orders/${order.number}/claims`, { multipart: { claim: JSON.stringify(claim), photos: { name: 'box.jpg', mimeType: 'image/jpeg', buffer: photo } } });
  expect(sent.status(), await sent.text()).toBe(201);
  const approved = await api.post(`/api/admin/claims/${((await sent.json()) as { id: number }).id}/approve`, { data: { resolution: 'replacement' } });
  expect(approved.status(), await approved.text()).toBe(200);
  const replacement = ((await approved.json()) as { replacementOrderNumber: string }).replacementOrderNumber;
  const day = await firstDeliveryDate(request, "Hawke's Bay", 2);

  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/dispatch');
  const toSchedule = page.getByRole('region', { name: /To schedule/ });
  const row = toSchedule.getByRole('listitem').filter({ hasText: replacement });
  await expect(row).toContainText('Napier, Hawke\'s Bay · 2 boxes');
  await shoot(page, 'dispatch-to-schedule', toSchedule);
  await row.getByRole('button', { name: `Choose a delivery day for order ${replacement}` }).click();
  const dialog = page.getByRole('dialog', { name: `Choose a day for order ${replacement}` });
  await dialog.getByRole('button', { name: 'Schedule order' }).click();
  await expect(dialog.getByText('Choose a delivery date')).toBeVisible();
  await dialog.getByLabel('Delivery date').fill(day);
  // The message goes once a date is given.
  await expect(dialog.getByText('Choose a delivery date')).toHaveCount(0);
  await shoot(page, 'dispatch-choose-a-day', dialog);
  await dialog.getByRole('button', { name: 'Schedule order' }).click();
  await expect(page.getByText(`Order ${replacement} scheduled`).first()).toBeVisible();
  await expect(toSchedule.getByRole('listitem').filter({ hasText: replacement })).toHaveCount(0);

  const moved = (await (await api.get(`/api/admin/orders/${replacement}`)).json()) as { dispatchDate: string };
  await page.goto(`/admin/dispatch?date=${moved.dispatchDate}`);
  await expect(page.getByRole('region', { name: "Hawke's Bay" }).getByRole('link', { name: replacement })).toBeVisible();
  await expect.poll(() => latestMailTo(order.email)).toContain(`Subject: New delivery day for order ${replacement}`);
});
