import type { Page } from '@playwright/test';
import { addDays, nzToday } from '../src/contracts/dates';
import type { OrderView } from '../src/contracts/order';
import type { MailMessage } from '../src/server/lib/mail';
import { claimReceivedMail, claimRefundedMail } from '../src/server/modules/claims/mail';
import { recallMail } from '../src/server/modules/inventory/recalls';
import { cancelledMail, confirmationMail, deliveryMovedMail, type MailContext, paidMail, refundedMail, refundPaidOutMail, shippedMail } from '../src/server/modules/orders/mail';
import { allocatedMail } from '../src/server/modules/orders/pre-order-mail';
import { readyMail } from '../src/server/modules/orders/ripeness';
import { reviewInviteMail } from '../src/server/modules/reviews/invites';
import { defaultSettings } from '../src/server/modules/settings/defaults';
import { backMail, confirmMail } from '../src/server/modules/waitlist/mail';
import { declinedMail, missedMail } from '../src/server/modules/subscriptions/runs';
import { seasonBoxReminderMail } from '../src/server/modules/subscriptions/reminders';
import { welcomeMail } from '../src/server/modules/subscriptions/service';
import type { SubscriptionView } from '../src/contracts/subscriptions';
import { expect, test } from './fixtures';

/**
 * Every kind of e-mail the shop sends, rendered from its own builder with a sample order, and
 * looked at as a reader would: at 390 and 1280 px, in light and dark mode. The HTML part must say
 * what the plain-text part says (the delivery day, the tracking link, the amounts).
 */
const delivery = addDays(nzToday(), 6);
const order: OrderView = {
  number: 'MS-10042',
  status: 'pending_payment',
  paymentMethod: 'bank_transfer',
  placedAt: new Date().toISOString(),
  lines: [
    { productId: 1, name: 'Alphonso Mangoes', unitPrice: 64.99, quantity: 2, lineTotal: 129.98, isPreOrder: false, expectedAvailabilityDate: null, allocated: false, origin: 'Grown in India', treatment: 'Treated with ionising radiation' },
    { productId: 3, name: 'Kesar Mangoes', unitPrice: 44.99, quantity: 1, lineTotal: 44.99, isPreOrder: false, expectedAvailabilityDate: null, allocated: false, origin: 'Grown in India', treatment: 'Treated with ionising radiation' },
  ],
  subtotal: 174.97,
  shipping: 12,
  ruralSurcharge: 5,
  discount: 17.5,
  gst: 22.44,
  total: 174.47,
  promoCode: 'MANGO10',
  shippingAddress: { name: 'Aroha Ngata', phone: '021 123 4567', street: '1020 Kaipara Coast Highway, RD 4', suburb: '', city: 'Warkworth', postcode: '0984', region: 'Auckland' },
  deliveryInstructions: 'Leave by the garage door',
  gift: null,
  fulfilment: 'delivery',
  pickup: null,
  rural: true,
  deliveryDate: delivery,
  dispatchDate: addDays(delivery, -1),
  trackingNumber: null,
  carrier: null,
  trackingUrl: null,
  events: [],
  refunds: [],
  bankTransfer: { accountName: 'Mango Shop Ltd', accountNumber: '12-3456-7890123-00', bankName: 'ASB', reference: 'MS-10042', payBy: addDays(nzToday(), 3), amount: 174.47 },
  laterDelivery: null,
  paidWith: null,
  canCancel: true,
  waitingForStock: false,
  hold: null,
  canPayByCard: false,
};
const context = (view: OrderView): MailContext => ({ to: 'aroha@example.nz', firstName: 'Aroha', order: view, settings: defaultSettings, orderUrl: 'https://mangoshop.co.nz/account/orders/MS-10042' });
const shipped: OrderView = { ...order, status: 'shipped', bankTransfer: null, carrier: 'nz_post', trackingNumber: 'NZP123456789', trackingUrl: 'https://www.nzpost.co.nz/tools/tracking/item/NZP123456789' };
const ripeness = {
  lines: [
    { lineId: 1, name: 'Alphonso Mangoes', window: { from: addDays(delivery, 2), until: addDays(delivery, 5) }, clock: { ripeningDays: 8, daysAtBest: 4 } },
    { lineId: 2, name: 'Kesar Mangoes', window: { from: addDays(delivery, -2), until: addDays(delivery, 1) }, clock: { ripeningDays: 7, daysAtBest: 4 } },
  ],
  arrives: delivery,
  remindOn: addDays(delivery, 2),
  optOutUrl: 'https://mangoshop.co.nz/api/ripeness-reminders/opt-out?token=abc',
};
const pickupOrder: OrderView = {
  ...order,
  fulfilment: 'pickup',
  pickup: { code: 'K7M4QX', address: '24 Karaka Street, Mount Eden, Auckland 1024', hours: '10:00–16:00' },
  shipping: 0,
  ruralSurcharge: 0,
  rural: false,
  total: 157.47,
  gst: 20.54,
  dispatchDate: null,
  shippingAddress: { name: 'Aroha Ngata', phone: '021 123 4567', street: '', suburb: '', city: '', postcode: '', region: 'Auckland' },
};
const claim = { id: 7, reason: 'bruised' as const, lines: [{ name: 'Alphonso Mangoes', quantity: 1 }] };

