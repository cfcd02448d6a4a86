import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryDayOption } from '../../../contracts/delivery';
import type { OrderView, PlacedOrder } from '../../../contracts/order';
import type { StoredSettings } from '../../../contracts/settings';
import { formatDeadline } from '../../../contracts/dates';
import { orders } from '../../db/schema';
import { sampleBankAccountNumber } from '../../../contracts/settings';
import { quickShopper, testProduct } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

/** Tuesday 2 March 2027, 10:00 in Auckland (NZDT): before the 12:00 packing cut-off. */
const now = new Date('2027-03-01T21:00:00Z');
let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop({ clock: () => now })));
afterAll(async () => shop?.close());

async function firstOffered(payment?: string): Promise<DeliveryDayOption> {
  const response = await shop.app.inject({ method: 'GET', url: `/api/delivery/dates?region=Auckland&boxes=1${payment ? `&payment=${payment}` : ''}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ dates: DeliveryDayOption[] }>().dates.find((one) => one.state.available)!;
}

/** The order as if placed at the shop's clock (the database stamps its own time). */
async function placedNow(number: string) {
  await shop.database.db.update(orders).set({ createdAt: now }).where(eq(orders.number, number));
}

/** The order's status as its shopper sees it. */
async function statusOf(call: StaffCall, number: string) {
  return (await call({ method: 'GET', url: `/api/orders/${number}` })).json<OrderView>();
}

async function setAccountNumber(accountNumber: string) {
  const current = (await staff({ method: 'GET', url: '/api/admin/settings' })).json<StoredSettings>();
  const saved = await staff({ method: 'PUT', url: '/api/admin/settings', payload: { ...current, bankTransfer: { ...current.bankTransfer, accountNumber } } });
  expect(saved.statusCode, saved.body).toBe(200);
}

describe('a bank transfer that can be paid', () => {
  it('is offered days that leave a day to pay, and must be paid before its packing day’s cut-off', async () => {
    const any = await firstOffered();
    const bank = await firstOffered('bank_transfer');
    // Packed today (Tuesday) for anyone; a transfer gets Wednesday's packing at the earliest.
    expect(any).toMatchObject({ date: '2027-03-03', dispatchDate: '2027-03-02' });
    expect(bank).toMatchObject({ date: '2027-03-04', dispatchDate: '2027-03-03' });
    // The sooner day is still listed for a transfer, greyed out with the reason.
    const listed = await shop.app.inject({ method: 'GET', url: '/api/delivery/dates?region=Auckland&boxes=1&payment=bank_transfer' });
    expect(listed.json<{ dates: DeliveryDayOption[] }>().dates[0]).toEqual({ date: '2027-03-03', dispatchDate: '2027-03-02', state: { available: false, reason: 'Too soon for a transfer to reach us' } });

    const product = await testProduct(shop, { stock: 10 });
    const shopper = await quickShopper(shop, 'transfer');
    await shopper.add(product.id, 1);
    const placed = await shopper.order({ deliveryDate: bank.date, paymentMethod: 'bank_transfer' });
    expect(placed.statusCode, placed.body).toBe(201);
    const { order } = placed.json<PlacedOrder>();
    expect(order.bankTransfer).toMatchObject({ reference: order.number, accountNumber: sampleBankAccountNumber });
    const mail = (await shop.mail()).filter((one) => one.to === shopper.user.email).at(-1)!;
    expect(mail.text).toContain(`Please pay by ${formatDeadline(order.bankTransfer!.payBy)}:`);
    // Wednesday 12:00 in Auckland: sooner than the 3-day timeout, and before the box is packed.
    await placedNow(order.number);
    const seen = (await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` })).json<OrderView>();
    expect(seen.bankTransfer?.payBy).toBe('2027-03-02T23:00:00.000Z');
    expect(formatDeadline(seen.bankTransfer!.payBy)).toBe('12:00 pm on Wed, 3 March 2027');
  });

  it('chosen for the soonest day anyway, is due by that day’s cut-off, and is cancelled once it passes unpaid', async () => {
    const product = await testProduct(shop, { stock: 10 });
    const shopper = await quickShopper(shop, 'soonest');
    await shopper.add(product.id, 2);
    const placed = await shopper.order({ deliveryDate: (await firstOffered()).date, paymentMethod: 'bank_transfer' });
    expect(placed.statusCode, placed.body).toBe(201);
    const { order } = placed.json<PlacedOrder>();
    await placedNow(order.number);
    expect((await statusOf(shopper.call, order.number)).bankTransfer?.payBy).toBe('2027-03-01T23:00:00.000Z');

    const service = shop.app.services.orders;
    await service.cancelOverdue(new Date('2027-03-01T22:59:00Z'));
    expect((await statusOf(shopper.call, order.number)).status).toBe('pending_payment');
    await service.cancelOverdue(new Date('2027-03-01T23:01:00Z'));
    const view = await statusOf(shopper.call, order.number);
    expect(view.status).toBe('cancelled');
    expect(view.events.at(-1)).toMatchObject({ status: 'cancelled', note: 'Not paid before its packing day' });
  });

  it('moved by staff to a later day, is due by the new day’s cut-off', async () => {
    const product = await testProduct(shop, { stock: 10 });
    const shopper = await quickShopper(shop, 'moved');
    await shopper.add(product.id, 1);
    const placed = await shopper.order({ deliveryDate: (await firstOffered('bank_transfer')).date, paymentMethod: 'bank_transfer' });
    const { order } = placed.json<PlacedOrder>();
    await placedNow(order.number);
    const moved = await staff({ method: 'POST', url: `/api/admin/orders/${order.number}/delivery-date`, payload: { deliveryDate: '2027-03-05', reason: 'Truck booked' } });
    expect(moved.statusCode, moved.body).toBe(200);
    const [row] = await shop.database.db.select({ payBy: orders.payBy }).from(orders).where(eq(orders.number, order.number));
    // Packed Thursday 4 March: due by its 12:00, still inside the 3-day timeout.
    expect(row!.payBy!.toISOString()).toBe('2027-03-03T23:00:00.000Z');
    // The moved-day mail tells the shopper the deadline as it is now.
    const movedMail = (await shop.mail()).filter((mail) => mail.subject === `New delivery day for order ${order.number}`).at(-1);
    expect(movedMail?.text).toContain('Please pay by 12:00 pm on Thu, 4 March 2027, so your boxes can be packed for the new day.');
  });

  it('is not offered, nor taken, while the shop has no account number', async () => {
    const product = await testProduct(shop, { stock: 10 });
    const shopper = await quickShopper(shop, 'noaccount');
    await shopper.add(product.id, 1);
    const quote = async () => (await shopper.call({ method: 'POST', url: '/api/checkout/quote', payload: {} })).json<{ paymentMethods: string[] }>().paymentMethods;
    expect(await quote()).toEqual(['bank_transfer']);
    await setAccountNumber('');
    try {
      expect(await quote()).toEqual([]);
      const refused = await shopper.order({ paymentMethod: 'bank_transfer' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ fieldErrors: { paymentMethod: 'Bank transfer is not available at the moment. Please pay by card.' } });
      expect((await shopper.cart()).itemCount).toBe(1);
    } finally {
      await setAccountNumber(sampleBankAccountNumber);
    }
  });
});
