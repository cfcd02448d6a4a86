import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xeroInvoiceColumns } from '../../../contracts/exports';
import { gstPeriodDays, type GstReturnView } from '../../../contracts/gst-return';
import { gstPartOfCents } from '../../../contracts/money';
import type { OrderStatus, PlacedOrder } from '../../../contracts/order';
import { orderTotals } from '../../../contracts/pricing';
import { addDays, nzToday } from '../../../contracts/reports';
import { bruised, claimForm, deliveredOrder } from '../../testing/claim-helpers';
import { csvRecords, csvRows } from '../../testing/csv-rows';
import { quickShopper, testProduct, testPromo, testShipping } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';
import { type InvoicedOrder, invoiceLines, lineTotalCents, xeroGstCents } from './xero-invoices';

const cents = (text: string) => Math.round(Number(text) * 100);
/** What Xero works out from the file: each line's amount and GST (rounded per line), by invoice number. */
function asXeroReads(csv: string) {
  const invoices = new Map<string, { totalCents: number; gstCents: number; rows: Array<Record<string, string>> }>();
  for (const row of csvRecords(csv)) {
    const amount = Number(row['*Quantity']) * cents(row['*UnitAmount']!);
    const invoice = invoices.get(row['*InvoiceNumber']!) ?? { totalCents: 0, gstCents: 0, rows: [] };
    invoice.totalCents += amount;
    invoice.gstCents += row['*TaxType'] === '15% GST on Income' ? gstPartOfCents(amount) : 0;
    invoice.rows.push(row);
    invoices.set(row['*InvoiceNumber']!, invoice);
  }
  return invoices;
}

describe('invoice lines', () => {
  it("add up to the order's total, and Xero's line-by-line GST to the order's GST, for 2,000 made-up orders", () => {
    let seed = 7;
    const next = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % below;
    };
    let paired = 0;
    for (let n = 0; n < 2000; n += 1) {
      const lines = Array.from({ length: 1 + next(4) }, (_, index) => ({ name: `Box ${index}`, unitPriceCents: 1000 + next(9000), quantity: 1 + next(5), isPreOrder: next(3) === 0 }));
      const subtotal = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
      const totals = orderTotals(lines, next(2) * (500 + next(1500)), next(2) * next(subtotal), next(3) === 0 ? 500 + next(1000) : 0);
      const order: InvoicedOrder = { number: `MS-${n}`, paidOn: '2026-11-20', paymentMethod: 'stripe', contact: { name: 'A', email: 'a@example.nz', street: '', suburb: '', city: '', region: '', postcode: '' }, lines, promoCode: 'SAVE', ...totals };
      const invoice = invoiceLines(order);
      expect(lineTotalCents(invoice)).toBe(totals.totalCents);
      expect(xeroGstCents(invoice)).toBe(totals.gstCents);
      if (invoice.some((line) => line.tax === 'none')) paired += 1;
    }
    // The rounding pair is there when it is needed, and only then (about one order in three or four).
    expect(paired).toBeGreaterThan(200);
    expect(paired).toBeLessThan(1500);
  });
});

