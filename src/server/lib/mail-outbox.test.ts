import { eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { housekeeping } from '../background-work';
import { mailOutbox } from '../db/schema';
import { quickShopper, testProduct } from '../testing/order-helpers';
import { createTestShop, type TestShop } from '../testing/test-app';
import { type MailTransport, MemoryMailer, messageIdOf, type OutgoingMail, PermanentMailError } from './mail';
import { defaultOutboxTiming, MailOutbox, queueMail } from './mail-outbox';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(async () => shop?.close());

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const fast = { ...defaultOutboxTiming, pollMs: 60_000, firstRetryMs: 50, maxRetryMs: 200, leaseMs: 60_000, giveUpAfterMs: 60_000, sendLimitMs: 5_000 };

/** A mail server that refuses while `down` is set, and records what it accepted. */
class FlakyTransport implements MailTransport {
  down = true;
  permanent = false;
  readonly accepted: OutgoingMail[] = [];
  async deliver(mail: OutgoingMail): Promise<void> {
    if (this.permanent) throw new PermanentMailError('550 no such mailbox');
    if (this.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:2525'), { code: 'ECONNREFUSED' });
    this.accepted.push(mail);
  }
}

async function rowOf(subject: string) {
  const [row] = await shop.database.db.select().from(mailOutbox).where(eq(mailOutbox.subject, subject));
  return row!;
}

describe('the mail outbox', () => {
  it('keeps a mail queued in a transaction that rolled back from being sent', async () => {
    await shop.database.db
      .transaction(async (tx) => {
        await queueMail(tx, { to: 'ghost@example.nz', subject: 'never sent', text: 'x' });
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    expect((await shop.mail()).some((mail) => mail.subject === 'never sent')).toBe(false);
    expect(await shop.database.db.select().from(mailOutbox).where(eq(mailOutbox.subject, 'never sent'))).toHaveLength(0);
  });

  it('retries a mail the server refused, with the same Message-ID, until it goes out once', async () => {
    const transport = new FlakyTransport();
    // Pauses long enough that a slow claim on a busy machine does not retry within the same pass.
    const outbox = new MailOutbox(shop.database, transport, quiet, { ...fast, firstRetryMs: 400, maxRetryMs: 1_600 });
    await queueMail(shop.database.db, { to: 'kiri@example.nz', subject: 'retry me', text: 'Kia ora' });
    expect(await outbox.deliverDue()).toBe(0);
    const failed = await rowOf('retry me');
    expect(failed).toMatchObject({ attempts: 1, sentAt: null, failedAt: null });
    expect(failed.lastError).toMatch(/ECONNREFUSED/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await outbox.deliverDue()).toBe(0);
    expect((await rowOf('retry me')).attempts).toBe(2);

    transport.down = false;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await outbox.deliverDue()).toBe(1);
    expect(await outbox.deliverDue()).toBe(0);
    expect(transport.accepted.map((mail) => mail.subject)).toEqual(['retry me']);
    const sent = await rowOf('retry me');
    expect(sent.sentAt).not.toBeNull();
    expect(messageIdOf(transport.accepted[0]!, 'Mango Shop <hello@mangoshop.co.nz>')).toBe(`<outbox-${sent.id}.${sent.createdAt.getTime()}@mangoshop.co.nz>`);
  });

  it('gives up at once on a mail the server refuses for good, and says so', async () => {
    const transport = new FlakyTransport();
    transport.permanent = true;
    const errors: object[] = [];
    const outbox = new MailOutbox(shop.database, transport, { ...quiet, error: (details) => errors.push(details) }, fast);
    await queueMail(shop.database.db, { to: 'nobody@example.nz', subject: 'refused for good', text: 'x' });
    await outbox.deliverDue();
    const row = await rowOf('refused for good');
    expect(row.failedAt).not.toBeNull();
    expect(row.lastError).toMatch(/550/);
    expect(errors).toHaveLength(1);
    await outbox.deliverDue();
    expect((await rowOf('refused for good')).attempts).toBe(1);
  });

  it('clears the bodies and headers of a mail it gave up, keeping the address, subject and error for support', async () => {
    const transport = new FlakyTransport();
    transport.permanent = true;
    const outbox = new MailOutbox(shop.database, transport, quiet, fast);
    const link = 'https://shop.example.nz/api/newsletter/unsubscribe?token=secret-token';
    await queueMail(shop.database.db, { to: 'gone@example.nz', subject: 'given up', text: link, html: `<a href="${link}">x</a>`, headers: { 'List-Unsubscribe': `<${link}>` } });
    await outbox.deliverDue();
    const row = await rowOf('given up');
    expect(row).toMatchObject({ toAddress: 'gone@example.nz', attempts: 1, textBody: '', htmlBody: null, headers: {} });
    expect(row.lastError).toMatch(/550/);
    expect(row.failedAt).not.toBeNull();
    expect(JSON.stringify(row)).not.toContain('secret-token');
  });

  it('sends each mail once when several processes deliver at the same time', async () => {
    await shop.mail();
    const transports = Array.from({ length: 3 }, () => new MemoryMailer());
    const workers = transports.map((transport) => new MailOutbox(shop.database, transport, quiet, fast));
    const subjects = Array.from({ length: 30 }, (_, i) => `parallel ${i}`);
    for (const subject of subjects) await queueMail(shop.database.db, { to: 'many@example.nz', subject, text: subject });
    await Promise.all(workers.flatMap((worker) => [worker.deliverDue(), worker.deliverDue()]));
    const delivered = transports.flatMap((transport) => transport.sent.map((mail) => mail.subject));
    expect(delivered.sort()).toEqual([...subjects].sort());
    const [left] = await shop.database.db.select({ n: sql<number>`count(*)::int` }).from(mailOutbox).where(sql`sent_at is null and failed_at is null`);
    expect(left!.n).toBe(0);
  });

  it('takes over a mail whose sender died holding it, once the hold runs out', async () => {
    await queueMail(shop.database.db, { to: 'orphan@example.nz', subject: 'sender died', text: 'x' });
    // A process claimed it and was killed before it could record the outcome.
    await shop.database.db.update(mailOutbox).set({ attempts: 1, dueAt: sql`now() + interval '100 milliseconds'` }).where(eq(mailOutbox.subject, 'sender died'));
    const transport = new MemoryMailer();
    const outbox = new MailOutbox(shop.database, transport, quiet, fast);
    expect(await outbox.deliverDue()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await outbox.deliverDue()).toBe(1);
    expect(transport.sent.map((mail) => mail.subject)).toEqual(['sender died']);
  });
});

describe('housekeeping', () => {
  it('deletes mail sent or given up over 30 days ago, and keeps recent and waiting mail', async () => {
    const subjects = ['sent long ago', 'given up long ago', 'sent last week', 'waiting since long ago'];
    for (const subject of subjects) await queueMail(shop.database.db, { to: 'history@example.nz', subject, text: 'x' });
    const set = (subject: string, values: PgUpdateSetSource<typeof mailOutbox>) => shop.database.db.update(mailOutbox).set(values).where(eq(mailOutbox.subject, subject));
    await set('sent long ago', { sentAt: sql`now() - interval '31 days'` });
    await set('given up long ago', { failedAt: sql`now() - interval '31 days'` });
    await set('sent last week', { sentAt: sql`now() - interval '7 days'` });
    await set('waiting since long ago', { createdAt: sql`now() - interval '40 days'`, dueAt: sql`now() + interval '1 hour'` });
    await housekeeping(shop.app.services);
    const left = await shop.database.db.select({ subject: mailOutbox.subject }).from(mailOutbox).where(eq(mailOutbox.toAddress, 'history@example.nz'));
    expect(left.map((row) => row.subject).sort()).toEqual(['sent last week', 'waiting since long ago']);
  });
});

describe('work after an order is committed', () => {
  it('cannot turn the placed order into an error, and its confirmation mail still goes out', async () => {
    const product = await testProduct(shop, { stock: 5 });
    const shopper = await quickShopper(shop);
    await shopper.add(product.id, 1);
    const notify = shop.database.notify;
    shop.database.notify = async () => {
      throw new Error('Connection terminated unexpectedly');
    };
    try {
      const response = await shopper.order();
      expect(response.statusCode).toBe(201);
      const { order } = response.json() as { order: { number: string } };
      expect((await shop.mail()).filter((mail) => mail.subject.includes(order.number))).toHaveLength(1);
    } finally {
      shop.database.notify = notify;
    }
  });
});
