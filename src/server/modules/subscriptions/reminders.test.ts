import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubscriptionView } from '../../../contracts/subscriptions';
import { products } from '../../db/schema';
import type { MailMessage } from '../../lib/mail';
import { quickShopper, testProduct, testShipping } from '../../testing/order-helpers';
import { openStaffShop, type TestShop } from '../../testing/test-app';

/** Tuesday 2 March 2027, 11:00 NZDT. Friday 12 March's box (Auckland) has its cut-off on Wednesday 10 March, 12:00. */
const tuesday = new Date('2027-03-01T22:00:00Z');
/** Sunday 7 March, 12:30: within three days of that cut-off. */
const sunday = new Date('2027-03-06T23:30:00Z');
const afterCutoff = new Date('2027-03-09T23:01:00Z');
let now = tuesday;
let shop: TestShop;
beforeAll(async () => ({ shop } = await openStaffShop({ clock: () => now })));
afterAll(async () => shop?.close());

const seen = new Set<MailMessage>();
async function newMailTo(to: string) {
  const fresh = (await shop.mail()).filter((one) => !seen.has(one));
  for (const one of fresh) seen.add(one);
  return fresh.filter((one) => one.to === to);
}

async function subscriber(priceCents = 5000) {
  now = tuesday;
  const product = await testProduct(shop, { subscribable: true, subscriberDiscountPercent: 10, priceCents, stock: 20 });
  const shopper = await quickShopper(shop, 'reminded');
  const response = await shopper.call({ method: 'POST', url: '/api/subscriptions', payload: { productId: product.id, quantity: 2, every: 'week', firstDeliveryDate: '2027-03-12', shipping: testShipping, paymentMethod: 'bank_transfer' } });
  expect(response.statusCode, response.body).toBe(201);
  await newMailTo(shopper.user.email);
  return { product, shopper, subscription: response.json<SubscriptionView>() };
}

/** The skip link of the reminder's plain text. */
const skipLinkOf = (mail: MailMessage) => /Skip this box: (\S+)/.exec(mail.text)![1]!.replace('http://localhost:3000', '');

describe('the reminder before each cut-off', () => {
  it('goes once, a few days before the cut-off, naming the date and the cut-off', async () => {
    const { shopper } = await subscriber();
    const reminders = shop.app.services.seasonBoxReminders;
    await reminders.sendDue();
    expect(await newMailTo(shopper.user.email)).toHaveLength(0);
    now = sunday;
    await Promise.all([reminders.sendDue(), reminders.sendDue()]);
    await reminders.sendDue();
    const mail = await newMailTo(shopper.user.email);
    expect(mail.map((one) => one.subject)).toEqual(['Your box arrives on Friday 12 March: skip or change it by Wednesday 12 pm']);
    expect(mail[0]!.text).toContain('Total: $');
    expect(mail[0]!.text).not.toContain('The price has changed');
    now = tuesday;
  });

  it('says when the price changed since the shopper was last told', async () => {
    const { product, shopper } = await subscriber();
    await shop.database.db.update(products).set({ priceCents: 6000 }).where(eq(products.id, product.id));
    now = sunday;
    await shop.app.services.seasonBoxReminders.sendDue();
    const [mail] = await newMailTo(shopper.user.email);
    expect(mail!.text).toContain('The price has changed: $54.00 a box now (it was $45.00), your subscriber discount taken off.');
    now = tuesday;
  });

  it("skips that delivery from the mail's link, signed out, and brings it back", async () => {
    const { shopper, subscription } = await subscriber();
    now = sunday;
    await shop.app.services.seasonBoxReminders.sendDue();
    const [mail] = await newMailTo(shopper.user.email);
    const link = skipLinkOf(mail!);
    const asked = await shop.app.inject({ method: 'GET', url: link });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('Skip your box on Friday 12 March?');
    // A GET (a mail scanner) skips nothing.
    const state = async () => (await shopper.call({ method: 'GET', url: `/api/subscriptions/${subscription.id}` })).json<SubscriptionView>().coming.find((box) => box.date === '2027-03-12')!.state;
    expect(await state()).toBe('scheduled');
    const skipped = await shop.app.inject({ method: 'POST', url: link, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(skipped.statusCode).toBe(200);
    expect(skipped.body).toContain('Box skipped');
    expect(await state()).toBe('skipped');
    // Only that delivery: the next Friday still comes.
    expect((await shopper.call({ method: 'GET', url: `/api/subscriptions/${subscription.id}` })).json<SubscriptionView>().coming.find((box) => box.date === '2027-03-19')!.state).toBe('scheduled');
    const undo = await shop.app.inject({ method: 'POST', url: link.replace('/skip?', '/unskip?'), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(undo.body).toContain('Your box is coming');
    expect(await state()).toBe('scheduled');
    now = afterCutoff;
    const late = await shop.app.inject({ method: 'POST', url: link, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(late.body).toContain('The box on Friday 12 March is past its cut-off: it can no longer be skipped.');
    expect(await state()).not.toBe('skipped');
    const forged = await shop.app.inject({ method: 'POST', url: '/api/season-box-mail/skip?token=not-a-real-token-at-all-000', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(forged.statusCode).toBe(404);
    now = tuesday;
  });
});
