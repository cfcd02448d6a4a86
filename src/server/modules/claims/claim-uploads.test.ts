import net from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimView } from '../../../contracts/claims';
import { bruised, claimBoundary, claimField, claimForm, deliveredOrder, photoHead } from '../../testing/claim-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
let port: number;
let photo: Buffer;
const uploadsAtOnce = 3;
beforeAll(async () => {
  // A body that stops arriving for a second is given up; three uploads at once in the whole shop.
  ({ shop, staff } = await openStaffShop({ env: { BODY_IDLE_SECONDS: '1', UPLOADS_AT_ONCE: String(uploadsAtOnce) } }));
  await shop.app.listen({ port: 0, host: '127.0.0.1' });
  port = (shop.app.server.address() as net.AddressInfo).port;
  photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#e8a33d' } }).jpeg().toBuffer();
});
afterAll(async () => shop?.close());

interface Answer {
  /** The status line's code, or null when nothing came back in time. */
  status: number | null;
  ms: number;
  body: string;
}

/**
 * A claim upload over a real socket that announces `announced` bytes, sends `sent`, and then
 * stops, as a slow or hostile client does. Answers what the server said within `waitMs`.
 */
function stalledUpload(path: string, cookie: string, sent: Buffer, announced = 30 * 1024 * 1024, waitMs = 5000): { answer: Promise<Answer>; socket: net.Socket } {
  const started = performance.now();
  const socket = net.connect(port, '127.0.0.1');
  const head = [
    `POST ${path} HTTP/1.1`,
    `host: 127.0.0.1:${port}`,
    `origin: http://127.0.0.1:${port}`,
    `cookie: ${cookie}`,
    `content-type: multipart/form-data; boundary=${claimBoundary}`,
    `content-length: ${announced}`,
    '',
    '',
  ].join('\r\n');
  socket.write(head);
  socket.write(sent);
  const answer = new Promise<Answer>((resolve) => {
    let received = '';
    const done = () => {
      clearTimeout(timer);
      const match = /^HTTP\/1\.1 (\d{3})/.exec(received);
      resolve({ status: match ? Number(match[1]) : null, ms: performance.now() - started, body: received.slice(received.indexOf('\r\n\r\n') + 4) });
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n')) done();
    });
    socket.on('error', done);
    socket.on('close', done);
  });
  return { answer, socket };
}


describe('claim uploads are checked before they are read, and cannot hold the server', () => {
  it('refuses an upload to an order that does not exist before reading its photos', async () => {
    const { shopper } = await deliveredOrder(shop, staff);
    const sent = Buffer.concat([claimField(bruised(1, 1)), photoHead(0), Buffer.alloc(256 * 1024, 1)]);
    const { answer, socket } = stalledUpload('/api/orders/MS-999999999/claims', shopper.cookie, sent);
    const reply = await answer;
    socket.destroy();
    expect(reply.status, 'answered while the rest of the 30 MB never comes').toBe(404);
    expect(reply.ms).toBeLessThan(3000);
  });

  it('refuses an upload to an order not yet delivered before reading its photos', async () => {
    const { shopper, order, lines } = await deliveredOrder(shop, staff, { until: 'shipped' });
    const sent = Buffer.concat([claimField(bruised(lines[0]!.lineId, 1)), photoHead(0), Buffer.alloc(256 * 1024, 1)]);
    const { answer, socket } = stalledUpload(`/api/orders/${order.number}/claims`, shopper.cookie, sent);
    const reply = await answer;
    socket.destroy();
    expect(reply.status).toBe(409);
    expect(reply.ms).toBeLessThan(3000);
  });

  it('gives up an upload whose body stops arriving, with a clear 408, and records nothing', async () => {
    const { shopper, order, lines } = await deliveredOrder(shop, staff);
    const sent = Buffer.concat([claimField(bruised(lines[0]!.lineId, 1)), photoHead(0), photo.subarray(0, 100)]);
    const { answer, socket } = stalledUpload(`/api/orders/${order.number}/claims`, shopper.cookie, sent);
    const reply = await answer;
    socket.destroy();
    expect(reply.status).toBe(408);
    expect(JSON.parse(reply.body)).toMatchObject({ message: expect.stringContaining('took too long') });
    const after = await shopper.call({ method: 'GET', url: `/api/orders/${order.number}/claims` });
    expect(after.json<{ claims: ClaimView[] }>().claims).toHaveLength(0);
  });

  it('lets one account send two uploads at once, answers the third 429 at once, and takes uploads again after', async () => {
    const { shopper, order, lines } = await deliveredOrder(shop, staff);
    const path = `/api/orders/${order.number}/claims`;
    const sent = Buffer.concat([claimField(bruised(lines[0]!.lineId, 1)), photoHead(0), photo.subarray(0, 100)]);
    const held = [stalledUpload(path, shopper.cookie, sent), stalledUpload(path, shopper.cookie, sent)];
    await new Promise((resolve) => setTimeout(resolve, 200));
    const third = await shopper.call({ method: 'POST', url: path, ...claimForm(bruised(lines[0]!.lineId, 1), [photo]) });
    expect(third.statusCode, third.body).toBe(429);
    expect(third.json<{ message: string }>().message).toContain('uploads');
    const given = await Promise.all(held.map(({ answer }) => answer));
    for (const { socket } of held) socket.destroy();
    expect(given.map((one) => one.status)).toEqual([408, 408]);
    const later = await shopper.call({ method: 'POST', url: path, ...claimForm(bruised(lines[0]!.lineId, 1), [photo]) });
    expect(later.statusCode, later.body).toBe(201);
  });

  it('holds the whole shop to its number of uploads at once', async () => {
    const orders = await Promise.all(Array.from({ length: uploadsAtOnce + 1 }, () => deliveredOrder(shop, staff)));
    const held = orders.slice(0, uploadsAtOnce).map(({ shopper, order, lines }) =>
      stalledUpload(`/api/orders/${order.number}/claims`, shopper.cookie, Buffer.concat([claimField(bruised(lines[0]!.lineId, 1)), photoHead(0), photo.subarray(0, 100)])),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const last = orders[uploadsAtOnce]!;
    const refused = await last.shopper.call({ method: 'POST', url: `/api/orders/${last.order.number}/claims`, ...claimForm(bruised(last.lines[0]!.lineId, 1), [photo]) });
    expect(refused.statusCode, refused.body).toBe(429);
    await Promise.all(held.map(({ answer }) => answer));
    for (const { socket } of held) socket.destroy();
    const taken = await last.shopper.call({ method: 'POST', url: `/api/orders/${last.order.number}/claims`, ...claimForm(bruised(last.lines[0]!.lineId, 1), [photo]) });
    expect(taken.statusCode, taken.body).toBe(201);
  });
});
