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
const staticImport = /^\s*import \* as (\w+) from ("[^"]+");\s*$/gm;

/** React Router's module script: `type="module"` and `async`, in whatever order React wrote them (a nonce comes first). */
function isModuleScript(attributes: string): boolean {
  return /\stype="module"/.test(attributes) && /\sasync=""/.test(attributes) && !/\ssrc=/.test(attributes);
}

interface ScriptTag {
  /** The whole element, from `<script` to `</script>`. */
  whole: string;
  attributes: string;
  body: string;
}

type Scan = { found: ScriptTag } | { found: undefined; resumeAt: number };

/**
 * Looks for React Router's module script from `from` on. Without it, says where a later look (with
 * more of the page) must start: at a script not yet closed, or just before a tag cut at the end.
 */
function findModuleScript(html: string, from = 0): Scan {
  for (let at = from; ; ) {
    const open = html.indexOf('<script', at);
    if (open === -1) return { found: undefined, resumeAt: Math.max(at, html.length - '<script'.length) };
    const close = html.indexOf('</script>', open);
    if (close === -1) return { found: undefined, resumeAt: open };
    const startEnd = html.indexOf('>', open);
    const attributes = html.slice(open + '<script'.length, startEnd);
    if (isModuleScript(attributes)) {
      return { found: { whole: html.slice(open, close + '</script>'.length), attributes, body: html.slice(startEnd + 1, close) } };
    }
    at = close + '</script>'.length;
  }
}

/** An attribute's text as HTML escaped it, back to what it says. */
function unescapeAttribute(value: string): string {
  return value.replaceAll('&quot;', '"').replaceAll('&#x27;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/**
 * The page's HTML with its module graph started after the first paint, or unchanged when it has
 * no React Router module script (or one this rewrite does not know: then nothing is touched).
 */
export function deferModuleGraph(html: string, script = findModuleScript(html).found): string {
  if (!script) return html;
  const { whole, attributes, body } = script;
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
    `if(document.visibilityState==="hidden")start();else requestAnimationFrame(()=>setTimeout(start,0));</script>`;
  return withoutPreloads.replace(whole, () => deferred);
}

/** How much of a page is held at most while looking for the module script: then it goes on unchanged. */
const holdLimit = 4 * 1024 * 1024;

/**
 * The streamed page through deferModuleGraph: held until React Router's module script has passed
 * (it ends the shell, which React writes in one go), then sent on, and the rest as it comes. React
 * writes into this stream itself, so when the shopper leaves and it is destroyed, React stops.
 */
export function deferModuleGraphStream(): Transform {
  // Decoded as a whole, so a character split between two chunks is never cut.
  const decoder = new StringDecoder('utf8');
  let held: string | undefined = '';
  // Where to look on for the script: the text before it has been looked at.
  let resumeAt = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      const text = decoder.write(chunk);
      if (held === undefined) return callback(null, text);
      held += text;
      const scan = findModuleScript(held, resumeAt);
      if (scan.found) {
        const page = deferModuleGraph(held, scan.found);
        held = undefined;
        return callback(null, page);
      }
      resumeAt = scan.resumeAt;
      // No module script in the shell after all (or a page far bigger than any of ours): sent on as it is.
      if (held.length > holdLimit || held.includes('</body>', held.length - text.length - '</body>'.length)) {
        const page = held;
        held = undefined;
        return callback(null, page);
      }
      callback();
    },
    flush(callback: TransformCallback) {
      const text = (held ?? '') + decoder.end();
      callback(null, held === undefined ? text : deferModuleGraph(text));
    },
  });
}
