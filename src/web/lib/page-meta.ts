import type { QueryKey } from './query';
import type { MetaArgs, MetaDescriptor } from 'react-router';
import type { PageData } from './page-data';
import { pageTitle } from './page-title';
import { queryClient } from './query-client';

export const shopDescription =
  'Premium Indian mangoes (Alphonso, Kesar, Banganapalli and more) delivered fresh across New Zealand. Pre-order the new season, $12 flat shipping.';

/** The shop's public address, which the root loader took from the server (PUBLIC_URL). */
export function siteUrlOf(matches: MetaArgs['matches']): string {
  const root = matches.find((match) => match?.id === 'root')?.data as { siteUrl?: string } | undefined;
  return root?.siteUrl ?? '';
}

function sameKey(a: QueryKey, b: QueryKey): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A query's answer for a route's head: from the server's data on a document request, from the
 * browser's cache (filled by the clientLoader) after a client navigation. null when there is none
 * (the API said 404, or the browser's request failed), undefined when unknown.
 */
export function queryDataOf<T>(data: unknown, queryKey: QueryKey): T | null | undefined {
  const dehydrated = (data as PageData | undefined)?.dehydrated;
  if (dehydrated) return dehydrated.queries.find((query) => sameKey(query.queryKey, queryKey))?.state.data as T | null | undefined;
  if (typeof window === 'undefined') return undefined;
  return queryClient.getQueryState(queryKey)?.status === 'error' ? null : queryClient.getQueryData<T | null>(queryKey);
}

interface PageHead {
  /** The page's name before ' | Premium Mangoes Delivered Fresh'; the home page has none. */
  name?: string;
  description?: string;
  /** Pages that are not for search results (not found, sign-in, maintenance). */
  noindex?: boolean;
}

/** Title, description and the canonical address (PUBLIC_URL + path, without the query). */
export function pageMeta({ matches, location }: Pick<MetaArgs, 'matches' | 'location'>, head: PageHead = {}): MetaDescriptor[] {
  const siteUrl = siteUrlOf(matches);
  return [
    { title: pageTitle(head.name) },
    { name: 'description', content: head.description ?? shopDescription },
    head.noindex ? { name: 'robots', content: 'noindex' } : { tagName: 'link', rel: 'canonical', href: canonicalUrl(siteUrl, location.pathname) },
  ];
}

/**
 * The page's one address: the router draws `//` and `/shop//` as `/` and `/shop`, and a path that
 * starts with `//` read as a relative URL would name another host (or none: a thrown error).
 */
function canonicalUrl(siteUrl: string | undefined, pathname: string): string {
  const url = new URL(siteUrl || 'http://localhost');
  url.pathname = pathname.replace(/\/{2,}/g, '/');
  return url.toString();
}