describe('GET /api/admin/exports/xero-invoices.csv', () => {
  let shop: TestShop;
  let staff: StaffCall;
  beforeAll(async () => ({ shop, staff } = await openStaffShop()));
  afterAll(async () => shop?.close());

  const exported = async (query = '') => {
    const response = await staff({ method: 'GET', url: `/api/admin/exports/xero-invoices.csv${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };
  const step = async (number: string, status: OrderStatus, extra: Record<string, unknown> = {}) => {
    const response = await staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status, ...extra } });
    expect(response.statusCode, response.body).toBe(200);
  };

  it('writes paid orders as invoices and refunds as credit notes that add up to the cent, with promos, rural surcharges, refunds and claims', async () => {
    const today = nzToday();
    const alphonso = await testProduct(shop, { name: 'Xero Alphonso', priceCents: 4999, stock: 50 });
    const kesar = await testProduct(shop, { name: 'Xero Kesar', priceCents: 3733, stock: 50 });
    const promo = await testPromo(shop, { discountType: 'percentage', discountValue: 13 });

    // A promo and a rural address (its RD number makes it rural).
    const rural = await quickShopper(shop, 'xero');
    await rural.add(alphonso.id, 3);
    await rural.add(kesar.id, 1);
    const ruralPlaced = await rural.order({ promoCode: promo.code, shipping: { ...testShipping, street: '14 Bush Road, RD 2' } });
    expect(ruralPlaced.statusCode, ruralPlaced.body).toBe(201);
    const ruralOrder = ruralPlaced.json<PlacedOrder>().order;
    expect(ruralOrder.ruralSurcharge).toBeGreaterThan(0);
    expect(ruralOrder.discount).toBeGreaterThan(0);
    await step(ruralOrder.number, 'paid');

    // Paid, then refunded in full.
    const refunded = await quickShopper(shop, 'xero');
    await refunded.add(kesar.id, 2);
    const refundedOrder = (await refunded.order()).json<PlacedOrder>().order;
    await step(refundedOrder.number, 'paid');
    await step(refundedOrder.number, 'refunded', { note: 'Changed their mind' });

    // Delivered, then a claim refunded part of it.
    const claimed = await deliveredOrder(shop, staff);
    const sent = await claimed.shopper.call({ method: 'POST', url: `/api/orders/${claimed.order.number}/claims`, ...claimForm(bruised(claimed.lines[0]!.lineId, 1), [await sharp({ create: { width: 32, height: 24, channels: 3, background: '#e8a33d' } }).jpeg().toBuffer()]) });
    expect(sent.statusCode, sent.body).toBe(201);
    const claimId = sent.json<{ id: number }>().id;
    const approved = await staff({ method: 'POST', url: `/api/admin/claims/${claimId}/approve`, payload: { resolution: 'refund', amount: 33.33 } });
    expect(approved.statusCode, approved.body).toBe(200);

    // A replacement for another claim costs nothing: no invoice. An unpaid order is no sale yet.
    const replaced = await deliveredOrder(shop, staff);
    const second = await replaced.shopper.call({ method: 'POST', url: `/api/orders/${replaced.order.number}/claims`, ...claimForm(bruised(replaced.lines[0]!.lineId, 1, 'replacement'), [await sharp({ create: { width: 32, height: 24, channels: 3, background: '#e8a33d' } }).jpeg().toBuffer()]) });
    expect(second.statusCode, second.body).toBe(201);
    const replacement = await staff({ method: 'POST', url: `/api/admin/claims/${second.json<{ id: number }>().id}/approve`, payload: { resolution: 'replacement' } });
    expect(replacement.statusCode, replacement.body).toBe(200);
    const unpaid = await quickShopper(shop, 'xero');
    await unpaid.add(kesar.id, 1);
    const unpaidOrder = (await unpaid.order()).json<PlacedOrder>().order;

    // Yesterday to tomorrow: the orders' days, even if the test runs over midnight.
    const range = `?from=${addDays(today, -1)}&to=${addDays(today, 1)}`;
    const response = await exported(range);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="xero-invoices-${addDays(today, -1)}-to-${addDays(today, 1)}.csv"`);
    expect(csvRows(response.body)[0]).toEqual([...xeroInvoiceColumns]);
    const invoices = asXeroReads(response.body);

    const xeroDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
    const days = [xeroDay(today), xeroDay(addDays(today, 1))];
    const orders = [ruralOrder, refundedOrder, claimed.order, replaced.order];
    for (const order of orders) {
      const invoice = invoices.get(order.number);
      expect(invoice, order.number).toBeDefined();
      expect(invoice!.totalCents, order.number).toBe(cents(String(order.total)));
      expect(invoice!.gstCents, order.number).toBe(cents(String(order.gst)));
      for (const row of invoice!.rows) {
        expect(row).toMatchObject({ '*DueDate': row['*InvoiceDate'], '*AccountCode': '200', Currency: 'NZD', '*ContactName': 'Aroha Ngata' });
        expect(days).toContain(row['*InvoiceDate']);
        expect(row['*TaxType']).toMatch(/^(15% GST on Income|No GST)$/);
      }
    }
    const ruralRows = invoices.get(ruralOrder.number)!.rows.map((row) => [row['*Description'], row['*Quantity'], row['*UnitAmount']]);
    expect(ruralRows).toEqual(
      expect.arrayContaining([
        ['Xero Alphonso', '3', '49.99'],
        ['Xero Kesar', '1', '37.33'],
        ['Delivery', '1', ruralOrder.shipping.toFixed(2)],
        ['Rural delivery surcharge', '1', ruralOrder.ruralSurcharge.toFixed(2)],
        [`Promo code ${promo.code}`, '1', (-ruralOrder.discount).toFixed(2)],
      ]),
    );
    expect(invoices.has(unpaidOrder.number)).toBe(false);
    const replacementNumbers = [...invoices.keys()].filter((number) => !orders.some((order) => number.startsWith(order.number)));
    expect(replacementNumbers).toEqual([]);

    // Credit notes: negative, with the GST part of the refund.
    const fullRefund = invoices.get(`${refundedOrder.number}-CN1`)!;
    expect(fullRefund.totalCents).toBe(-cents(String(refundedOrder.total)));
    expect(fullRefund.gstCents).toBe(-gstPartOfCents(cents(String(refundedOrder.total))));
    expect(fullRefund.rows[0]).toMatchObject({ Reference: refundedOrder.number, '*Description': `Refund on order ${refundedOrder.number}: Changed their mind` });
    const claimRefund = invoices.get(`${claimed.order.number}-CN1`)!;
    expect(claimRefund.totalCents).toBe(-3333);
    expect(claimRefund.gstCents).toBe(-gstPartOfCents(3333));
    expect(invoices.size).toBe(orders.length + 2);

    // Another day has none of them; the account code comes from the settings.
    expect(csvRows((await exported('?from=2020-01-01&to=2020-01-31')).body)).toHaveLength(1);
    const settings = await staff({ method: 'GET', url: '/api/admin/settings' });
    const saved = await staff({ method: 'PUT', url: '/api/admin/settings', payload: { ...settings.json<object>(), xeroSalesAccount: '4000' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(new Set(csvRecords((await exported(range)).body).map((row) => row['*AccountCode']))).toEqual(new Set(['4000']));
  });

  it('refuses a bad range or account code with a field error, and visitors', async () => {
    const bad = await staff({ method: 'GET', url: '/api/admin/exports/xero-invoices.csv?from=2026-11-30&to=2026-11-01' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ fieldErrors: { to: 'To must be on or after From' } });
    const notDate = await staff({ method: 'GET', url: '/api/admin/exports/xero-invoices.csv?from=yesterday' });
    expect(notDate.statusCode).toBe(400);
    const settings = await staff({ method: 'GET', url: '/api/admin/settings' });
    const refused = await staff({ method: 'PUT', url: '/api/admin/settings', payload: { ...settings.json<object>(), xeroSalesAccount: '200; drop' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ fieldErrors: { xeroSalesAccount: expect.stringContaining('1 to 10 letters or digits') } });
    const visitor = await shop.app.inject({ method: 'GET', url: '/api/admin/exports/xero-invoices.csv' });
    expect(visitor.statusCode).toBe(401);
  });

  it('gives the sales side of the GST return: what was paid and refunded in the period, box by box, with the orders behind it', async () => {
    // Six months ending next month: this month's orders are in it, even if the test runs over midnight at a month's end.
    const ending = addDays(`${nzToday().slice(0, 8)}01`, 40).slice(0, 7);
    const period = `period=six-monthly&ending=${ending}`;
    const gstReturn = async (query: string) => {
      const response = await staff({ method: 'GET', url: `/api/admin/reports/gst-return?${query}` });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<GstReturnView>();
    };
    const before = await gstReturn(period);
    // Prices whose GST parts, each rounded, do not add up to 3/23 of their sum.
    const product = await testProduct(shop, { name: 'GST Banganapalli', priceCents: 1001, stock: 50 });
    const placed: Array<{ number: string; total: number; gst: number }> = [];
    for (const boxes of [1, 2, 4]) {
      const shopper = await quickShopper(shop, 'gst');
      await shopper.add(product.id, boxes);
      const order = (await shopper.order()).json<PlacedOrder>().order;
      await step(order.number, 'paid');
      placed.push(order);
    }
    await step(placed[2]!.number, 'refunded', { note: 'Moved overseas' });
    const after = await gstReturn(period);
    const c = (dollars: number) => Math.round(dollars * 100);
    const paidCents = placed.reduce((sum, order) => sum + c(order.total), 0);
    expect(after).toMatchObject({ period: 'six-monthly', ...gstPeriodDays(ending, 6), zeroRated: 0, adjustments: 0 });
    expect(after.orders - before.orders).toBe(3);
    expect(c(after.totalSales) - c(before.totalSales)).toBe(paidCents);
    expect(after.taxableSales).toBe(after.totalSales);
    expect(c(after.gstOnSales)).toBe(gstPartOfCents(c(after.totalSales)));
    expect(after.totalGstCollected).toBe(after.gstOnSales);
    expect(c(after.ordersGst) - c(before.ordersGst)).toBe(placed.reduce((sum, order) => sum + c(order.gst), 0));
    expect(c(after.roundingDifference)).toBe(c(after.gstOnSales) - c(after.ordersGst));
    expect(after.refunds - before.refunds).toBe(1);
    expect(c(after.refundsTotal) - c(before.refundsTotal)).toBe(c(placed[2]!.total));
    expect(c(after.refundsGst)).toBe(gstPartOfCents(c(after.refundsTotal)));

    // The CSV lists each sale (box 5) and refund (box 13): its lines add up to the figures.
    const csv = await staff({ method: 'GET', url: `/api/admin/reports/gst-return.csv?${period}` });
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = csvRecords(csv.body);
    const sum = (box: string, column: string) => rows.filter((row) => row.Box === box).reduce((total, row) => total + cents(row[column]!), 0);
    expect(sum('5', 'Amount (NZD incl. GST)')).toBe(c(after.totalSales));
    expect(sum('5', 'GST part (NZD)')).toBe(c(after.ordersGst));
    expect(sum('13', 'Amount (NZD incl. GST)')).toBe(c(after.refundsTotal));
    expect(sum('13', 'GST part (NZD)')).toBe(c(after.refundsGstParts));
    expect(rows.filter((row) => row.Box === '5').map((row) => row.Order)).toEqual(expect.arrayContaining(placed.map((order) => order.number)));

    // Each period ends with the chosen month; a period with no sales is all zeros.
    expect(await gstReturn('period=monthly&ending=2024-02')).toMatchObject({ from: '2024-02-01', to: '2024-02-29', orders: 0 });
    expect(await gstReturn('period=two-monthly&ending=2026-01')).toMatchObject({ from: '2025-12-01', to: '2026-01-31' });
    expect(await gstReturn('period=six-monthly&ending=2020-03')).toMatchObject({ from: '2019-10-01', to: '2020-03-31', totalSales: 0, gstOnSales: 0, orders: 0, refunds: 0 });
  });

  it('refuses a period it cannot read with a field error', async () => {
    for (const [query, field, message] of [
      ['period=weekly', 'period', 'Choose monthly, two-monthly or six-monthly'],
      ['ending=2026-13', 'ending', 'Ending must be a month (YYYY-MM)'],
      ['ending=2098-01', 'ending', 'That period has not started yet'],
      ['ending=2999-01', 'ending', 'Ending must be a month between 2000 and 2099'],
      // JavaScript reads years 0-99 as 1900-1999: a period of 1999 must not be what year 99 returns.
      ['ending=0099-06', 'ending', 'Ending must be a month between 2000 and 2099'],
    ] as const) {
      const response = await staff({ method: 'GET', url: `/api/admin/reports/gst-return?${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ fieldErrors: { [field]: message } });
    }
  });

  it("refuses a range with more invoices than one Xero import takes, with a field error", async () => {
    const buyer = await quickShopper(shop, 'bulk');
    await shop.database.db.execute(sql`
      insert into orders (user_id, status, payment_method, subtotal_cents, shipping_cents, total_cents, gst_cents, ship_name, ship_phone, ship_street, ship_city, ship_postcode, ship_region, idempotency_key)
      select ${buyer.user.id}, 'paid', 'bank_transfer', 1000, 0, 1000, 130, 'Bulk Buyer', '021 123 4567', '1 Queen Street', 'Auckland', '1010', 'Auckland', 'bulk-' || n from generate_series(1, 501) as n`);
    await shop.database.db.execute(sql`insert into order_events (order_id, status, created_at) select id, 'paid', '2021-05-10T02:00:00Z' from orders where idempotency_key like 'bulk-%'`);
    const refused = await staff({ method: 'GET', url: '/api/admin/exports/xero-invoices.csv?from=2021-05-01&to=2021-05-31' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ fieldErrors: { from: 'From 2021-05-01 to 2021-05-31 there are 501 invoices and credit notes, and Xero imports at most 500 in one file: choose a shorter range.' } });
  });
});
