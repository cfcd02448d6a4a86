import fs from 'node:fs';
import { csvRecords } from '../src/server/testing/csv-rows';
import { expect, test } from './fixtures';
import { shootAtBothWidths } from './screenshots';
import { admin, adminApi, firstDeliveryDate, registerShopper, signIn } from './shopper';

test('staff see the GST return for a period and download the sales invoices for Xero', async ({ page, request, baseURL }) => {
  // A paid order with a promo-free total of two boxes and delivery.
  const api = await adminApi(baseURL!);
  const { email, password } = await registerShopper(request, 'booksbuyer');
  expect((await request.post('/api/login', { data: { email, password } })).status()).toBe(200);
  const me = (await (await request.get('/api/me')).json()) as { id: number };
  expect((await request.post(`/api/cart/${me.id}/items`, { data: { productId: 2, quantity: 2 } })).status()).toBe(200);
  const placed = await request.post('/api/orders', {
    data: { idempotencyKey: 'books-booksbuyer-0001', deliveryDate: await firstDeliveryDate(request, 'Otago', 2), shipping: { name: 'Tama Hohaia', phone: '022 123 4567', street: '5 Princes Street', city: 'Dunedin', postcode: '9016', region: 'Otago' } },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const order = ((await placed.json()) as { order: { number: string; total: number; gst: number } }).order;
  expect((await api.post(`/api/admin/orders/${order.number}/status`, { data: { status: 'paid' } })).status()).toBe(200);

  await signIn(page, admin.email, admin.password);
  await page.goto('/admin/reports');
  const gst = page.getByRole('region', { name: 'GST return' });
  await gst.getByLabel('Period').selectOption('six-monthly');
  await gst.getByLabel('Ending with').selectOption({ index: 0 });
  await expect(gst.getByRole('row', { name: /Box 10/ })).toBeVisible();
  await expect(gst.getByText(/paid orders?\./)).toBeVisible();
  await shootAtBothWidths(page, 'gst-return', gst);

  const [gstCsv] = await Promise.all([page.waitForEvent('download'), gst.getByRole('link', { name: 'Download gst return as CSV' }).click()]);
  const gstRows = fs.readFileSync((await gstCsv.path())!, 'utf8');
  expect(gstRows).toContain(`5,${order.number},`);

  const xero = page.getByRole('region', { name: 'Sales invoices for Xero' });
  await shootAtBothWidths(page, 'xero-export', xero);
  const [download] = await Promise.all([page.waitForEvent('download'), xero.getByRole('link', { name: 'Download sales invoices for xero as CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^xero-invoices-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toMatch(/^\*ContactName,EmailAddress,POAddressLine1,.*,Currency,BrandingTheme$/);
  const lines = csvRecords(csv).filter((row) => row['*InvoiceNumber'] === order.number);
  expect(lines.map((row) => row['*Description'])).toContain('Delivery');
  const total = lines.reduce((sum, row) => sum + Number(row['*Quantity']) * Math.round(Number(row['*UnitAmount']) * 100), 0);
  expect(total).toBe(Math.round(order.total * 100));
  await api.dispose();
});
