import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../db/client';
import { expectWholeShop } from './consistency';
import { buildServer, freePort, products, type ShopProcess, shoppers, sleep, startShop, stopShop } from './harness';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-smtp-'));
let shop: ShopProcess | undefined;
let mailServer: SMTPServer | undefined;

afterAll(async () => {
  if (shop) await stopShop(shop, 'SIGKILL');
  if (mailServer) await new Promise<void>((resolve) => mailServer!.close(() => resolve()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Received {
  subject: string;
  messageId: string;
  /** The message has a plain-text part and an HTML part, as alternatives. */
  bothParts: boolean;
}

/** A real SMTP server on loopback that refuses mail with a temporary error, or takes it. */
function startMailServer(port: number, state: { refusing: boolean; refused: number; received: Received[] }): Promise<SMTPServer> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (!state.refusing) return callback();
      state.refused += 1;
      callback(Object.assign(new Error('Mail system busy, try again later'), { responseCode: 451 }));
    },
    onData(stream, _session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(raw)?.[1]?.trim() ?? '';
        const bothParts = /^Content-Type: multipart\/alternative/im.test(raw) && /^Content-Type: text\/plain/im.test(raw) && /^Content-Type: text\/html/im.test(raw);
        state.received.push({ subject: header('Subject'), messageId: header('Message-ID'), bothParts });
        callback();
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await sleep(100);
  return condition();
}

describe.skipIf(Boolean(process.env.DATABASE_URL))('the mail server down for a while', () => {
  it('keeps the confirmations waiting while SMTP is unreachable and then refusing, and sends each once it takes mail again', async () => {
    await buildServer();
    const smtpPort = await freePort();
    shop = await startShop({ DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_RETRY_SECONDS: '1' });
    const box = (await products(shop.url)).filter((p) => !p.isPreOrder).sort((a, b) => b.stock - a.stock)[0]!;
    const buyers = await shoppers(shop.url, 3, 'outage');

    // Nothing listens on the mail port: orders are still placed, at once.
    const placed: string[] = [];
    for (const buyer of buyers) {
      expect(await buyer.addToCart(box.id, 1)).toMatchObject({ status: 200 });
      const order = await buyer.placeOrder();
      expect(order).toMatchObject({ status: 201 });
      if ('status' in order) placed.push((order.body.order as { number: string }).number);
    }
    const failures = () => shop!.output().split('\n').filter((line) => line.includes('mail delivery failed: it will be retried')).length;
    expect(await waitFor(() => failures() >= 6, 20_000), shop.output().slice(-2000)).toBe(true);

    // Then the mail server is up but refuses with a temporary error.
    const state = { refusing: true, refused: 0, received: [] as Received[] };
    mailServer = await startMailServer(smtpPort, state);
    expect(await waitFor(() => state.refused >= 1, 30_000)).toBe(true);
    expect(state.received).toEqual([]);

    // Then it takes mail: every confirmation arrives, once.
    state.refusing = false;
    expect(await waitFor(() => state.received.length >= placed.length, 60_000), shop.output().slice(-2000)).toBe(true);
    await sleep(3_000);
    expect(state.received.map((mail) => mail.subject).sort()).toEqual(placed.map((number) => `Your order ${number} at Mango Shop`).sort());
    expect(new Set(state.received.map((mail) => mail.messageId)).size).toBe(placed.length);
    expect(state.received.every((mail) => mail.bothParts)).toBe(true);

    expect((await stopShop(shop)).code).toBe(0);
    shop = undefined;
    const after = await expectWholeShop(await openPglite(path.join(dataDir, 'pglite')), placed);
    expect(after.unsentMail).toBe(0);
    expect(after.failedMail).toBe(0);
  }, 240_000);
});
