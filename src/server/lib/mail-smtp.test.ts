import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../db/schema';
import { createTestShop, type TestShop } from '../testing/test-app';
import { createMailTransport } from './mail';
import { defaultOutboxTiming, MailOutbox, queueMail } from './mail-outbox';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(async () => shop?.close());

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const fast = { ...defaultOutboxTiming, pollMs: 60_000, firstRetryMs: 50, leaseMs: 60_000, sendLimitMs: 800 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A real SMTP server on loopback that can be slow at MAIL FROM or at answering the message data. */
interface SlowMailServer {
  url: string;
  mailFromAfterMs: number;
  answerDataAfterMs: number;
  /** What happened, in order: 'data' (the whole message arrived), 'accepted', 'closed' (the client hung up). */
  readonly events: string[];
  /** Messages the server kept: it keeps a message once it has checked it, whether or not the client still listens. */
  readonly received: string[];
  close(): Promise<void>;
}

const servers: SlowMailServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  // Each test's mail stays its own: what one leaves waiting is not delivered by the next.
  await shop.database.db.execute(sql`update mail_outbox set failed_at = now() where sent_at is null and failed_at is null`);
});

async function slowMailServer(options: { mailFromAfterMs?: number; answerDataAfterMs?: number }): Promise<SlowMailServer> {
  const events: string[] = [];
  const received: string[] = [];
  const state = { mailFromAfterMs: options.mailFromAfterMs ?? 0, answerDataAfterMs: options.answerDataAfterMs ?? 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    disableReverseLookup: true,
    closeTimeout: 100,
    onMailFrom: (_address, _session, callback) => void setTimeout(callback, state.mailFromAfterMs),
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        events.push('data');
        setTimeout(() => {
          received.push(Buffer.concat(chunks).toString());
          events.push('accepted');
          callback();
        }, state.answerDataAfterMs);
      });
    },
    onClose: () => void events.push('closed'),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const handle: SlowMailServer = {
    url: `smtp://127.0.0.1:${port}`,
    get mailFromAfterMs() {
      return state.mailFromAfterMs;
    },
    set mailFromAfterMs(ms) {
      state.mailFromAfterMs = ms;
    },
    get answerDataAfterMs() {
      return state.answerDataAfterMs;
    },
    set answerDataAfterMs(ms) {
      state.answerDataAfterMs = ms;
    },
    events,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  servers.push(handle);
  return handle;
}

function outboxFor(server: SlowMailServer, timing = fast): MailOutbox {
  const transport = createMailTransport({ smtpUrl: server.url, from: 'Mango Shop <hello@mangoshop.co.nz>', folder: shop.config.dataDir });
  return new MailOutbox(shop.database, transport, quiet, timing);
}

async function until(condition: () => boolean, withinMs: number): Promise<void> {
  const end = Date.now() + withinMs;
  while (!condition() && Date.now() < end) await sleep(10);
}

async function rowOf(subject: string) {
  const [row] = await shop.database.db
    .select({ attempts: mailOutbox.attempts, sentAt: mailOutbox.sentAt, lastError: mailOutbox.lastError, dueInMs: sql<number>`(extract(epoch from ${mailOutbox.dueAt} - now()) * 1000)::int` })
    .from(mailOutbox)
    .where(eq(mailOutbox.subject, subject));
  return row!;
}

describe('delivery through a slow mail server', () => {
  it('hangs up on a server that does not answer the message in time, and does not send the mail again within the lease', async () => {
    const server = await slowMailServer({ answerDataAfterMs: 3_000 });
    // Long enough for the message to arrive on a busy machine, well short of the server's answer.
    const outbox = outboxFor(server, { ...fast, sendLimitMs: 1_500 });
    await queueMail(shop.database.db, { to: 'slow@example.nz', subject: 'slow answer', text: 'Kia ora' });

    expect(await outbox.deliverDue()).toBe(0);
    await until(() => server.events.includes('closed'), 500);
    // The connection is gone before the server answered: the shop no longer waits on it.
    expect(server.events).toEqual(['data', 'closed']);
    // The server may still keep the mail, so it is held for the whole lease, not retried in 50 ms.
    const held = await rowOf('slow answer');
    expect(held).toMatchObject({ attempts: 1, sentAt: null });
    expect(held.dueInMs).toBeGreaterThan(50_000);
    expect(held.lastError).toMatch(/may have been delivered/);

    await sleep(1_700);
    expect(await outbox.deliverDue()).toBe(0);
    await sleep(3_200);
    expect(server.received.filter((message) => message.includes('Subject: slow answer'))).toHaveLength(1);
    expect((await rowOf('slow answer')).attempts).toBe(1);
  });

  it('hangs up on a server that stalls before taking the message, and retries the mail soon', async () => {
    const server = await slowMailServer({ mailFromAfterMs: 1_500 });
    const outbox = outboxFor(server);
    await queueMail(shop.database.db, { to: 'stalled@example.nz', subject: 'stalled envelope', text: 'Kia ora' });

    expect(await outbox.deliverDue()).toBe(0);
    await until(() => server.events.includes('closed'), 500);
    expect(server.events).toEqual(['closed']);
    const failed = await rowOf('stalled envelope');
    expect(failed).toMatchObject({ attempts: 1, sentAt: null });
    expect(failed.dueInMs).toBeLessThan(1_000);
    // The cut-off attempt does not go on sending in the background once MAIL FROM is answered.
    await sleep(1_500);
    expect(server.received).toEqual([]);

    server.mailFromAfterMs = 0;
    expect(await outbox.deliverDue()).toBe(1);
    expect(server.received.filter((message) => message.includes('Subject: stalled envelope'))).toHaveLength(1);
  });

  it('waits more than 10 s for a server that checks the message before answering, and sends the mail once', async () => {
    const server = await slowMailServer({ answerDataAfterMs: 10_500 });
    const outbox = outboxFor(server, { ...fast, sendLimitMs: defaultOutboxTiming.sendLimitMs });
    await queueMail(shop.database.db, { to: 'scanned@example.nz', subject: 'scanned slowly', text: 'Kia ora' });

    expect(await outbox.deliverDue()).toBe(1);
    expect(server.received).toHaveLength(1);
    expect((await rowOf('scanned slowly')).sentAt).not.toBeNull();
  }, 20_000);

  it('cuts off a slow delivery when stopping, instead of waiting for the server', async () => {
    const server = await slowMailServer({ answerDataAfterMs: 5_000 });
    const outbox = outboxFor(server, { ...fast, sendLimitMs: 30_000, stopWaitMs: 200 });
    await queueMail(shop.database.db, { to: 'stopping@example.nz', subject: 'sent while stopping', text: 'Kia ora' });
    await outbox.start();
    await until(() => server.events.includes('data'), 2_000);

    const stopping = Date.now();
    await outbox.stop();
    expect(Date.now() - stopping).toBeLessThan(1_500);
    await until(() => server.events.includes('closed'), 500);
    expect(server.events).toEqual(['data', 'closed']);
    const held = await rowOf('sent while stopping');
    expect(held.sentAt).toBeNull();
    expect(held.dueInMs).toBeGreaterThan(50_000);
  });
});
