import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlacedOrder } from '../../../contracts/order';
import type { Product } from '../../../contracts/product';
import type { WaitlistCount, WaitlistEntryView, WaitlistJoinAnswer } from '../../../contracts/waitlist';
import { openPostgres, queryRows } from '../../db/client';
import type { MailMessage } from '../../lib/mail';
import { quickShopper, testProduct } from '../../testing/order-helpers';
import { as, createTestShop, sessionCookie, shopperDefaults, signInAdmin, type StaffCall, type TestShop } from '../../testing/test-app';
import { WaitlistService } from './service';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => {
  shop = await createTestShop();
  staff = as(shop.app, (await signInAdmin(shop)).cookie);
});
afterAll(async () => shop?.close());

let addresses = 0;
/** A fresh visitor's address and network, so one test's rate limits never touch another's. */
function visitor() {
  addresses += 1;
  return { email: `visitor${addresses}@example.nz`, ip: `10.9.${Math.floor(addresses / 250)}.${addresses % 250}` };
}

const join = (payload: Record<string, unknown>, remoteAddress = '10.0.0.1') => shop.app.inject({ method: 'POST', url: '/api/waitlist', payload, remoteAddress });
const soldOut = (values: Parameters<typeof testProduct>[1] = {}) => testProduct(shop, { stock: 0, ...values });

async function mailSince(count: number): Promise<MailMessage[]> {
  return (await shop.mail()).slice(count);
}

/** The path (with its token) of the first link to `route` in a mail. */
function linkIn(mail: MailMessage, route: string): string {
  const found = mail.text.match(new RegExp(`http://localhost:\\d+(${route}\\?token=[\\w%-]+)`));
  if (!found) throw new Error(`no ${route} link in: ${mail.text}`);
  return found[1]!;
}

/** A visitor signs up and confirms through the mailed link. */
async function confirmedVisitor(productId: number) {
  const who = visitor();
  const before = (await shop.mail()).length;
  expect((await join({ productId, email: who.email }, who.ip)).statusCode).toBe(200);
  const [mail] = await mailSince(before);
  const confirmed = await shop.app.inject({ method: 'POST', url: `${linkIn(mail!, '/api/waitlist/manage')}&action=confirm` });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return who;
}

async function entriesOf(productId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(shop.database.db, sql`select count(*)::int as n from waitlist_entries where product_id = ${productId}`);
  return Number(row!.n);
}

async function setStock(productId: number, stock: number) {
  await shop.database.db.execute(sql`update products set stock = ${stock} where id = ${productId}`);
  await shop.app.services.bus.publish('products');
}

