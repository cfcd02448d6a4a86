import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsletterSubscribers } from '../../db/schema';
import { hashToken } from '../../lib/tokens';
import { createTestShop, type TestShop } from '../../testing/test-app';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(async () => shop?.close());

const subscribe = (payload: unknown, remoteAddress = '198.51.100.1') =>
  shop.app.inject({ method: 'POST', url: '/api/newsletter', payload: payload as Record<string, unknown>, remoteAddress });
const unsubscribe = (token: string) => shop.app.inject({ method: 'GET', url: `/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}` });
const rowsFor = (email: string) =>
  shop.database.db.select().from(newsletterSubscribers).where(eq(sql`lower(${newsletterSubscribers.email})`, email.toLowerCase()));
const mailsTo = (email: string) => shop.mailer.sent.filter((mail) => mail.to === email);
const unsubscribeToken = (text: string) => /\/api\/newsletter\/unsubscribe\?token=([\w-]+)/.exec(text)?.[1];

describe('POST /api/newsletter', () => {
  it('stores the subscriber and mails one welcome with an unsubscribe link, keeping only its hash', async () => {
    const response = await subscribe({ email: ' Kiri@Example.NZ ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Thank you for subscribing to our newsletter.' });

    const [row, ...others] = await rowsFor('kiri@example.nz');
    expect(others).toEqual([]);
    expect(row).toMatchObject({ email: 'kiri@example.nz', unsubscribedAt: null });

    const mails = mailsTo('kiri@example.nz');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`${shop.config.publicUrl ?? `http://localhost:${shop.config.port}`}/api/newsletter/unsubscribe?token=`);
    const token = unsubscribeToken(mails[0]!.text)!;
    expect(row!.unsubscribeTokenHash).toBe(hashToken(token));
    expect(row!.unsubscribeTokenHash).not.toContain(token);
  });

  it('answers an address already subscribed, in any case, exactly the same, without a second row or mail', async () => {
    const first = await subscribe({ email: 'wiremu@example.nz' });
    const again = await subscribe({ email: 'WIREMU@Example.nz' });
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.json()).toEqual(first.json());
    expect(await rowsFor('wiremu@example.nz')).toHaveLength(1);
    expect(mailsTo('wiremu@example.nz')).toHaveLength(1);
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
  it('unsubscribes with the mailed token and answers a friendly page, also when clicked twice', async () => {
    await subscribe({ email: 'hana@example.nz' });
    const token = unsubscribeToken(mailsTo('hana@example.nz')[0]!.text)!;

    const response = await unsubscribe(token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('You have been unsubscribed from the Mango Shop newsletter.');
    const [row] = await rowsFor('hana@example.nz');
    expect(row!.unsubscribedAt).toBeInstanceOf(Date);

    const again = await unsubscribe(token);
    expect(again.statusCode).toBe(200);
    const [unchanged] = await rowsFor('hana@example.nz');
    expect(unchanged!.unsubscribedAt).toEqual(row!.unsubscribedAt);
  });

  it('re-subscribes a returning address with a fresh token; the old link no longer works', async () => {
    await subscribe({ email: 'tama@example.nz' });
    const oldToken = unsubscribeToken(mailsTo('tama@example.nz')[0]!.text)!;
    await unsubscribe(oldToken);

    const back = await subscribe({ email: 'Tama@example.nz' });
    expect(back.statusCode).toBe(200);
    const [row, ...others] = await rowsFor('tama@example.nz');
    expect(others).toEqual([]);
    expect(row!.unsubscribedAt).toBeNull();
    const mails = mailsTo('tama@example.nz');
    expect(mails).toHaveLength(2);
    const newToken = unsubscribeToken(mails[1]!.text)!;
    expect(newToken).not.toBe(oldToken);
    expect(row!.unsubscribeTokenHash).toBe(hashToken(newToken));
    expect((await unsubscribe(oldToken)).statusCode).toBe(404);
  });

  it.each([
    ['an unknown token', `/api/newsletter/unsubscribe?token=${'x'.repeat(43)}`],
    ['a too short token', '/api/newsletter/unsubscribe?token=abc'],
    ['no token', '/api/newsletter/unsubscribe'],
    ['a repeated token', '/api/newsletter/unsubscribe?token=a&token=b'],
  ])('answers %s with a 404 page saying the link is invalid, never JSON', async (_case, url) => {
    const response = await shop.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('This unsubscribe link is invalid');
  });
});