const seasonBoxView: SubscriptionView = {
  id: 7,
  status: 'active',
  product: { id: 3, name: 'Kesar Mangoes', imageUrl: '/images/products/kesar.svg', priceCents: 4499, subscriberDiscountPercent: 10 },
  quantity: 2,
  every: 'fortnight',
  weekday: 'Fri',
  firstDeliveryDate: delivery,
  lastDeliveryDate: addDays(delivery, 70),
  paymentMethod: 'bank_transfer',
  shipping: { name: 'Aroha Ngata', phone: '021 123 4567', street: '12 Ponsonby Road', suburb: 'Ponsonby', city: 'Auckland', postcode: '1011', region: 'Auckland', deliveryInstructions: '' },
  pausedUntil: null,
  unitPriceCents: 4049,
  deliveryCents: 1200,
  createdAt: new Date().toISOString(),
  coming: [{ date: delivery, dispatchDate: addDays(delivery, -1), cutoffAt: new Date().toISOString(), state: 'scheduled', productId: 3, productName: 'Kesar Mangoes', quantity: 2, totalCents: 9298, changedForThisBox: false, open: true, note: null, orderNumber: null }],
};

const mails: Array<[string, MailMessage]> = [
  ['order-confirmation', confirmationMail(context(order))],
  ['order-confirmation-gift', confirmationMail(context({ ...order, gift: { message: 'Happy birthday, Mum!\nThe first Alphonsos of the season, with love from Aroha.' }, shippingAddress: { ...order.shippingAddress, name: 'Mere Ngata' } }))],
  ['order-confirmation-pickup', confirmationMail(context(pickupOrder))],
  ['order-ready-for-pickup', shippedMail(context({ ...pickupOrder, status: 'shipped', bankTransfer: null }), ripeness)],
  ['order-paid', paidMail(context({ ...order, status: 'paid', bankTransfer: null }))],
  ['order-shipped', shippedMail(context(shipped), ripeness)],
  ['ripeness-ready', readyMail({ to: 'aroha@example.nz', firstName: 'Aroha', orderNumber: 'MS-10042', lines: [...ripeness.lines, { name: 'Himsagar Mangoes', window: { from: addDays(delivery, 4), until: addDays(delivery, 6) } }], today: ripeness.remindOn, orderUrl: 'https://mangoshop.co.nz/account/orders/MS-10042', optOutUrl: ripeness.optOutUrl, siteName: 'Mango Shop' })],
  ['order-delivery-moved', deliveryMovedMail(context(order), addDays(delivery, -2), 'The Kesar shipment is a day late')],
  ['order-cancelled', cancelledMail(context({ ...order, status: 'cancelled' }), 'Not paid within 3 days.')],
  ['order-refunded', refundedMail(context({ ...order, status: 'refunded' }), 17447, 'card')],
  ['order-refund-owed', refundedMail(context({ ...order, status: 'refunded' }), 17447, 'transfer')],
  ['refund-paid-out', refundPaidOutMail(context({ ...order, status: 'refunded' }), 17447, '…0123456-00')],
  ['pre-order-arrived', allocatedMail(context({ ...order, status: 'paid', bankTransfer: null }), { productName: 'Kesar Mangoes', boxes: 1, dispatch: addDays(delivery, -1) })],
  ['claim-received', claimReceivedMail(context(shipped), claim)],
  ['claim-refunded', claimRefundedMail(context(shipped), claim, 6499, 'Sorry about that box.', 'transfer')],
  ['waitlist-confirm', confirmMail({ to: 'aroha@example.nz', productName: 'Kesar Mangoes', link: 'https://mangoshop.co.nz/waitlist/confirm?token=abc' })],
  ['waitlist-back', backMail({ to: 'aroha@example.nz', productName: 'Kesar Mangoes', isPreOrder: false, productUrl: 'https://mangoshop.co.nz/product/3', unsubscribeUrl: 'https://mangoshop.co.nz/waitlist/leave?token=abc' })],
  [
    'batch-recall',
    recallMail({
      to: 'aroha@example.nz',
      firstName: 'Aroha',
      productName: 'Alphonso Mangoes',
      batch: { id: 12, harvestedOn: addDays(delivery, -9), bestBefore: addDays(delivery, 4) },
      reason: 'A packhouse sample of this batch tested positive for Listeria',
      advice: 'Please do not eat these mangoes. Put them in a sealed bag in the rubbish, and wash anything they touched. We will refund every box in full: no need to send them back.',
      orders: [
        { number: 'MS-10042', boxes: 2, giftTo: null },
        { number: 'MS-10047', boxes: 1, giftTo: 'Mere Ngata' },
      ],
      siteName: 'Mango Shop',
      contactEmail: 'hello@mangoshop.co.nz',
      publicUrl: 'https://mangoshop.co.nz',
    }),
  ],
  [
    'review-invite',
    reviewInviteMail({
      to: 'aroha@example.nz',
      firstName: 'Aroha',
      orderNumber: 'MS-10042',
      products: [
        { name: 'Alphonso Mangoes', url: 'https://mangoshop.co.nz/product/1?review=write#write-review' },
        { name: 'Kesar Mangoes', url: 'https://mangoshop.co.nz/product/3?review=write#write-review' },
      ],
      optOutUrl: 'https://mangoshop.co.nz/api/review-mail/opt-out?token=abc',
      siteName: 'Mango Shop',
    }),
  ],
  ['order-confirmation-two-deliveries', confirmationMail(context({ ...order, laterDelivery: { number: 'MS-10043', total: 69.99 }, bankTransfer: { ...order.bankTransfer!, amount: 244.46 } }))],
  [
    'order-confirmation-later-delivery',
    confirmationMail(
      context({
        ...order,
        number: 'MS-10043',
        lines: [{ productId: 4, name: 'Alphonso Mangoes', unitPrice: 69.99, quantity: 1, lineTotal: 69.99, isPreOrder: true, expectedAvailabilityDate: '2027-04-20', allocated: false, origin: 'Grown in India', treatment: 'Treated with ionising radiation' }],
        subtotal: 69.99,
        shipping: 0,
        ruralSurcharge: 0,
        discount: 0,
        gst: 9.13,
        total: 69.99,
        deliveryDate: null,
        dispatchDate: null,
        bankTransfer: null,
        paidWith: 'MS-10042',
      }),
    ),
  ],
  [
    'season-box-reminder',
    seasonBoxReminderMail({
      to: 'aroha@example.nz',
      firstName: 'Aroha',
      date: delivery,
      cutoff: new Date(`${addDays(delivery, -2)}T00:00:00Z`),
      productName: 'Kesar Mangoes',
      quantity: 2,
      unitPriceCents: 4049,
      deliveryCents: 1200,
      was: 3999,
      skipUrl: 'https://mangoshop.co.nz/api/season-box-mail/skip?token=sample-token',
      accountUrl: 'https://mangoshop.co.nz/account#season-box',
      siteName: 'Mango Shop',
    }),
  ],
  ['season-box-set-up', welcomeMail({ to: 'aroha@example.nz', firstName: 'Aroha', view: seasonBoxView, siteName: 'Mango Shop', accountUrl: 'https://mangoshop.co.nz/account#season-box' })],
  ['season-box-missed', missedMail({ to: 'aroha@example.nz', firstName: 'Aroha', date: delivery, productName: 'Kesar Mangoes', note: 'Not enough boxes this time: the harvest was short.', next: addDays(delivery, 14), siteName: 'Mango Shop', accountUrl: 'https://mangoshop.co.nz/account#season-box' })],
  [
    'season-box-card-declined',
    declinedMail({ to: 'aroha@example.nz', firstName: 'Aroha', date: delivery, orderNumber: 'MS-10050', totalCents: 9298, reason: 'Your card has insufficient funds.', payUrl: 'https://checkout.stripe.com/c/pay/cs_sample', payBy: new Date(`${addDays(delivery, -1)}T00:00:00Z`), paused: true, siteName: 'Mango Shop', accountUrl: 'https://mangoshop.co.nz/account#season-box' }),
  ],
];

