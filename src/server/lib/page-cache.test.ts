import { createHash } from 'node:crypto';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodedFor, hasPersonalCookie, inlineScriptHashes, PageCache, type RenderedPage } from './page-cache';

function page(html: string, cacheable = true): RenderedPage {
  return { status: 200, headers: { 'content-type': 'text/html' }, html: Buffer.from(html), contentSecurityPolicy: '', encoded: {}, storedAt: performance.now(), cacheable, setCookies: [] };
}

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('the page cache', () => {
  it('keeps a visitor page and serves it again without rendering', async () => {
    const cache = new PageCache();
    let renders = 0;
    const render = async () => page(`<p>${++renders}</p>`);
    expect((await cache.get('/shop', render)).html.toString()).toBe('<p>1</p>');
    expect((await cache.get('/shop', render)).html.toString()).toBe('<p>1</p>');
    expect(renders).toBe(1);
    // What /metrics reports: one render, one page from the cache.
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 1, misses: 1 });
  });

  it('renders once for visitors asking for the same page at the same time', async () => {
    const cache = new PageCache();
    let renders = 0;
    const render = async () => {
      renders += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return page('<p>shop</p>');
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.get('/shop', render)));
    expect(renders).toBe(1);
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 19, misses: 1 });
    expect(new Set(answers.map((answer) => answer.html.toString()))).toEqual(new Set(['<p>shop</p>']));
  });

  it('keeps pages with parameters apart, so a flood of them cannot push out the plain pages', async () => {
    const cache = new PageCache(1024 * 1024, 30_000, 8);
    await cache.get('/', async () => page('<p>home</p>'));
    await cache.get('/shop', async () => page('<p>shop</p>'));
    for (let n = 0; n < 100; n++) await cache.get(`/shop?category=junk${n}`, async () => page(`<p>${n}</p>`.padEnd(4000, ' ')));
    let renders = 0;
    const counted = async () => page(`<p>${++renders}</p>`);
    await cache.get('/', counted);
    await cache.get('/shop', counted);
    expect(renders).toBe(0);
    // The newest pages with parameters are kept, up to their own limit.
    expect(cache.size).toBe(2 + 8);
    await cache.get('/shop?category=junk99', counted);
    expect(renders).toBe(0);
  });

  it('drops every page on clear, and does not keep a page whose render overlapped a change', async () => {
    const cache = new PageCache();
    let version = 'old';
    let release = () => {};
    const slow = () =>
      new Promise<RenderedPage>((resolve) => {
        const drawn = version;
        release = () => resolve(page(`<p>${drawn}</p>`));
      });
    const during = cache.get('/', slow);
    await new Promise((resolve) => setTimeout(resolve, 5));
    version = 'new';
    cache.clear();
    release();
    expect((await during).html.toString()).toBe('<p>old</p>');
    expect(cache.size).toBe(0);
    expect((await cache.get('/', async () => page(`<p>${version}</p>`))).html.toString()).toBe('<p>new</p>');
  });

  it('does not keep or share a render that may not be kept', async () => {
    const cache = new PageCache();
    let renders = 0;
    const render = async () => {
      renders += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return page(`<p>${renders}</p>`, false);
    };
    const answers = await Promise.all([cache.get('/maintenance-redirect', render), cache.get('/maintenance-redirect', render)]);
    expect(renders).toBe(2);
    expect(answers.map((answer) => answer.cacheable)).toEqual([false, false]);
    expect(cache.size).toBe(0);
  });

  it('serves no page older than its maximum age', async () => {
    const cache = new PageCache(1024 * 1024, 30);
    let renders = 0;
    const render = async () => page(`<p>${++renders}</p>`);
    await cache.get('/', render);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await cache.get('/', render)).html.toString()).toBe('<p>2</p>');
  });

  it('lets the least recently used pages go past its size', async () => {
    const cache = new PageCache(6000);
    const render = (text: string) => async () => page(text.padEnd(1000, '.'));
    for (const key of ['a', 'b', 'c', 'd']) await cache.get(key, render(key));
    await cache.get('a', render('a again'));
    await cache.get('e', render('e'));
    expect(cache.size).toBe(4);
    expect((await cache.get('b', render('b again'))).html.toString().startsWith('b again')).toBe(true);
    expect((await cache.get('a', render('a third'))).html.toString().startsWith('a.')).toBe(true);
  });
});

describe('a cached page', () => {
  it('allows exactly its inline scripts by their hashes, not scripts with src or JSON data', () => {
    const html = '<script src="/a.js"></script><script>window.a=1</script><script type="module">import "/b.js"</script><script type="application/ld+json">{"@type":"Product"}</script>';
    expect(inlineScriptHashes(html).sort()).toEqual([sha('window.a=1'), sha('import "/b.js"')].sort());
  });

  it('is sent in brotli or gzip as the browser accepts, and as it is otherwise', async () => {
    const cached = page('<p>mango</p>'.repeat(200));
    const br = await encodedFor(cached, 'gzip, deflate, br');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body).equals(cached.html)).toBe(true);
    const gz = await encodedFor(cached, 'gzip');
    expect(gz.encoding).toBe('gzip');
    expect(gunzipSync(gz.body).equals(cached.html)).toBe(true);
    expect((await encodedFor(cached, 'br;q=0, gzip;q=0')).encoding).toBeUndefined();
    expect((await encodedFor(cached, 'br; q=0, gzip')).encoding).toBe('gzip');
    expect((await encodedFor(cached, 'deflate, BR;q=0.5')).encoding).toBe('br');
    expect((await encodedFor(cached, undefined)).encoding).toBeUndefined();
  });
});

describe('a personal request', () => {
  it('is one with a session, a hidden promo or the maintenance bypass, not one with other cookies', () => {
    expect(hasPersonalCookie({})).toBe(false);
    expect(hasPersonalCookie({ _ga: 'GA1.1.2', _fbp: 'fb.1' })).toBe(false);
    expect(hasPersonalCookie({ _ga: '1', mango_session: 'abc' })).toBe(true);
    expect(hasPersonalCookie({ dismissed_promo: '1.99' })).toBe(true);
    expect(hasPersonalCookie({ adminBypassMaintenance: 'true' })).toBe(true);
    expect(hasPersonalCookie({ xmango_session: 'abc' })).toBe(false);
  });
});
