import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { attempt, buildServer, freePort, HttpShopper, products, type ShopProcess, sleep, startShop, stopShop } from './harness';
import { PostgresCluster } from './postgres-cluster';
import { writeNginxConfig } from '../testing/nginx-config';
import { varnishArguments, varnishBinary, writeVarnishConfig } from '../testing/varnish-config';

const bin = PostgresCluster.binaries();
const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => fs.existsSync(candidate));
const varnishd = varnishBinary();
// CI installs PostgreSQL, nginx and Varnish with its modules, so there the test must run.
const runnable = (Boolean(bin) && Boolean(nginx) && Boolean(varnishd)) || process.env.CI === 'true';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-varnish-'));
// Varnish compiles the VCL as its own user, which must reach the file.
fs.chmodSync(work, 0o755);
const admin = { email: 'owner@example.nz', password: 'a long pass phrase' };
let cluster: PostgresCluster | undefined;
const children: ChildProcess[] = [];
const shops: ShopProcess[] = [];

afterAll(async () => {
  for (const shop of shops) await stopShop(shop, 'SIGKILL');
  for (const child of children) child.kill('SIGKILL');
  await cluster?.destroy();
  fs.rmSync(work, { recursive: true, force: true });
});

function started(command: string, args: string[], name: string): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.once('exit', (code) => {
    if (code) output += `\n${name} exited with ${code}`;
  });
  return { child, output: () => output };
}

async function answering(url: string, what: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const answer = await attempt(`${url}/api/products`, { timeoutMs: 5000 });
    if ('status' in answer && answer.status === 200) return;
    await sleep(100);
  }
  throw new Error(`no answer from ${url}: ${what()}`);
}

/** What Varnish answered (hit or miss) for the address asked with this Host header. */
function hostedAs(url: string, host: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { host }, timeout: 10_000 }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve([answer.headers['x-cache']].flat()[0]));
    });
    request.on('error', reject);
  });
}

const get = (url: string, cookie?: string) => fetch(url, { headers: cookie ? { cookie } : {}, redirect: 'manual', signal: AbortSignal.timeout(10_000) });