describe('a signed-in shopper', () => {
  it('gets a link to leave by when the address joins again signed out, as the entry had none', async () => {
    const product = await soldOut({ name: 'Waitlist Totapuri' });
    const shopper = await quickShopper(shop, 'nolink', { emailProven: true });
    expect((await shopper.call({ method: 'POST', url: '/api/waitlist', payload: { productId: product.id } })).statusCode).toBe(200);
    const before = (await shop.mail()).length;
    expect((await join({ productId: product.id, email: shopper.user.email }, '10.0.9.1')).statusCode).toBe(200);
    const [reminder, ...more] = await mailSince(before);
    expect(more).toEqual([]);
    expect(reminder!.subject).toBe('You are already on the waitlist for Waitlist Totapuri');
    const leave = await shop.app.inject({ method: 'POST', url: `${linkIn(reminder!, '/api/waitlist/manage')}&action=leave` });
    expect(leave.body).toContain('You have left the waitlist');
    expect((await shopper.call({ method: 'GET', url: '/api/account/waitlist' })).json()).toEqual([]);
  });

  it('joins with one click, hears when already on the list, sees the entry on the account and can leave it', async () => {
    const product = await soldOut({ name: 'Waitlist Kesar' });
    const shopper = await quickShopper(shop, 'wait', { emailProven: true });
    const first = await shopper.call({ method: 'POST', url: '/api/waitlist', payload: { productId: product.id } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<WaitlistJoinAnswer>()).toEqual({ state: 'subscribed', message: 'You are on the waitlist for Waitlist Kesar. We will e-mail you when it is back.' });
    const again = await shopper.call({ method: 'POST', url: '/api/waitlist', payload: { productId: product.id } });
    expect(again.json<WaitlistJoinAnswer>().state).toBe('already subscribed');

    const list = (await shopper.call({ method: 'GET', url: '/api/account/waitlist' })).json<WaitlistEntryView[]>();
    expect(list).toEqual([{ id: expect.any(Number), productId: product.id, productName: 'Waitlist Kesar', joinedAt: expect.any(String) }]);
    // Nobody else can leave it for them.
    const other = await quickShopper(shop, 'other');
    expect((await other.call({ method: 'DELETE', url: `/api/account/waitlist/${list[0]!.id}` })).statusCode).toBe(404);
    expect((await shopper.call({ method: 'DELETE', url: `/api/account/waitlist/${list[0]!.id}` })).statusCode).toBe(204);
    expect((await shopper.call({ method: 'DELETE', url: `/api/account/waitlist/${list[0]!.id}` })).statusCode).toBe(404);
    expect((await shopper.call({ method: 'GET', url: '/api/account/waitlist' })).json()).toEqual([]);
    // Leaving is not for ever: the next click joins again.
    expect((await shopper.call({ method: 'POST', url: '/api/waitlist', payload: { productId: product.id } })).json<WaitlistJoinAnswer>().state).toBe('subscribed');
  });

  it('joins once when two clicks arrive together', async () => {
    const product = await soldOut();
    const shopper = await quickShopper(shop, 'twice', { emailProven: true });
    const answers = await Promise.all([1, 2].map(() => shopper.call({ method: 'POST', url: '/api/waitlist', payload: { productId: product.id } })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(await entriesOf(product.id)).toBe(1);
  });
});

describe('an account whose address was never proven', () => {
  it('cannot see, take over or cancel the confirmed sign-up of the address it registered with', async () => {
    const product = await soldOut({ name: 'Waitlist Himsagar' });
    const owner = await confirmedVisitor(product.id);
    const [entry] = await queryRows<{ id: number }>(shop.database.db, sql`select id from waitlist_entries where product_id = ${product.id}`);
    // Anyone can register with any address: this account has never opened a mail sent to it.
    const registered = await shop.app.inject({ method: 'POST', url: '/api/register', payload: { ...shopperDefaults, username: 'borrowed', email: owner.email } });
    expect(registered.statusCode, registered.body).toBe(201);
    const impostor = as(shop.app, sessionCookie(await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email: owner.email, password: shopperDefaults.password } })));
    const before = (await shop.mail()).length;
    const joined = await impostor({ method: 'POST', url: '/api/waitlist', payload: { productId: product.id } });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json<WaitlistJoinAnswer>().state).toBe('confirm by e-mail');
    // The address's owner hears of it; the account learns nothing and holds nothing.
    expect((await mailSince(before)).map((mail) => [mail.to, mail.subject])).toEqual([[owner.email, 'You are already on the waitlist for Waitlist Himsagar']]);
    expect((await impostor({ method: 'GET', url: '/api/account/waitlist' })).json()).toEqual([]);
    expect((await impostor({ method: 'DELETE', url: `/api/account/waitlist/${entry!.id}` })).statusCode).toBe(404);
    const [still] = await queryRows<{ user_id: number | null; confirmed: boolean; cancelled: boolean }>(
      shop.database.db,
      sql`select user_id, confirmed_at is not null as confirmed, cancelled_at is not null as cancelled from waitlist_entries where id = ${entry!.id}`,
    );
    expect(still).toEqual({ user_id: null, confirmed: true, cancelled: false });
  });

  it("is not proven when the address's owner confirms a sign-up the account started: the owner is not signed in to it", async () => {
    const [first, second] = [await soldOut({ name: 'Waitlist Dasheri' }), await soldOut({ name: 'Waitlist Chaunsa' })];
    const owner = visitor();
    const registered = await shop.app.inject({ method: 'POST', url: '/api/register', payload: { ...shopperDefaults, username: 'squatter', email: owner.email } });
    expect(registered.statusCode, registered.body).toBe(201);
    const impostor = as(shop.app, sessionCookie(await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email: owner.email, password: shopperDefaults.password } })));
    const before = (await shop.mail()).length;
    expect((await impostor({ method: 'POST', url: '/api/waitlist', payload: { productId: first.id } })).json<WaitlistJoinAnswer>().state).toBe('confirm by e-mail');
    // The owner, who wants the mangoes, opens the link in their own browser.
    const [mail] = await mailSince(before);
    expect((await shop.app.inject({ method: 'POST', url: `${linkIn(mail!, '/api/waitlist/manage')}&action=confirm` })).statusCode).toBe(200);
    // The owner is on the list; the account is not proven by it, and sees and changes nothing.
    expect((await impostor({ method: 'GET', url: '/api/account/waitlist' })).json()).toEqual([]);
    const [entry] = await queryRows<{ id: number; user_id: number | null }>(shop.database.db, sql`select id, user_id from waitlist_entries where product_id = ${first.id}`);
    expect(entry!.user_id).toBeNull();
    expect((await impostor({ method: 'DELETE', url: `/api/account/waitlist/${entry!.id}` })).statusCode).toBe(404);
    expect((await impostor({ method: 'POST', url: '/api/waitlist', payload: { productId: second.id } })).json<WaitlistJoinAnswer>().state).toBe('confirm by e-mail');
  });

  it('confirms its first sign-up by the mailed link opened signed in, which proves the address: later ones take one click', async () => {
    const [first, second] = [await soldOut({ name: 'Waitlist Totapuri' }), await soldOut({ name: 'Waitlist Neelam' })];
    const shopper = await quickShopper(shop, 'unproven');
    const before = (await shop.mail()).length;
    const joined = await shopper.call({ method: 'POST', url: '/api/waitlist', payload: { productId: first.id } });
    expect(joined.json<WaitlistJoinAnswer>()).toEqual({
      state: 'confirm by e-mail',
      message: `Almost there: we have sent a link to ${shopper.user.email}. Open it to confirm your place on the waitlist for Waitlist Totapuri.`,
    });
    const [mail, ...rest] = await mailSince(before);
    expect(rest).toEqual([]);
    expect(mail!.to).toBe(shopper.user.email);
    // Not on the list until the link is opened: nothing shows, nothing would be mailed.
    expect((await shopper.call({ method: 'GET', url: '/api/account/waitlist' })).json()).toEqual([]);
    const confirmed = await shopper.call({ method: 'POST', url: `${linkIn(mail!, '/api/waitlist/manage')}&action=confirm` });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await shopper.call({ method: 'GET', url: '/api/account/waitlist' })).json<WaitlistEntryView[]>().map((entry) => entry.productName)).toEqual(['Waitlist Totapuri']);
    const next = await shopper.call({ method: 'POST', url: '/api/waitlist', payload: { productId: second.id } });
    expect(next.json<WaitlistJoinAnswer>().state).toBe('subscribed');
    expect(await mailSince(before + 1)).toEqual([]);
  });

  it('is proven by a password reset link too', async () => {
    const product = await soldOut({ name: 'Waitlist Banganapalli' });
    const registered = await shop.app.inject({ method: 'POST', url: '/api/register', payload: { ...shopperDefaults, username: 'resetter', email: 'resetter@example.nz' } });
    expect(registered.statusCode, registered.body).toBe(201);
    const before = (await shop.mail()).length;
    expect((await shop.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: 'resetter@example.nz' }, remoteAddress: '10.77.0.1' })).statusCode).toBe(200);
    const [resetMail] = await mailSince(before);
    const token = /token=([\w-]+)/.exec(resetMail!.text)![1]!;
    const reset = await shop.app.inject({ method: 'POST', url: '/api/reset-password', payload: { token, password: 'a-new-kumara-77' }, remoteAddress: '10.77.0.1' });
    expect(reset.statusCode, reset.body).toBeLessThan(300);
    const login = await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'resetter@example.nz', password: 'a-new-kumara-77' } });
    const joined = await as(shop.app, sessionCookie(login))({ method: 'POST', url: '/api/waitlist', payload: { productId: product.id } });
    expect(joined.json<WaitlistJoinAnswer>().state).toBe('subscribed');
  });
});