async function shoot(page: Page, name: string, html: string) {
  await page.setContent(html);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: test.info().outputPath(`${name}-${scheme}-${width}.png`), fullPage: true });
    }
  }
}

test('every e-mail has an HTML part that says what its plain text says, readable at 390 px and in dark mode', async ({ page }) => {
  for (const [name, mail] of mails) {
    expect(mail.html, name).toBeTruthy();
    await shoot(page, name, mail.html!);
    // Nothing wider than a phone: no sideways scrolling at 390 px.
    await page.setViewportSize({ width: 390, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(390);
    const body = page.locator('body');
    await expect(body, name).toContainText('Kia ora');
    // Every address the plain text gives is a link in the HTML.
    for (const url of mail.text.match(/https?:\/\/\S+/g) ?? []) {
      await expect(page.locator(`a[href="${url}"]`).first(), `${name}: ${url}`).toBeAttached();
    }
  }
  await page.setContent(mails[0]![1].html!);
  for (const text of [`Delivery: `, '(rural delivery)', 'Rural delivery', '$5.00', '$174.47', 'MS-10042', '12-3456-7890123-00']) await expect(page.locator('body')).toContainText(text);
  // A gift: the recipient, and the message as it goes in the box, its line break kept.
  await page.setContent(mails[1]![1].html!);
  await expect(page.locator('body')).toContainText('A gift for Mere Ngata, delivering to:');
  await expect(page.getByText('Happy birthday, Mum!')).toHaveText('Happy birthday, Mum!\nThe first Alphonsos of the season, with love from Aroha.', { useInnerText: true });
  expect(mails[1]![1].text).toContain('Happy birthday, Mum!\nThe first Alphonsos');
  // Pickup: the day, hours and address, and the code, in the confirmation and when it is ready.
  for (const index of [2, 3]) {
    await page.setContent(mails[index]![1].html!);
    await expect(page.locator('body')).toContainText('24 Karaka Street, Mount Eden, Auckland 1024');
    await expect(page.locator('body')).toContainText('K7M4QX');
    await expect(page.locator('body')).not.toContainText('Delivering to');
  }
  expect(mails[3]![1].subject).toBe('Order MS-10042 is ready for pickup');
  await page.setContent(mails[5]![1].html!);
  await expect(page.getByRole('link', { name: 'Track your parcel' })).toHaveAttribute('href', 'https://www.nzpost.co.nz/tools/tracking/item/NZP123456789');
  await expect(page.locator('body')).toContainText('Tracking number: NZ Post NZP123456789');
  // The ripening guide: each variety's days, and the reminder with its opt-out.
  await expect(page.locator('body')).toContainText('Alphonso Mangoes: ready to eat around');
  await expect(page.locator('body')).toContainText('Kesar Mangoes: ready to eat when they arrive');
  await expect(page.getByRole('link', { name: 'No reminder, thanks' })).toHaveAttribute('href', ripeness.optOutUrl);
  // A cart in two deliveries: one transfer for both, and each order names the other.
  const mailNamed = (name: string) => mails.find(([one]) => one === name)![1];
  await page.setContent(mailNamed('order-confirmation-two-deliveries').html!);
  await expect(page.locator('body')).toContainText('please make one bank transfer, for this order and order MS-10043 together');
  await expect(page.locator('body')).toContainText('Your pre-order boxes follow as order MS-10043 ($69.99), sent when they arrive, at no extra delivery charge.');
  await expect(page.locator('body')).toContainText('$244.46');
  await page.setContent(mailNamed('order-confirmation-later-delivery').html!);
  await expect(page.locator('body')).toContainText('This order is paid for with order MS-10042: one payment covers both.');
  await expect(page.locator('body')).not.toContainText('How to pay');
  await page.setContent(mails[5]![1].html!);
  // In dark mode the card is dark and its words light.
  await page.emulateMedia({ colorScheme: 'dark' });
  const card = page.locator('.mail-card').first();
  expect(await card.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(41, 37, 36)');
});