describe.skipIf(!runnable || Boolean(process.env.DATABASE_URL))('Varnish in front of nginx and two processes', () => {
  it('answers a visitor from the cache, shows a staff change within a second, never shares a shopper’s page, and keeps the window open while the shop is down', async () => {
    expect(bin, 'PostgreSQL is not installed (Debian package postgresql)').toBeDefined();
    expect(nginx, 'nginx is not installed (Debian package nginx)').toBeDefined();
    expect(varnishd, 'Varnish is not installed with its modules (Debian packages varnish and varnish-modules)').toBeDefined();
    await buildServer(['server', 'web']);
    cluster = await PostgresCluster.create(bin!);
    const [shopPorts, nginxPort, varnishPort, purgePort] = [[await freePort(), await freePort()], await freePort(), await freePort(), await freePort()];
    const front = `http://127.0.0.1:${varnishPort}`;
    const purgeAt = `http://127.0.0.1:${purgePort}`;
    const env = {
      DATABASE_URL: cluster.url,
      DATA_DIR: path.join(work, 'shop'),
      // Varnish and nginx each add the address they were reached from.
      TRUST_PROXY: '2',
      PUBLIC_URL: front,
      VARNISH_URL: purgeAt,
      // Kept 4 s, and stale-while-revalidate 1 s (which Varnish would take as the grace): with the
      // shop stopped longer than that, only the recipe's own grace can answer.
      CACHE_S_MAXAGE_SECONDS: '4',
      CACHE_STALE_SECONDS: '1',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
    };
    shops.push(...(await Promise.all(shopPorts.map((port) => startShop(env, port)))));
    const nginxDir = path.join(work, 'nginx');
    writeNginxConfig(nginxDir, shopPorts, nginxPort);
    const proxy = started(nginx!, ['-p', nginxDir, '-c', path.join(nginxDir, 'nginx.conf'), '-e', path.join(nginxDir, 'error.log')], 'nginx');
    await answering(`http://127.0.0.1:${nginxPort}`, proxy.output);
    const varnishDir = path.join(work, 'varnish');
    const cache = started(varnishd!, varnishArguments(varnishDir, writeVarnishConfig(varnishDir, nginxPort), varnishPort, purgePort), 'varnishd');
    await answering(front, cache.output);
    // A new database's first comparison purges every product once, and again a second later.
    await sleep(2500);

    // 1. A visitor's second request for a page or the public JSON is answered by Varnish.
    const box = (await products(front)).filter((p) => !p.isPreOrder && p.stock > 0)[0]!;
    for (const address of ['/shop', `/product/${box.id}`, '/', '/about', `/api/products/${box.id}`, '/api/products']) {
      await (await get(`${front}${address}`)).arrayBuffer();
      const again = await get(`${front}${address}`);
      await again.arrayBuffer();
      expect(again.status, address).toBe(200);
      expect(again.headers.get('x-cache'), address).toBe('hit');
      expect(again.headers.get('set-cookie'), address).toBeNull();
    }
    // Purges come only through the purge listener: on the public one, even from loopback, they are refused.
    const refused = await fetch(`${front}/`, { method: 'PURGE', headers: { 'xkey-purge': 'catalog settings' } });
    expect(refused.status).toBe(403);
    expect((await get(`${front}/shop`)).headers.get('x-cache')).toBe('hit');
    // A browser is not told it may use a stale copy: stale-while-revalidate is Varnish's.
    expect((await get(`${front}/shop`)).headers.get('cache-control')).toMatch(/^public, max-age=0, s-maxage=\d$/);
    // What the shop did not mark public is not kept: a missing script, the health check.
    for (const address of ['/assets/no-such-chunk.js', '/healthz']) {
      await (await get(`${front}${address}`)).arrayBuffer();
      expect((await get(`${front}${address}`)).headers.get('x-cache'), address).toBe('miss');
    }
    // A campaign's parameters and an analytics cookie do not make another page.
    const campaign = await get(`${front}/shop?utm_source=newsletter&utm_medium=email`, '_ga=GA1.2.3; theme=dark');
    expect(campaign.headers.get('x-cache')).toBe('hit');
    await campaign.arrayBuffer();
    // Nor does a Host header a client made up: pages are drawn for PUBLIC_URL whatever it says.
    expect(await hostedAs(`${front}/shop`, 'SHOP.EXAMPLE.NZ:8443')).toBe('hit');
    // A browser whose own state the page draws (a dismissed banner) is answered by the shop.
    for (let i = 0; i < 2; i += 1) {
      const own = await get(`${front}/shop`, 'dismissed_promo=MANGO10');
      await own.arrayBuffer();
      expect(own.headers.get('x-cache')).toBe('miss');
      expect(own.headers.get('cache-control')).toBe('private, no-store');
    }

    // 2. A staff price change shows through Varnish within a second, on the page and in the JSON.
    const login = await fetch(`${front}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) });
    expect(login.status).toBe(200);
    const staffCookie = (login.headers.getSetCookie().find((c) => c.startsWith('mango_session=')) ?? '').split(';')[0]!;
    const changedAt = Date.now();
    const changed = await fetch(`${front}/api/products/${box.id}`, { method: 'PUT', headers: { cookie: staffCookie, 'content-type': 'application/json' }, body: JSON.stringify({ price: 43.21 }) });
    expect(changed.status, await changed.clone().text()).toBe(200);
    let seenAfter = Number.POSITIVE_INFINITY;
    while (Date.now() - changedAt < 5000) {
      const [page, api, list] = await Promise.all([get(`${front}/product/${box.id}`).then((r) => r.text()), get(`${front}/api/products/${box.id}`).then((r) => r.json() as Promise<{ price: number }>), get(`${front}/shop`).then((r) => r.text())]);
      if (page.includes('$43.21') && api.price === 43.21 && list.includes('43.21')) {
        seenAfter = Date.now() - changedAt;
        break;
      }
      await sleep(20);
    }
    expect(seenAfter, 'ms until the new price showed through Varnish').toBeLessThan(1000);
    // And it stays: the purge after the settle time leaves no copy drawn before the change.
    await sleep(1500);
    expect(await get(`${front}/product/${box.id}`).then((r) => r.text())).toContain('$43.21');

    // An offer's end cuts the banner's answer short (stale-while-revalidate=0): past that instant
    // Varnish fetches it again rather than serving the copy that still shows the offer.
    const ending = await fetch(`${front}/api/admin/promo-codes`, {
      method: 'POST',
      headers: { cookie: staffCookie, 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'ENDS-SOON', description: 'Ends in a moment', discountType: 'percentage', discountValue: 5, endsAt: new Date(Date.now() + 5000).toISOString() }),
    });
    expect(ending.status, await ending.clone().text()).toBe(201);
    const endsAt = Date.parse(((await ending.json()) as { endsAt: string }).endsAt);
    const offers = async () => {
      const answer = await get(`${front}/api/promo-codes/active`);
      return { cache: answer.headers.get('x-cache'), codes: ((await answer.json()) as { code: string }[]).map((offer) => offer.code) };
    };
    // After the creation's purge and its second one a second later, a copy that shows the offer.
    await sleep(1600);
    expect((await offers()).codes).toContain('ENDS-SOON');
    expect(await offers()).toEqual({ cache: 'hit', codes: expect.arrayContaining(['ENDS-SOON']) });
    await sleep(Math.max(0, endsAt - Date.now()) + 800);
    expect((await offers()).codes).not.toContain('ENDS-SOON');

    // 3. A signed-in shopper is never answered from the cache, and a visitor never gets their page.
    const username = `wikitoria-${Date.now()}`;
    const wiki = new HttpShopper(front, `${username}@example.nz`);
    await wiki.signUp();
    expect(await wiki.addToCart(box.id, 2)).toMatchObject({ status: 200 });
    for (let i = 0; i < 3; i += 1) {
      const own = await get(`${front}/shop`, wiki.cookieHeader());
      expect(own.status).toBe(200);
      expect(own.headers.get('x-cache')).toBe('miss');
      expect(own.headers.get('cache-control')).toBe('private, no-store');
      // Their own page names them: the visitor's pages below must not.
      expect(await own.text()).toContain(username);
    }
    const me = await get(`${front}/api/me`, wiki.cookieHeader());
    expect(me.headers.get('x-cache')).toBe('miss');
    const cart = await get(`${front}/api/cart/${wiki.userId}`, wiki.cookieHeader());
    expect(((await cart.json()) as { itemCount: number }).itemCount).toBe(2);
    for (const address of ['/shop', `/product/${box.id}`, '/']) {
      // The shopper asked for these pages just now: the visitor's copy, kept or fetched, is a visitor's.
      await (await get(`${front}${address}`)).arrayBuffer();
      const seen = await get(`${front}${address}`);
      const html = await seen.text();
      expect(seen.headers.get('set-cookie'), address).toBeNull();
      expect(seen.headers.get('x-cache'), address).toBe('hit');
      expect(html, address).not.toContain(username);
      expect(html, address).not.toContain('Logout');
    }

    // 4. Every shop process stopped: visitors still get the shop window from Varnish (grace);
    //    what is personal fails at once with a page that says so. The processes stop just before
    //    the copy of /shop runs out, so it runs out before Varnish's probe sees them gone: its
    //    refresh then meets nginx's 502, which must leave the copy as it was.
    const shopPage = `${front}/shop`;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(50)) {
      const copy = await get(shopPage);
      await copy.arrayBuffer();
      const keep = Number(/s-maxage=(\d+)/.exec(copy.headers.get('cache-control') ?? '')?.[1] ?? 0);
      if (copy.headers.get('x-cache') === 'hit' && Number(copy.headers.get('age') ?? 0) >= keep - 1) break;
    }
    await Promise.all(shops.map((shop) => stopShop(shop, 'SIGKILL')));
    shops.length = 0;
    // Through the probe's blind moment and after it, and until every copy is past its s-maxage
    // and its stale-while-revalidate: always the kept page.
    for (const until = Date.now() + 7000; Date.now() < until; await sleep(100)) {
      for (const address of [shopPage, `${front}/product/${box.id}`]) {
        const kept = await get(address);
        expect(kept.status, address).toBe(200);
        expect(await kept.text(), address).toContain('Mango');
      }
    }
    const startedAt = Date.now();
    const down = await get(`${front}/cart`);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('30');
    expect(await down.text()).toContain('Back in a moment');
    expect(Date.now() - startedAt).toBeLessThan(3000);
    const write = await fetch(`${front}/api/cart/${wiki.userId}/items`, { method: 'POST', headers: { cookie: wiki.cookieHeader(), 'content-type': 'application/json' }, body: JSON.stringify({ productId: box.id, quantity: 1 }) });
    expect(write.status).toBe(503);
  }, 240_000);
});
