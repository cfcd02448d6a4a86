import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderDetail, AdminOrderPage } from '../../../contracts/admin-orders';
import type { DispatchDay } from '../../../contracts/dispatch';
import type { PlacedOrder } from '../../../contracts/order';
import { addDays, nzToday } from '../../../contracts/dates';
import { orders, users } from '../../db/schema';
import { csvRecords } from '../../testing/csv-rows';
import { quickShopper, stockOf, testProduct, testShipping } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop()));
afterAll(async () => shop?.close());

const recipient = { ...testShipping, name: 'Mere Tawhiri', phone: '022 765 4321', street: '8 Tennyson Street', suburb: '', city: 'Napier', postcode: '4110', region: "Hawke's Bay", deliveryInstructions: 'Ring the bell twice' };

describe('gift orders', () => {
  it('go to the recipient with the message, the buyer stays the account holder, and staff see "Gift" on the order, the list and the dispatch day', async () => {
    const product = await testProduct(shop, { name: 'Gift Alphonso', priceCents: 6499, stock: 10 });
    const buyer = await quickShopper(shop, 'giver');
    await buyer.add(product.id, 2);
    const message = 'Happy birthday, Mum!\r\nThe first Alphonsos of the season, with love.\u0007';
    const placed = await buyer.order({ shipping: { ...recipient, region: "Hawke's Bay", saveToProfile: true }, gift: { message } });
    expect(placed.statusCode, placed.body).toBe(201);
    const { order } = placed.json<PlacedOrder>();
    // Line ends are kept (as \n), other control characters dropped.
    expect(order.gift).toEqual({ message: 'Happy birthday, Mum!\nThe first Alphonsos of the season, with love.' });
    expect(order.shippingAddress).toMatchObject({ name: 'Mere Tawhiri', city: 'Napier' });

    // The buyer's own profile keeps their address, even though "save to my profile" came ticked.
    const [me] = await shop.database.db.select().from(users).where(eq(users.id, buyer.user.id));
    expect(me).toMatchObject({ address: buyer.user.address, city: buyer.user.city, phone: buyer.user.phone });
    const mine = await buyer.call({ method: 'GET', url: `/api/orders/${order.number}` });
    expect(mine.json()).toMatchObject({ gift: { message: order.gift!.message } });

    // The buyer's confirmation: the recipient and the message.
    const mail = (await shop.mail()).filter((one) => one.to === buyer.user.email).at(-1)!;
    expect(mail.text).toContain('A gift for Mere Tawhiri, delivering to:');
    expect(mail.text).toContain('Happy birthday, Mum!\nThe first Alphonsos of the season, with love.');
    expect(mail.html).toContain('Happy birthday, Mum!');

    const detail = (await staff({ method: 'GET', url: `/api/admin/orders/${order.number}` })).json<AdminOrderDetail>();
    expect(detail.gift).toEqual(order.gift);
    expect(detail.customer.email).toBe(buyer.user.email);
    const list = (await staff({ method: 'GET', url: `/api/admin/orders?q=${order.number}` })).json<AdminOrderPage>();
    expect(list.orders.find((row) => row.number === order.number)).toMatchObject({ gift: true, customerEmail: buyer.user.email });
    const [row] = await shop.database.db.select().from(orders).where(eq(orders.number, order.number));
    const day = (await staff({ method: 'GET', url: `/api/admin/dispatch?date=${row!.dispatchDate}` })).json<DispatchDay>();
    const listed = day.regions.flatMap((region) => region.orders).find((one) => one.number === order.number);
    expect(listed).toMatchObject({ gift: order.gift, address: { name: 'Mere Tawhiri' }, customer: { email: buyer.user.email } });

    // In the books the buyer is the customer: the invoice never carries the recipient's address.
    expect((await staff({ method: 'POST', url: `/api/admin/orders/${order.number}/status`, payload: { status: 'paid' } })).statusCode).toBe(200);
    await shop.database.db.update(users).set({ address: '' }).where(eq(users.id, buyer.user.id));
    const xero = await staff({ method: 'GET', url: `/api/admin/exports/xero-invoices.csv?from=${addDays(nzToday(), -1)}&to=${addDays(nzToday(), 1)}` });
    const rows = csvRecords(xero.body).filter((one) => one['*InvoiceNumber'] === order.number);
    expect(rows.length).toBeGreaterThan(0);
    for (const one of rows) expect(one).toMatchObject({ '*ContactName': 'Aroha Ngata', EmailAddress: buyer.user.email, POAddressLine1: '', POCity: '' });

    // An order that is not a gift says so.
    const plain = await quickShopper(shop, 'plain');
    await plain.add(product.id, 1);
    const ordinary = (await plain.order()).json<PlacedOrder>().order;
    expect(ordinary.gift).toBeNull();
    const again = (await staff({ method: 'GET', url: `/api/admin/orders?q=${ordinary.number}` })).json<AdminOrderPage>();
    expect(again.orders.find((one) => one.number === ordinary.number)?.gift).toBe(false);
  });

  it('takes a message of 300 characters as a person counts them, and refuses a longer one, or a gift that is not an object, changing nothing', async () => {
    const product = await testProduct(shop, { name: 'Gift Kesar', priceCents: 4500, stock: 10 });
    const buyer = await quickShopper(shop, 'counter');
    await buyer.add(product.id, 1);
    const mailsBefore = (await shop.mail()).length;
    for (const [gift, error] of [
      [{ message: '🥭'.repeat(301) }, 'A gift message can be at most 300 characters'],
      [{ message: 'x'.repeat(301) }, 'A gift message can be at most 300 characters'],
      [{ message: 42 }, 'The gift message must be text'],
    ] as const) {
      const refused = await buyer.order({ shipping: recipient, gift });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({ fieldErrors: { 'gift.message': error } });
    }
    const notObject = await buyer.order({ shipping: recipient, gift: 'yes please' });
    expect(notObject.statusCode).toBe(400);
    expect(notObject.json()).toMatchObject({ fieldErrors: { gift: 'A gift is an object with a message' } });
    // Nothing changed: the cart, the stock, the orders and the mail are as they were.
    expect((await buyer.cart()).itemCount).toBe(1);
    expect(await stockOf(shop, product.id)).toBe(10);
    expect(await shop.database.db.select().from(orders).where(eq(orders.userId, buyer.user.id))).toHaveLength(0);
    expect((await shop.mail()).length).toBe(mailsBefore);

    // 300 mangoes are 300 characters (600 UTF-16 units): taken, and stored whole.
    const placed = await buyer.order({ shipping: recipient, gift: { message: '🥭'.repeat(300) } });
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json<PlacedOrder>().order.gift!.message).toBe('🥭'.repeat(300));
    // A gift with no message is still a gift.
    await buyer.add(product.id, 1);
    const silent = await buyer.order({ shipping: recipient, gift: {} });
    expect(silent.statusCode, silent.body).toBe(201);
    expect(silent.json<PlacedOrder>().order.gift).toEqual({ message: '' });
  });
});
