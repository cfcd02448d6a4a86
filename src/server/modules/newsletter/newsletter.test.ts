import { eq, sql } from 'drizzle-orm';
import type { StoredSettings } from '../../../contracts/settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, newsletterSubscribers } from '../../db/schema';
import { hashToken } from '../../lib/tokens';
import { as, createTestShop, signInAdmin, type TestShop } from '../../testing/test-app';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(async () => shop?.close());

const subscribe = (payload: unknown, remoteAddress = '198.51.100.1') =>
  shop.app.inject({ method: 'POST', url: '/api/newsletter', payload: payload as Record<string, unknown>, remoteAddress });
const unsubscribeUrl = (token: string) => `/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
/** What a browser, or a mail scanner checking links, does with the mailed link. */
const openLink = (token: string) => shop.app.inject({ method: 'GET', url: unsubscribeUrl(token) });
/** The RFC 8058 body: sent by mail providers' servers, and by the confirm page's own form. */
const oneClickBody = 'List-Unsubscribe=One-Click';
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
/** The confirm page's form as Chromium sends it: its no-referrer policy turns the Origin into "null". */
const pageFormHeaders = { ...formHeaders, origin: 'null', 'sec-fetch-site': 'same-origin' };
const unsubscribe = (token: string, headers: Record<string, string> = pageFormHeaders, payload = oneClickBody) =>
  shop.app.inject({ method: 'POST', url: unsubscribeUrl(token), headers, payload });
const rowsFor = (email: string) =>
  shop.database.db.select().from(newsletterSubscribers).where(eq(sql`lower(${newsletterSubscribers.email})`, email.toLowerCase()));
const mailsTo = async (email: string) => (await shop.mail()).filter((mail) => mail.to === email);
const unsubscribeToken = (text: string) => /\/api\/newsletter\/unsubscribe\?token=([\w-]+)/.exec(text)?.[1];
async function subscribedToken(email: string): Promise<string> {
  await subscribe({ email });
  const mails = await mailsTo(email);
  return unsubscribeToken(mails[mails.length - 1]!.text)!;
}

describe('POST /api/newsletter', () => {
  it('stores the subscriber and mails one welcome with an unsubscribe link, keeping only its hash', async () => {
    const response = await subscribe({ email: ' Kiri@Example.NZ ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Thank you for subscribing to our newsletter.' });

    const [row, ...others] = await rowsFor('kiri@example.nz');
    expect(others).toEqual([]);
    expect(row).toMatchObject({ email: 'kiri@example.nz', unsubscribedAt: null });

    const mails = await mailsTo('kiri@example.nz');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`${shop.config.publicUrl ?? `http://localhost:${shop.config.port}`}/api/newsletter/unsubscribe?token=`);
    const token = unsubscribeToken(mails[0]!.text)!;
    expect(row!.unsubscribeTokenHash).toBe(hashToken(token));
    expect(row!.unsubscribeTokenHash).not.toContain(token);
  });

  it('gives the welcome mail List-Unsubscribe headers for one-click unsubscribing in mail clients (RFC 8058)', async () => {
    await subscribe({ email: 'ngaio@example.nz' });
    const [mail] = await mailsTo('ngaio@example.nz');
    const link = /http\S+\/api\/newsletter\/unsubscribe\?token=[\w-]+/.exec(mail!.text)![0];
    expect(mail!.headers).toEqual({ 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });

  it('keeps no unsubscribe link in the outbox once the welcome mail is sent', async () => {
    const token = await subscribedToken('mereana@example.nz');
    const [row] = await shop.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'mereana@example.nz'));
    expect(row).toMatchObject({ subject: 'Welcome to the Mango Shop newsletter', textBody: '', htmlBody: null, headers: {} });
    expect(row!.sentAt).not.toBeNull();
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('answers an address already subscribed, in any case, exactly the same, without a second row or mail', async () => {
    const first = await subscribe({ email: 'wiremu@example.nz' });
    const again = await subscribe({ email: 'WIREMU@Example.nz' });
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.json()).toEqual(first.json());
    expect(await rowsFor('wiremu@example.nz')).toHaveLength(1);
    expect(await mailsTo('wiremu@example.nz')).toHaveLength(1);
  });

  it.each([
    ['not-an-email', 'Please enter a valid email address'],
    ['two words@example.nz', 'Please enter a valid email address'],
    ['', 'Email address is required'],
    ['   ', 'Email address is required'],
  ])('rejects %j with the spec message', async (email, message) => {
    const response = await subscribe({ email });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.email).toBe(message);
  });

  it('rejects a missing e-mail and unknown fields', async () => {
    const missing = await subscribe({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors.email).toBe('Email address is required');
    const extra = await subscribe({ email: 'extra@example.nz', source: 'footer' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().fieldErrors.source).toBe('Unknown field: source');
    expect(await rowsFor('extra@example.nz')).toHaveLength(0);
  });

  it('stops a flood from one network with 429 and a readable message', async () => {
    for (let i = 0; i < 20; i += 1) {
      expect((await subscribe({ email: `flood${i}@example.nz` }, '203.0.113.9')).statusCode).toBe(200);
    }
    const blocked = await subscribe({ email: 'flood-last@example.nz' }, '203.0.113.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many newsletter sign-ups/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(await rowsFor('flood-last@example.nz')).toHaveLength(0);
    expect((await subscribe({ email: 'neighbour@example.nz' }, '203.0.113.10')).statusCode).toBe(200);
  });
});

describe('GET /api/newsletter/unsubscribe', () => {
  it('answers a page asking to confirm, with a form posting back to the link, and unsubscribes nobody', async () => {
    const token = await subscribedToken('hana@example.nz');

    // A mail scanner opening every link first must not take anyone off the list.
    expect((await openLink(token)).statusCode).toBe(200);
    const response = await openLink(token);
    const [row] = await rowsFor('hana@example.nz');
    expect(row!.unsubscribedAt).toBeNull();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.body).toContain('<h1>Leave the newsletter?</h1>');
    expect(response.body).toContain(`<form method="post" action="${unsubscribeUrl(token)}">`);
    expect(response.body).toContain('<input type="hidden" name="List-Unsubscribe" value="One-Click">');
    expect(response.body).toContain('<button type="submit">Unsubscribe</button>');
    expect(response.body).not.toContain('<script');
  });

  it('answers the unsubscribed page once the address has left the list', async () => {
    const token = await subscribedToken('moana@example.nz');
    expect((await unsubscribe(token)).statusCode).toBe(200);
    const response = await openLink(token);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('You have been unsubscribed from the Mango Shop newsletter.');
    expect(response.body).not.toContain('<form');
  });
});

describe('POST /api/newsletter/unsubscribe', () => {
  it("unsubscribes with the confirm page's form and answers a friendly page, also when sent twice", async () => {
    const token = await subscribedToken('aperahama@example.nz');

    const response = await unsubscribe(token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.body).toContain('<h1>Unsubscribed</h1>');
    expect(response.body).toContain('You have been unsubscribed from the Mango Shop newsletter.');
    const [row] = await rowsFor('aperahama@example.nz');
    expect(row!.unsubscribedAt).toBeInstanceOf(Date);

    const again = await unsubscribe(token, { ...formHeaders, origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' });
    expect(again.statusCode).toBe(200);
    const [unchanged] = await rowsFor('aperahama@example.nz');
    expect(unchanged!.unsubscribedAt).toEqual(row!.unsubscribedAt);
  });

  it.each([
    ['form encoded', formHeaders, oneClickBody],
    [
      'as multipart/form-data',
      { 'content-type': 'multipart/form-data; boundary=one-click' },
      '--one-click\r\ncontent-disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--one-click--\r\n',
    ],
  ])("takes a mail provider's RFC 8058 one-click post %s, sent with no Origin", async (_case, headers, payload) => {
    const email = `one-click-${headers['content-type'].slice(0, 9)}@example.nz`;
    const token = await subscribedToken(email);
    const response = await unsubscribe(token, headers, payload);
    expect(response.statusCode).toBe(200);
    const [row] = await rowsFor(email);
    expect(row!.unsubscribedAt).toBeInstanceOf(Date);
  });

  it("takes a post from another site too: the link's token, not the origin, is the authority", async () => {
    const token = await subscribedToken('rawiri@example.nz');
    const response = await unsubscribe(token, { ...formHeaders, origin: 'https://webmail.example', 'sec-fetch-site': 'cross-site' });
    expect(response.statusCode).toBe(200);
    const [row] = await rowsFor('rawiri@example.nz');
    expect(row!.unsubscribedAt).toBeInstanceOf(Date);
  });

  it('stays open during maintenance, so nobody is kept on the list', async () => {
    const token = await subscribedToken('mere@example.nz');
    const staff = as(shop.app, (await signInAdmin(shop)).cookie);
    const settings = (await staff({ method: 'GET', url: '/api/admin/settings' })).json<StoredSettings>();
    const setMaintenance = async (enabled: boolean) =>
      expect((await staff({ method: 'PUT', url: '/api/admin/settings', payload: { ...settings, maintenance: { enabled, message: 'Back soon.' } } })).statusCode).toBe(200);
    await setMaintenance(true);
    try {
      expect((await subscribe({ email: 'during-maintenance@example.nz' })).statusCode).toBe(503);
      expect((await unsubscribe(token)).statusCode).toBe(200);
      expect((await unsubscribe(token, formHeaders)).statusCode).toBe(200);
    } finally {
      await setMaintenance(false);
    }
    const [row] = await rowsFor('mere@example.nz');
    expect(row!.unsubscribedAt).toBeInstanceOf(Date);
  });

  it('is the only route taking form posts: signing up stays JSON only', async () => {
    const form = await shop.app.inject({ method: 'POST', url: '/api/newsletter', headers: formHeaders, payload: 'email=form%40example.nz' });
    expect(form.statusCode).toBe(415);
    const text = await shop.app.inject({ method: 'POST', url: unsubscribeUrl('y'.repeat(43)), headers: { 'content-type': 'text/plain' }, payload: oneClickBody });
    expect(text.statusCode).toBe(415);
    expect(await rowsFor('form@example.nz')).toHaveLength(0);
  });

  it('re-subscribes a returning address with a fresh token; the old link no longer works', async () => {
    await subscribe({ email: 'tama@example.nz' });
    const oldToken = unsubscribeToken((await mailsTo('tama@example.nz'))[0]!.text)!;
    await unsubscribe(oldToken);

    const back = await subscribe({ email: 'Tama@example.nz' });
    expect(back.statusCode).toBe(200);
    const [row, ...others] = await rowsFor('tama@example.nz');
    expect(others).toEqual([]);
    expect(row!.unsubscribedAt).toBeNull();
    const mails = await mailsTo('tama@example.nz');
    expect(mails).toHaveLength(2);
    const newToken = unsubscribeToken(mails[1]!.text)!;
    expect(newToken).not.toBe(oldToken);
    expect(row!.unsubscribeTokenHash).toBe(hashToken(newToken));
    expect((await openLink(oldToken)).statusCode).toBe(404);
    expect((await unsubscribe(oldToken)).statusCode).toBe(404);
    const [still] = await rowsFor('tama@example.nz');
    expect(still!.unsubscribedAt).toBeNull();
  });
});

describe('an invalid unsubscribe link', () => {
  it.each([
    ['an unknown token', `/api/newsletter/unsubscribe?token=${'x'.repeat(43)}`],
    ['a too short token', '/api/newsletter/unsubscribe?token=abc'],
    ['no token', '/api/newsletter/unsubscribe'],
    ['a repeated token', '/api/newsletter/unsubscribe?token=a&token=b'],
  ])('answers %s with a 404 page saying the link is invalid, never JSON, to GET and POST', async (_case, url) => {
    for (const method of ['GET', 'POST'] as const) {
      const response = await shop.app.inject({ method, url, headers: formHeaders, payload: method === 'POST' ? oneClickBody : undefined });
      expect(response.statusCode, method).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('This unsubscribe link is invalid');
    }
  });
});
