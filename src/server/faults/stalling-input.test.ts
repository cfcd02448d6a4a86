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

describe('a page address built to make the server work', () => {
  it('is answered in under 50 ms of server time', async () => {
    await timed(`${shop.url}/no-such-page`);
    for (const address of [zeros, `/product/${'0'.repeat(16_000)}x`, `/${'0/'.repeat(8_000)}x`, `/${'0/'.repeat(8_000)}x.data`]) {
      const times: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const answer = () => timed(`${shop.url}${address}`).then(({ status }) => expect(status).toBe(404));
        times.push(await serverMs(answer, address.slice(0, 30)));
      }
      expect(times.sort((a, b) => a - b)[1], `the median of three for ${address.slice(0, 12)}`).toBeLessThan(50);
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
    expect(health.ms).toBeLessThan(250);
  });
});

describe('an e-mail address built to make the server work', () => {
  // A run of dots with a space at the end: the spec's x@y.z pattern tried every dot against the rest.
  const email = `a@${'.'.repeat(100_000)} x`;

  it('is refused in under 50 ms of server time on every form that takes one', async () => {
    for (const [address, body] of [
      ['/api/register', { username: 'dots', email, password: 'long enough', phone: '021 555 0101' }],
      ['/api/login', { email, password: 'long enough' }],
      ['/api/newsletter', { email }],
      ['/api/forgot-password', { email }],
    ] as const) {
      const answer = () =>
        timed(`${shop.url}${address}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(({ status }) => expect(status, address).toBe(400));
      expect(await serverMs(answer, address), address).toBeLessThan(50);
    }
  });
});
