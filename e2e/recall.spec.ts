import { addDays, nzToday } from '../src/contracts/dates';
import { expect, test } from './fixtures';
import { latestMailTo } from './mailbox';
import { shootAtBothWidths } from './screenshots';
import { admin, adminApi, createProduct, paidOrder, signIn } from './shopper';

// Releasing the hold before new boxes are in is refused by the server, as it should be.
test.use({ expectedConsoleErrors: [/status of 409 .*\/release-hold/] });

test('staff recall an unsafe batch: the shopper sent its boxes is mailed, a waiting order gets another batch, one goes on hold and its shopper sees why', async ({ page, browser, request, baseURL }) => {
  test.slow();
  const api = await adminApi(baseURL!);
  const stamp = Date.now().toString(36);
  const name = `Recall Alphonso ${stamp}`;
  const productId = await createProduct(api, { name, description: 'A variety made for the recall journey.', price: 64, imageUrl: '/images/products/alphonso.svg', category: 'Classic', stock: 0 });
  const today = nzToday(Date.parse(((await (await request.get('/api/time')).json()) as { now: string }).now));
  const addBatch = async (boxes: number, bestBeforeIn: number) => {
    const answer = await api.post(`/api/admin/inventory/${productId}/batches`, { data: { boxes, harvestedOn: addDays(today, -3), bestBefore: addDays(today, bestBeforeIn), grower: 'Ratnagiri Growers' } });
    expect(answer.status(), await answer.text()).toBe(201);
    return ((await answer.json()) as { id: number }).id;
  };
  const unsafe = await addBatch(4, 5);
  await addBatch(1, 9);
  // Sent: one box of the unsafe batch has gone out to its shopper.
  const sent = await paidOrder(request, api, productId, 1, `recallsent${stamp}`);
  expect((await api.post(`/api/admin/orders/${sent.number}/status`, { data: { status: 'packed' } })).status()).toBe(200);
  expect((await api.post(`/api/admin/orders/${sent.number}/status`, { data: { status: 'shipped', trackingNumber: 'NZP555123', carrier: 'nz_post' } })).status()).toBe(200);
  // Waiting: the first gets the other batch's one box, the second finds none left.
  const moved = await paidOrder(request, api, productId, 1, `recallmoved${stamp}`);
  const held = await paidOrder(request, api, productId, 2, `recallheld${stamp}`);

  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/inventory');
  await page.getByRole('button', { name: `Batches of ${name}` }).click();
  const panel = page.getByRole('dialog', { name: `Batches: ${name}` });
  await panel.getByRole('button', { name: `Recall batch ${unsafe}` }).click();
  const form = panel.getByRole('form', { name: `Recall batch ${unsafe}` });
  // Both are required, each said beside its field.
  await form.getByRole('button', { name: 'Recall batch' }).click();
  await expect(form.getByText('Give the reason for the recall')).toBeVisible();
  await expect(form.getByText('Tell shoppers what to do with the fruit')).toBeVisible();
  await form.getByLabel('Reason shoppers will read').fill('A packhouse sample tested positive for Listeria');
  await form.getByLabel('Advice to shoppers').fill('Please do not eat them: put them in the rubbish. We refund every box.');
  await shootAtBothWidths(page, 'recall-form', form);
  await form.getByRole('button', { name: 'Recall batch' }).click();
  const confirm = page.getByRole('dialog', { name: `Recall batch ${unsafe} of ${name}?` });
  await expect(confirm).toContainText('3 boxes in the cool room are written off');
  await confirm.getByRole('button', { name: 'Recall batch' }).click();

  // The recall's page: every order, what was done, and the CSV.
  await expect(page).toHaveURL(new RegExp(`/admin/recalls\\?batch=${unsafe}$`));
  await expect(page.getByRole('heading', { name: `Recall: ${name}, batch ${unsafe}` })).toBeVisible();
  const rows = page.getByRole('table', { name: 'Orders with boxes of the recalled batch' }).getByRole('row');
  await expect(rows.filter({ hasText: sent.number })).toContainText('Shopper e-mailed');
  await expect(rows.filter({ hasText: moved.number })).toContainText('Re-allocated to another batch');
  await expect(rows.filter({ hasText: held.number })).toContainText('Short 2 boxes, still on hold');
  await shootAtBothWidths(page, 'recall-screen');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download as CSV' }).click()]);
  expect(download.suggestedFilename()).toBe(`recall-batch-${unsafe}.csv`);
  const csv = await (await download.createReadStream()).toArray();
  const lines = Buffer.concat(csv).toString('utf8').trimEnd().split('\r\n');
  expect(lines[0]).toBe('Order,Shopper,Email,Phone,Boxes,Boxes short,Status,Packed,Dispatched,Delivered,Action,On hold now');
  expect(lines.find((line) => line.startsWith(`${held.number},`))).toContain(`,${held.email},022 123 4567,2,2,paid,,,,On hold,Yes`);
  expect(lines.find((line) => line.startsWith(`${sent.number},`))).toMatch(/,1,0,shipped,\d{4}-[^,]+,\d{4}-[^,]+,,Shopper e-mailed,No$/);

  // The one shopper sent its boxes has the reason and the advice in their mail.
  const mail = latestMailTo(sent.email);
  expect(mail).toContain(`Subject: Recall: ${name} from your order`);
  expect(mail).toContain('Why: A packhouse sample tested positive for Listeria');

  // The dashboard says so until the recall is closed.
  await page.goto('/admin');
  const banner = page.getByRole('region', { name: 'Open recalls' });
  await expect(banner).toContainText(`${name}: Batch ${unsafe}`);
  await expect(banner).toContainText('1 still on hold');
  await shootAtBothWidths(page, 'recall-dashboard', banner);

  // The held order's shopper reads why it waits.
  const shopper = await browser.newPage();
  try {
    await signIn(shopper, held.email, held.password);
    await shopper.goto(`/account/orders/${held.number}`);
    const hold = shopper.getByRole('status', { name: 'On hold' });
    await expect(hold).toContainText('Your order is on hold');
    await expect(hold).toContainText(`${name}, batch ${unsafe}`);
    await expect(hold).toContainText('was recalled (A packhouse sample tested positive for Listeria)');
    await shootAtBothWidths(shopper, 'recall-held-order');
  } finally {
    await shopper.close();
  }

  // Staff release it once fresh boxes are in, and close the recall.
  await page.goto(`/admin/orders?order=${held.number}`);
  const staffHold = page.getByRole('status', { name: 'On hold' });
  await staffHold.getByRole('button', { name: 'Release hold' }).click();
  await expect(page.getByText('The order needs 2 more boxes of').first()).toBeVisible();
  await shootAtBothWidths(page, 'recall-admin-held-order', staffHold);
  await addBatch(6, 12);
  await staffHold.getByRole('button', { name: 'Release hold' }).click();
  await expect(page.getByText('Hold released').first()).toBeVisible();
  await expect(page.getByRole('status', { name: 'On hold' })).toHaveCount(0);
  await page.goto(`/admin/recalls?batch=${unsafe}`);
  await expect(rows.filter({ hasText: held.number })).toContainText('Released or cancelled since');
  await page.getByRole('button', { name: 'Close recall' }).click();
  await page.getByRole('dialog', { name: `Close the recall of batch ${unsafe}?` }).getByRole('button', { name: 'Close recall' }).click();
  await expect(page.getByText('Recall closed').first()).toBeVisible();
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Open recalls' })).toHaveCount(0);
});
