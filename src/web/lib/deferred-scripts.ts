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
const scriptTag = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;
const staticImport = /^\s*import \* as (\w+) from ("[^"]+");\s*$/gm;

/** React Router's module script: `type="module"` and `async`, in whatever order React wrote them (a nonce comes first). */
function isModuleScript(attributes: string): boolean {
  return /\stype="module"/.test(attributes) && /\sasync=""/.test(attributes) && !/\ssrc=/.test(attributes);
}

/** An attribute's text as HTML escaped it, back to what it says. */
function unescapeAttribute(value: string): string {
  return value.replaceAll('&quot;', '"').replaceAll('&#x27;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/**
 * The page's HTML with its module graph started after the first paint, or unchanged when it has
 * no React Router module script (or one this rewrite does not know: then nothing is touched).
 */
export function deferModuleGraph(html: string): string {
  const script = [...html.matchAll(scriptTag)].find(([, attributes = '']) => isModuleScript(attributes));
  if (!script) return html;
  const [whole, attributes = '', body = ''] = script;
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
    preloads.push(unescapeAttribute(href));
    return '';
  });
  const deferred =
    `<script${attributes}>` +
    `const start=()=>{for(const href of ${JSON.stringify(preloads).replaceAll('<', '\\u003c')}){const link=document.createElement("link");link.rel="modulepreload";link.href=href;document.head.append(link);}` +
    `Promise.all([${routes.map((route) => `import(${route.url})`).join(',')}]).then(([${routes.map((route) => route.name).join(',')}])=>{${rest}}).catch((error)=>console.error("Mango Shop: the page's code did not load",error));};` +
    // The callback of the first frame runs before it is painted; a task queued from it runs after.
    // A page opened in a background tab paints nothing and runs no frames: it starts at once.
    `let started=false;const once=()=>{if(!started){started=true;start();}};` +
    `if(document.visibilityState==="hidden")once();else requestAnimationFrame(()=>setTimeout(once,0));</script>`;
  return withoutPreloads.replace(whole, () => deferred);
}

/** How much of a page is held at most while looking for the module script: then it goes on unchanged. */
const holdLimit = 4 * 1024 * 1024;

/**
 * The streamed page through deferModuleGraph: held until React Router's module script has passed
 * (it ends the shell, which React writes in one go), then sent on, and the rest as it comes.
 */
export function deferModuleGraphStream(): Transform {
  // Decoded as a whole, so a character split between two chunks is never cut.
  const decoder = new StringDecoder('utf8');
  let held: string | undefined = '';
  // Where to look on for the next script tag: the text before it has been looked at.
  let searchFrom = 0;
  const release = (stream: Transform, text: string) => {
    held = undefined;
    stream.push(text);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      const text = decoder.write(chunk);
      if (held === undefined) return callback(null, text);
      held += text;
      for (;;) {
        const open = held.indexOf('<script', searchFrom);
        if (open === -1) {
          // A tag may be cut at the chunk's end: look again from just before it.
          searchFrom = Math.max(searchFrom, held.length - '<script'.length);
          break;
        }
        const close = held.indexOf('</script>', open);
        if (close === -1) {
          searchFrom = open;
          break;
        }
        const attributes = held.slice(open + '<script'.length, held.indexOf('>', open));
        if (isModuleScript(attributes)) {
          release(this, deferModuleGraph(held));
          return callback();
        }
        searchFrom = close + '</script>'.length;
      }
      // No module script in the shell after all (or a page far bigger than any of ours): sent on as it is.
      if (held.length > holdLimit || held.includes('</body>')) release(this, held);
      callback();
    },
    flush(callback: TransformCallback) {
      const text = (held ?? '') + decoder.end();
      callback(null, held === undefined ? text : deferModuleGraph(text));
    },
  });
}
