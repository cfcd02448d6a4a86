import { Transform, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * React Router's <Scripts> asks for the whole module graph while the page is still arriving: a
 * <link rel="modulepreload"> per file (React hoists them into <head>, ahead of the styles) and a
 * module script whose static imports fetch the route modules at once. On a phone's connection those
 * 40-odd requests share the line with the fonts and the first images, and the first paint waits
 * for them. Rewritten here, the page paints first and asks for its code right after that first
 * frame: the same preloads and the same script body, started from one small inline module
 * (decision 0024). Hydration starts a frame later; nothing else changes.
 */

const modulePreload = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
const moduleScript = /<script type="module" async=""((?: nonce="[^"]*")?)>([\s\S]*?)<\/script>/;
const staticImport = /^\s*import \* as (\w+) from ("[^"]+");\s*$/gm;

/**
 * The page's HTML with its module graph started after the first paint, or unchanged when it has
 * no React Router module script (or one this rewrite does not know: then nothing is touched).
 */
export function deferModuleGraph(html: string): string {
  const script = moduleScript.exec(html);
  if (!script) return html;
  const [whole, nonce = '', body = ''] = script;
  const routes: Array<{ name: string; url: string }> = [];
  const rest = body.replace(staticImport, (_line, name: string, url: string) => {
    routes.push({ name, url });
    return '';
  });
  // Only `import * as routeN from "..."` lines are expected; any other static import would be
  // hoisted out of the function below, so such a script is left as React Router wrote it.
  if (/^\s*import\s[^(]/m.test(rest) || !routes.length) return html;
  const preloads: string[] = [];
  const withoutPreloads = html.replace(modulePreload, (_link, href: string) => {
    preloads.push(href);
    return '';
  });
  const deferred =
    `<script type="module" async=""${nonce}>` +
    `const start=()=>{for(const href of ${JSON.stringify(preloads)}){const link=document.createElement("link");link.rel="modulepreload";link.href=href;document.head.append(link);}` +
    `Promise.all([${routes.map((route) => `import(${route.url})`).join(',')}]).then(([${routes.map((route) => route.name).join(',')}])=>{${rest}});};` +
    // The callback of the first frame runs before it is painted; a task queued from it runs after.
    `requestAnimationFrame(()=>setTimeout(start,0));</script>`;
  return withoutPreloads.replace(whole, () => deferred);
}

/**
 * The streamed page through deferModuleGraph: held until React Router's module script has passed
 * (it ends the shell, which React writes in one go), then sent on, and the rest as it comes.
 */
export function deferModuleGraphStream(): Transform {
  // Decoded as a whole, so a character split between two chunks is never cut.
  const decoder = new StringDecoder('utf8');
  let held: string | undefined = '';
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      const text = decoder.write(chunk);
      if (held === undefined) return callback(null, text);
      held += text;
      if (!moduleScript.test(held)) return callback();
      const page = deferModuleGraph(held);
      held = undefined;
      callback(null, page);
    },
    flush(callback: TransformCallback) {
      const text = (held ?? '') + decoder.end();
      callback(null, held === undefined ? text : deferModuleGraph(text));
    },
  });
}
