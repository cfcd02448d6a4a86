import type { AppLoadContext, LoaderFunctionArgs } from 'react-router';
import type { StylesheetReader } from './page-styles';

/**
 * What the server gives the pages' loaders (src/server/lib/render-pages.ts): the shop's own API,
 * called in process with the page request's cookie, answering the JSON the browser would get.
 */
export interface ShopLoadContext {
  /** GET `path`; rejects with the status for non-2xx, or resolves null for 401 with `on401: 'null'`. */
  api<T>(path: string, options?: { on401?: 'null' }): Promise<T>;
  /**
   * This response's Content-Security-Policy nonce for React Router's inline scripts; none for a
   * page kept in the page cache, whose scripts are allowed by their hashes instead.
   */
  nonce: string | undefined;
  /** The shop's clock (ms): what the page draws of time, such as a pre-order opening, goes by it. */
  now(): number;
  /** The shop's public address (PUBLIC_URL, else the request's origin) for canonical links and previews. */
  siteUrl: string;
  /** The build's stylesheet at `href`, to write into the page; undefined in development. */
  stylesheet: StylesheetReader;
}

declare module 'react-router' {
  interface AppLoadContext {
    api: ShopLoadContext['api'];
    nonce: ShopLoadContext['nonce'];
    siteUrl: ShopLoadContext['siteUrl'];
    now: ShopLoadContext['now'];
    stylesheet: ShopLoadContext['stylesheet'];
  }
}

/** A server loader's arguments, with the shop's load context typed. */
export type PageLoaderArgs = LoaderFunctionArgs<AppLoadContext>;
