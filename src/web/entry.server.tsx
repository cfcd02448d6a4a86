import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { renderToPipeableStream } from 'react-dom/server';
import { type AppLoadContext, type EntryContext, ServerRouter } from 'react-router';
import { deferModuleGraphStream } from './lib/deferred-scripts';
import { NonceContext } from './lib/nonce';
import { StylesheetContext } from './lib/page-styles';

export const streamTimeout = 5_000;

/** Streams the page: the shell goes as soon as it is ready, Suspense boundaries follow. */
export default function handleRequest(request: Request, status: number, headers: Headers, routerContext: EntryContext, loadContext: AppLoadContext) {
  const { nonce } = loadContext;
  if (request.method.toUpperCase() === 'HEAD') return new Response(null, { status, headers });
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timeout: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <StylesheetContext.Provider value={loadContext.stylesheet}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </StylesheetContext.Provider>
      </NonceContext.Provider>,
      {
      nonce,
      onShellReady() {
        shellRendered = true;
        // The built shop paints before it fetches its code (decision 0024); development keeps Vite's own scripts.
        const body = import.meta.env.PROD ? deferModuleGraphStream() : new PassThrough();
        body.once('finish', () => {
          clearTimeout(timeout);
          timeout = undefined;
        });
        headers.set('Content-Type', 'text/html; charset=utf-8');
        pipe(body);
        resolve(new Response(createReadableStreamFromReadable(body), { headers, status }));
      },
      onShellError: reject,
      onError(error) {
        status = 500;
        if (shellRendered) console.error(error);
      },
    });
  });
}
