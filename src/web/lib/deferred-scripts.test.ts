import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { deferModuleGraph, deferModuleGraphStream } from './deferred-scripts';

const page = [
  '<html><head><link rel="modulepreload" href="/assets/entry.client-A.js"/><link rel="modulepreload" href="/assets/root-B.js"/><style>body{}</style></head>',
  '<body><main>Mangoes — ā</main><script>window.__reactRouterContext = {};</script>',
  '<script type="module" async="" nonce="n0nce">;\nimport * as route0 from "/assets/root-B.js";\nimport * as route1 from "/assets/home-C.js";\n',
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
    expect(html).toContain('<script type="module" async="" nonce="n0nce">const start=()=>{for(const href of ["/assets/entry.client-A.js","/assets/root-B.js"])');
    expect(html).toContain('Promise.all([import("/assets/root-B.js"),import("/assets/home-C.js")]).then(([route0,route1])=>{');
    expect(html).toContain('window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};');
    expect(html).toContain('import("/assets/entry.client-A.js");});};requestAnimationFrame(()=>setTimeout(start,0));</script><!--$?-->');
  });

  it('runs: the routes are imported, then the manifest is set and the entry imported, in that order', async () => {
    const body = /<script type="module" async="" nonce="n0nce">(.*?)<\/script>/s.exec(deferModuleGraph(page))![1]!;
    const seen: string[] = [];
    const links: string[] = [];
    const window: Record<string, unknown> = {};
    let frame: (() => void) | undefined;
    const run = new Function('window', 'document', 'requestAnimationFrame', 'setTimeout', 'load', body.replaceAll('import(', 'load('));
    run(
      window,
      { createElement: () => ({}), head: { append: (link: { href: string }) => links.push(link.href) } },
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
    const plain = '<p>Kia ora — ā</p>';
    expect(await text(Readable.from([Buffer.from(plain).subarray(0, 15), Buffer.from(plain).subarray(15)]).pipe(deferModuleGraphStream()))).toBe(plain);
  });
});
