import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { deferModuleGraph, deferModuleGraphStream } from './deferred-scripts';

const page = [
  '<html><head><link rel="modulepreload" href="/assets/entry.client-A.js"/><link rel="modulepreload" href="/assets/root-B.js"/><style>body{}</style></head>',
  '<body><main>Mangoes — ā</main><script>window.__reactRouterContext = {};</script>',
  '<script nonce="n0nce" type="module" async="">;\nimport * as route0 from "/assets/root-B.js";\nimport * as route1 from "/assets/home-C.js";\n',
  '  window.__reactRouterManifest = {"entry":{"module":"/assets/entry.client-A.js"}};\n',
  '  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};\n\nimport("/assets/entry.client-A.js");</script>',
  '<!--$?--><template id="B:0"></template><!--/$--></body></html>',
].join('');

describe('deferModuleGraph', () => {
  it('moves the preloads and the route imports after the first frame, keeping the script body and its nonce', () => {
    const html = deferModuleGraph(page);
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).not.toMatch(/import \* as/);
    expect(html).toContain('<style>body{}</style></head>');
    expect(html).toContain('<main>Mangoes — ā</main>');
    expect(html).toContain('<script nonce="n0nce" type="module" async="">const start=()=>{for(const href of ["/assets/entry.client-A.js","/assets/root-B.js"])');
    expect(html).toContain('Promise.all([import("/assets/root-B.js"),import("/assets/home-C.js")]).then(([route0,route1])=>{');
    expect(html).toContain('window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};');
    expect(html).toContain('import("/assets/entry.client-A.js");}).catch(');
  });

  it('runs: the routes are imported, then the manifest is set and the entry imported, in that order', async () => {
    const body = /<script nonce="n0nce" type="module" async="">(.*?)<\/script>/s.exec(deferModuleGraph(page))![1]!;
    const seen: string[] = [];
    const links: string[] = [];
    const window: Record<string, unknown> = {};
    let frame: (() => void) | undefined;
    const run = new Function('window', 'document', 'requestAnimationFrame', 'setTimeout', 'load', body.replaceAll('import(', 'load('));
    run(
      window,
      { visibilityState: 'visible', createElement: () => ({}), head: { append: (link: { href: string }) => links.push(link.href) } },
      (callback: () => void) => (frame = callback),
      (callback: () => void) => callback(),
      (url: string) => {
        seen.push(url);
        return Promise.resolve({ url });
      },
    );
    expect(seen).toEqual([]);
    frame!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(links).toEqual(['/assets/entry.client-A.js', '/assets/root-B.js']);
    expect(seen).toEqual(['/assets/root-B.js', '/assets/home-C.js', '/assets/entry.client-A.js']);
    expect(window.__reactRouterRouteModules).toEqual({ root: { url: '/assets/root-B.js' }, 'routes/home': { url: '/assets/home-C.js' } });
  });

  it('starts at once in a background tab, which runs no frames, and says so when the code cannot load', async () => {
    const body = /<script nonce="n0nce" type="module" async="">(.*?)<\/script>/s.exec(deferModuleGraph(page))![1]!;
    const seen: string[] = [];
    const errors: unknown[][] = [];
    const run = new Function('window', 'document', 'requestAnimationFrame', 'setTimeout', 'load', 'console', body.replaceAll('import(', 'load('));
    run(
      {},
      { visibilityState: 'hidden', createElement: () => ({}), head: { append: () => undefined } },
      () => expect.unreachable('no frame in a hidden tab'),
      () => expect.unreachable('no timer in a hidden tab'),
      (url: string) => {
        seen.push(url);
        return Promise.reject(new Error(`404 ${url}`));
      },
      { error: (...args: unknown[]) => errors.push(args) },
    );
    expect(seen).toEqual(['/assets/root-B.js', '/assets/home-C.js']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors).toHaveLength(1);
    expect(errors[0]![0]).toBe("Mango Shop: the page's code did not load");
  });

  it('finds the script whatever the order of its attributes, and keeps them', () => {
    const visitor = page.replace('<script nonce="n0nce" type="module" async="">', '<script type="module" async="">');
    const html = deferModuleGraph(visitor);
    expect(html).toContain('<script type="module" async="">const start=');
    expect(html).not.toContain('<link rel="modulepreload"');
    const escaped = page.replace('href="/assets/root-B.js"', 'href="/assets/root-B.js?v=1&amp;w=2"');
    expect(deferModuleGraph(escaped)).toContain('"/assets/root-B.js?v=1&w=2"');
  });

  it('leaves a page without the module script, or with an import it does not know, as it was', () => {
    const plain = '<html><head><link rel="modulepreload" href="/a.js"/></head><body>Hi</body></html>';
    expect(deferModuleGraph(plain)).toBe(plain);
    const other = page.replace('import * as route1 from "/assets/home-C.js";', 'import "/@vite/client";');
    expect(deferModuleGraph(other)).toBe(other);
  });

  it('streams: a script or a character split between chunks comes out whole, and what follows passes on', async () => {
    const bytes = Buffer.from(page, 'utf8');
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 7) chunks.push(bytes.subarray(at, at + 7));
    const streamed = await text(Readable.from(chunks).pipe(deferModuleGraphStream()));
    expect(streamed).toBe(deferModuleGraph(page));
    const withoutScript = new Readable({ read() {} });
    const out = withoutScript.pipe(deferModuleGraphStream());
    const firstOut = new Promise<string>((resolve) => out.once('data', (data: Buffer | string) => resolve(data.toString())));
    // A shell without the module script is not held to the end of the stream: it goes at </body>.
    withoutScript.push(Buffer.from('<html><body><main>Hi</main></body>'));
    expect(await firstOut).toBe('<html><body><main>Hi</main></body>');
    withoutScript.push(null);
    const plain = '<p>Kia ora — ā</p>';
    expect(await text(Readable.from([Buffer.from(plain).subarray(0, 15), Buffer.from(plain).subarray(15)]).pipe(deferModuleGraphStream()))).toBe(plain);
  });
});