describe('what can be waited for', () => {
  it('refuses a product that can be bought, an unknown or hidden one, and bad input, with field messages', async () => {
    const inStock = await testProduct(shop, { name: 'Waitlist Plenty', stock: 4 });
    const hidden = await soldOut({ isHidden: true });
    const who = visitor();
    const buyable = await join({ productId: inStock.id, email: who.email }, who.ip);
    expect(buyable.statusCode).toBe(409);
    expect(buyable.json()).toMatchObject({ fieldErrors: { productId: 'Waitlist Plenty can be bought now: add it to your cart.' } });
    expect((await join({ productId: hidden.id, email: who.email }, who.ip)).statusCode).toBe(404);
    expect((await join({ productId: 999_999, email: who.email }, who.ip)).statusCode).toBe(404);

    const product = await soldOut();
    const noAddress = await join({ productId: product.id }, who.ip);
    expect(noAddress.statusCode).toBe(400);
    expect(noAddress.json()).toMatchObject({ fieldErrors: { email: 'Email address is required' } });
    const badAddress = await join({ productId: product.id, email: 'not-an-address' }, who.ip);
    expect(badAddress.json()).toMatchObject({ fieldErrors: { email: 'Please enter a valid email address' } });
    expect((await join({ productId: 'one', email: who.email }, who.ip)).json()).toMatchObject({ fieldErrors: { productId: 'Choose a product' } });
    expect((await join({ productId: product.id, email: who.email, admin: true }, who.ip)).statusCode).toBe(400);
    expect(await entriesOf(product.id)).toBe(0);
  });

  it('offers a pre-order product only while its pre-orders are full, and says so on the product', async () => {
    const product = await testProduct(shop, { name: 'Waitlist Pairi', stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-06-01', preOrderLimit: 2 });
    const who = visitor();
    expect((await join({ productId: product.id, email: who.email }, who.ip)).statusCode).toBe(409);
    const buyer = await quickShopper(shop, 'full');
    await buyer.add(product.id, 2);
    expect((await buyer.order()).statusCode).toBe(201);
    const shown = (await shop.app.inject({ method: 'GET', url: `/api/products/${product.id}` })).json<Product>();
    expect(shown.preOrdersFull).toBe(true);
    expect((await join({ productId: product.id, email: who.email }, who.ip)).statusCode).toBe(200);
  });
});

describe('a visitor', () => {
  it('is on the list only after confirming the mailed link, which a mail scanner opening it cannot do', async () => {
    const product = await soldOut({ name: 'Waitlist Langra' });
    const who = visitor();
    const before = (await shop.mail()).length;
    const answer = await join({ productId: product.id, email: who.email.toUpperCase() }, who.ip);
    expect(answer.json<WaitlistJoinAnswer>()).toEqual({
      state: 'confirm by e-mail',
      message: `Almost there: we have sent a link to ${who.email}. Open it to confirm your place on the waitlist for Waitlist Langra.`,
    });
    const [mail, ...rest] = await mailSince(before);
    expect(rest).toEqual([]);
    expect(mail!.to).toBe(who.email);
    expect(mail!.subject).toBe('Confirm: tell me when Waitlist Langra is back');
    const link = linkIn(mail!, '/api/waitlist/manage');

    // Opening the link (as a scanner does) only shows the button.
    const page = await shop.app.inject({ method: 'GET', url: link });
    expect(page.statusCode).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).toContain('Confirm your place');
    expect(page.body).toContain('action=confirm');
    const counts = async () => (await staff({ method: 'GET', url: '/api/admin/waitlists' })).json<WaitlistCount[]>().find((c) => c.productId === product.id);
    expect(await counts()).toMatchObject({ waiting: 0, unconfirmed: 1, notified: 0 });
    // Stock back before the confirm: nobody unconfirmed is mailed.
    await setStock(product.id, 3);
    expect(await shop.app.services.waitlist.notifyAvailable()).toBe(0);
    await setStock(product.id, 0);

    const confirmed = await shop.app.inject({ method: 'POST', url: `${link}&action=confirm`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain("You're on the waitlist");
    expect(await counts()).toMatchObject({ waiting: 1, unconfirmed: 0 });

    // Signing up again mails the owner of the address a reminder, and tells the form nothing new.
    const again = await join({ productId: product.id, email: who.email }, who.ip);
    expect(again.json<WaitlistJoinAnswer>().state).toBe('confirm by e-mail');
    const [note, ...more] = await mailSince(before + 1);
    expect(note!.subject).toBe('You are already on the waitlist for Waitlist Langra');
    expect(more).toEqual([]);
    // The reminder carries no new link: the one they have keeps working.
    expect(note!.text).not.toContain('/api/waitlist/manage');
    expect(note!.text).toContain('The link in our latest e-mail about this waitlist still takes you off it');
    // Another sign-up the same day: no more mail, and the first link still works.
    expect((await join({ productId: product.id, email: who.email }, who.ip)).statusCode).toBe(200);
    expect(await mailSince(before + 2)).toEqual([]);
    expect((await shop.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
    // A day later, one more reminder.
    await shop.database.db.execute(sql`update waitlist_entries set reminded_at = reminded_at - interval '25 hours' where product_id = ${product.id}`);
    await shop.database.db.execute(sql`delete from rate_limits where key = ${`waitlist:email:${who.email}`}`);
    expect((await join({ productId: product.id, email: who.email }, who.ip)).statusCode).toBe(200);
    expect((await mailSince(before + 2)).map((mail) => mail.subject)).toEqual(['You are already on the waitlist for Waitlist Langra']);
    // The first link manages the entry: leaving takes it off.
    const leave = await shop.app.inject({ method: 'POST', url: `${link}&action=leave` });
    expect(leave.body).toContain('You have left the waitlist');
    expect(await counts()).toMatchObject({ waiting: 0 });
  });

  it('has a week to confirm; then the link fails and housekeeping forgets the address', async () => {
    const product = await soldOut();
    const who = visitor();
    const before = (await shop.mail()).length;
    await join({ productId: product.id, email: who.email }, who.ip);
    const link = linkIn((await mailSince(before))[0]!, '/api/waitlist/manage');
    await shop.database.db.execute(sql`update waitlist_entries set manage_token_sent_at = now() - interval '8 days' where product_id = ${product.id}`);
    const late = await shop.app.inject({ method: 'POST', url: `${link}&action=confirm` });
    expect(late.statusCode).toBe(404);
    expect(late.body).toContain('Link not valid');
    await shop.app.services.waitlist.purgeUnconfirmed();
    expect(await entriesOf(product.id)).toBe(0);
  });

  it('is limited per address and per network, counted before any mail', async () => {
    const products = await Promise.all([1, 2, 3, 4].map(() => soldOut()));
    const who = visitor();
    const before = (await shop.mail()).length;
    const perAddress = await Promise.all(products.map((p, i) => join({ productId: p.id, email: who.email }, `10.8.0.${i + 1}`)));
    expect(perAddress.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 429]);
    expect(perAddress.find((r) => r.statusCode === 429)!.json()).toMatchObject({ message: expect.stringContaining('several e-mails to this address') });
    expect(await mailSince(before)).toHaveLength(3);

    const network = '10.7.7.7';
    const many = await Promise.all(Array.from({ length: 22 }, (_, i) => join({ productId: products[0]!.id, email: `crowd${i}@example.nz` }, network)));
    expect(many.filter((r) => r.statusCode === 200)).toHaveLength(20);
    expect(many.filter((r) => r.statusCode === 429)).toHaveLength(2);
  });
});

describe('when the product is back', () => {
  it('mails each confirmed entry once, in the order they joined, with a one-click unsubscribe that leaves every list', async () => {
    const product = await soldOut({ name: 'Waitlist Alphonso' });
    const other = await soldOut({ name: 'Waitlist Chausa' });
    const first = await confirmedVisitor(product.id);
    const shopper = await quickShopper(shop, 'back', { emailProven: true });
    await shopper.call({ method: 'POST', url: '/api/waitlist', payload: { productId: product.id } });
    const third = await confirmedVisitor(product.id);
    // An address that never confirmed is not mailed.
    const unconfirmed = visitor();
    await join({ productId: product.id, email: unconfirmed.email }, unconfirmed.ip);
    // The first visitor waits for another product as well.
    const firstIp = visitor().ip;
    const before = (await shop.mail()).length;
    await join({ productId: other.id, email: first.email }, firstIp);
    const [otherMail] = await mailSince(before);
    await shop.app.inject({ method: 'POST', url: `${linkIn(otherMail!, '/api/waitlist/manage')}&action=confirm` });

    const queuedBefore = (await shop.mail()).length;
    expect(await shop.app.services.waitlist.notifyAvailable()).toBe(0);
    // Staff put 6 boxes back on sale through Inventory.
    const adjusted = await staff({ method: 'POST', url: `/api/admin/inventory/${product.id}/adjustments`, payload: { change: 6, reason: 'received', note: 'New crates' } });
    expect(adjusted.statusCode, adjusted.body).toBe(200);
    expect(await shop.app.services.waitlist.notifyAvailable()).toBe(3);
    expect(await shop.app.services.waitlist.notifyAvailable()).toBe(0);
    const sent = await mailSince(queuedBefore);
    expect(sent.map((m) => m.to)).toEqual([first.email, shopper.user.email, third.email]);
    expect(sent.every((m) => m.subject === 'Waitlist Alphonso is back at Mango Shop')).toBe(true);
    expect(sent[0]!.text).toContain(`/product/${product.id}`);
    const unsubscribeHeader = sent[0]!.headers?.['List-Unsubscribe'];
    expect(unsubscribeHeader).toMatch(/^<http:\/\/localhost:\d+\/api\/waitlist\/unsubscribe\?token=/);
    expect(sent[0]!.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

    // Used once: the shopper's account no longer lists it, and the next restock mails nobody.
    expect((await shopper.call({ method: 'GET', url: '/api/account/waitlist' })).json()).toEqual([]);
    await setStock(product.id, 0);
    await setStock(product.id, 2);
    expect(await shop.app.services.waitlist.notifyAvailable()).toBe(0);

    // A mail client's one-click post takes the first visitor off the other list too.
    const oneClick = linkIn(sent[0]!, '/api/waitlist/unsubscribe');
    const asked = await shop.app.inject({ method: 'GET', url: oneClick });
    expect(asked.body).toContain('Leave every waitlist?');
    const done = await shop.app.inject({ method: 'POST', url: oneClick, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Unsubscribed');
    const counts = (await staff({ method: 'GET', url: '/api/admin/waitlists' })).json<WaitlistCount[]>();
    expect(counts.find((c) => c.productId === other.id)).toMatchObject({ waiting: 0 });
    expect(counts.find((c) => c.productId === product.id)).toMatchObject({ waiting: 0, unconfirmed: 1, notified: 3 });
    expect((await shop.app.inject({ method: 'POST', url: '/api/waitlist/unsubscribe?token=not-a-real-token-at-all-xx' })).statusCode).toBe(404);
  });

  it('mails a full pre-order product\'s list when a cancelled pre-order frees room', async () => {
    const product = await testProduct(shop, { name: 'Waitlist Dasheri', stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-06-01', preOrderLimit: 1 });
    const buyer = await quickShopper(shop, 'holder');
    await buyer.add(product.id, 1);
    const placed = (await buyer.order()).json<PlacedOrder>();
    const who = await confirmedVisitor(product.id);
    expect(await shop.app.services.waitlist.notifyAvailable()).toBe(0);
    const before = (await shop.mail()).length;
    const cancelled = await buyer.call({ method: 'POST', url: `/api/orders/${placed.order.number}/cancel` });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await shop.app.inject({ method: 'GET', url: `/api/products/${product.id}` })).json<Product>().preOrdersFull).toBe(false);
    expect(await shop.app.services.waitlist.notifyAvailable()).toBe(1);
    const mails = (await mailSince(before)).filter((m) => m.to === who.email);
    expect(mails.map((m) => m.subject)).toEqual(['Pre-orders for Waitlist Dasheri are open']);
  });

  it('sends each mail once when two server processes sweep at the same moment', async () => {
    const product = await soldOut({ name: 'Waitlist Race' });
    const waiting = 30;
    const shoppers = await Promise.all(Array.from({ length: waiting }, () => quickShopper(shop, 'race', { emailProven: true })));
    for (const shopper of shoppers) await shopper.call({ method: 'POST', url: '/api/waitlist', payload: { productId: product.id } });
    await setStock(product.id, 5);
    // A second process: its own connections to the same database where there is a server.
    const second = shop.databaseUrl ? await openPostgres(shop.databaseUrl, { poolSize: 4 }) : shop.database;
    try {
      const other = new WaitlistService({ db: second.db, limiter: shop.app.services.limiter, catalog: shop.app.services.catalog, publicUrl: 'http://localhost:3000', clock: () => new Date() });
      const before = (await shop.mail()).length;
      const queued = await Promise.all([shop.app.services.waitlist.notifyAvailable(), other.notifyAvailable(), shop.app.services.waitlist.notifyAvailable(), other.notifyAvailable()]);
      // A sweep that finds another at work leaves the list to it; the next sweep finds nothing left.
      const again = await Promise.all([shop.app.services.waitlist.notifyAvailable(), other.notifyAvailable()]);
      expect(queued.reduce((a, b) => a + b, 0) + again.reduce((a, b) => a + b, 0)).toBe(waiting);
      const sent = (await mailSince(before)).filter((m) => m.subject === 'Waitlist Race is back at Mango Shop');
      expect(sent).toHaveLength(waiting);
      expect(new Set(sent.map((m) => m.to)).size).toBe(waiting);
      expect(sent.map((m) => m.to)).toEqual(shoppers.map((s) => s.user.email));
    } finally {
      if (second !== shop.database) await second.close();
    }
  });
});

describe('staff', () => {
  it('see the demand per product and export a product\'s list as CSV, safe for spreadsheets', async () => {
    const product = await soldOut({ name: 'Waitlist Export' });
    const shopper = await quickShopper(shop, 'export', { emailProven: true });
    await shop.database.db.execute(sql`update users set first_name = '=cmd()', last_name = 'Ngata' where id = ${shopper.user.id}`);
    await shopper.call({ method: 'POST', url: '/api/waitlist', payload: { productId: product.id } });
    const who = await confirmedVisitor(product.id);

    const visitorCall = await quickShopper(shop, 'nosy');
    expect((await visitorCall.call({ method: 'GET', url: '/api/admin/waitlists' })).statusCode).toBe(403);
    expect((await shop.app.inject({ method: 'GET', url: `/api/admin/waitlists/${product.id}.csv` })).statusCode).toBe(401);

    const counts = (await staff({ method: 'GET', url: '/api/admin/waitlists' })).json<WaitlistCount[]>();
    expect(counts.find((c) => c.productId === product.id)).toEqual({ productId: product.id, productName: 'Waitlist Export', waiting: 2, unconfirmed: 0, notified: 0 });
    const csv = await staff({ method: 'GET', url: `/api/admin/waitlists/${product.id}.csv` });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="waitlist-product-${product.id}.csv"`);
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Joined,Email,Customer,Status,Emailed');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`,${shopper.user.email},'=cmd() Ngata,Waiting,`);
    expect(lines[2]).toContain(`,${who.email},,Waiting,`);
  });
});
