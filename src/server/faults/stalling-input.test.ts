import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type ShopProcess, sleep, startShop, stopShop } from './harness';

/**
 * Input made to keep the server's only thread busy: an address or a field whose pattern would try
 * each character against the rest. The embedded database runs on that thread too, so one such
 * request would hold up every shopper. Measured in the shop's own process, by its request log.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-stall-'));
let shop: ShopProcess;

beforeAll(async () => {
  await buildServer(['server', 'web']);
  shop = await startShop({ DATA_DIR: dataDir });
}, 400_000);
afterAll(async () => {
  if (shop) await stopShop(shop);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The request log's lines so far: method, address, status and the server's own time. */
function logged(): Array<{ url: string; ms: number }> {
  return shop
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"request'))
    .map((text) => JSON.parse(text) as { url: string; ms: number });
}

/** The server's own time for a request, from the log line it writes as the answer leaves. */
async function serverMs(send: () => Promise<unknown>, pathStart: string): Promise<number> {
  const before = logged().length;
  await send();
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; await sleep(20)) {
    const line = logged().slice(before).find((entry) => entry.url.startsWith(pathStart));
    if (line) return line.ms;
  }
  throw new Error(`no log line for ${pathStart.slice(0, 40)}`);
}

const timed = async (url: string, init?: RequestInit) => {
  const started = performance.now();
  const answer = await fetch(url, init);
  await answer.arrayBuffer();
  return { status: answer.status, ms: performance.now() - started };
};

/** Sixteen thousand zeros and a letter: a pattern that tried each zero against the rest of the path took 0.4 s. */
const zeros = `/${'0'.repeat(16_000)}a`;

/**
 * The patterns these guard against cost the server 0.4 s to seconds for one request. A plain
 * request's time swings with the machine's load, so each is measured beside an ordinary one of the
 * same kind, taken in turn five times: the median extra time must stay well under that cost.
 */
const rounds = 5;
const allowedExtraMs = 150;

async function medianExtraMs(hostile: () => Promise<number>, ordinary: () => Promise<number>): Promise<{ extra: number; hostile: number; ordinary: number }> {
  const hostileTimes: number[] = [];
  const ordinaryTimes: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    ordinaryTimes.push(await ordinary());
    hostileTimes.push(await hostile());
  }
  const median = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? Number.NaN;
  const result = { hostile: median(hostileTimes), ordinary: median(ordinaryTimes) };
  return { ...result, extra: result.hostile - result.ordinary };
}

describe('a page address built to make the server work', () => {
  it('costs the server no more than an ordinary missing page, give or take 150 ms', async () => {
    await timed(`${shop.url}/no-such-page`);
    for (const address of [zeros, `/product/${'0'.repeat(16_000)}x`, `/${'0/'.repeat(8_000)}x`, `/${'0/'.repeat(8_000)}x.data`]) {
      const ordinaryAddress = address.endsWith('.data') ? '/no-such-page.data' : '/no-such-page';
      const page = (url: string) => () => serverMs(() => timed(`${shop.url}${url}`).then(({ status }) => expect(status).toBe(404)), url.slice(0, 30));
      const times = await medianExtraMs(page(address), page(ordinaryAddress));
      expect(times.extra, `the median of ${rounds} for ${address.slice(0, 12)}: ${JSON.stringify(times)}`).toBeLessThan(allowedExtraMs);
    }
  });

  it('is drawn, never a 500, however its slashes and dots are doubled', async () => {
    for (const address of ['//', '///', '/.//', '//shop', '/shop//', `/${'/'.repeat(9_000)}x`, `/${'./'.repeat(5_000)}x`, `/${'a//'.repeat(3_000)}x`]) {
      for (const cookie of [undefined, 'mango_session=not-a-session']) {
        const answer = await fetch(`${shop.url}${address}`, { headers: cookie ? { cookie } : {} });
        expect(answer.status, `${address.slice(0, 12)} ${cookie ?? 'as a visitor'}`).toBeLessThan(500);
      }
    }
  });

  it('leaves /healthz fast while eight run at once', async () => {
    const flood = Array.from({ length: 8 }, () => timed(`${shop.url}${zeros}`));
    const health = await timed(`${shop.url}/healthz`);
    await Promise.all(flood);
    expect(health.status).toBe(200);
    // Eight requests of 0.4 s each would hold it for over three seconds.
    expect(health.ms).toBeLessThan(1_000);
  });
});

describe('an e-mail address built to make the server work', () => {
  // A run of dots with a space at the end: the spec's x@y.z pattern tried every dot against the rest.
  const email = `a@${'.'.repeat(100_000)} x`;

  it('costs the server no more than an ordinary bad address, give or take 150 ms, on every form that takes one', async () => {
    for (const [address, fields] of [
      ['/api/register', { username: 'dots', password: 'long enough', phone: '021 555 0101' }],
      ['/api/login', { password: 'long enough' }],
      ['/api/newsletter', {}],
      ['/api/forgot-password', {}],
    ] as const) {
      const refused = (withEmail: string) => () =>
        serverMs(
          () =>
            timed(`${shop.url}${address}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...fields, email: withEmail }) }).then(({ status }) =>
              expect(status, address).toBe(400),
            ),
          address,
        );
      const times = await medianExtraMs(refused(email), refused('a@b x'));
      expect(times.extra, `${address}: ${JSON.stringify(times)}`).toBeLessThan(allowedExtraMs);
    }
  });
});
