import { dehydrate, type DehydratedState, HydrationBoundary, type QueryKey } from './query';
import type { ReactNode } from 'react';
import { type AppLoadContext, data, useLoaderData } from 'react-router';
import { apiRequest } from './api-client';
import './load-context';
import { makeQueryClient, queryClient } from './query-client';

/** One GET the page shows, under the query key its component reads it with. */
export interface PageQuery {
  queryKey: QueryKey;
  path: string;
  /** The page is about this one thing: when the API says 404, the page answers 404 (data null). */
  subject?: boolean;
}

export interface PageData {
  /** The queries the server filled, for the browser's cache (undefined after a client navigation). */
  dehydrated: DehydratedState | undefined;
}

/**
 * Document request (server): the page's queries are answered by the API in process and go into the
 * HTML. A query that fails is left out; the component shows its own error or fallback, as the
 * browser would, and the browser asks again.
 */
export async function loadOnServer(context: AppLoadContext, queries: PageQuery[]) {
  const client = makeQueryClient();
  let found = true;
  await Promise.all(
    queries.map(async ({ queryKey, path, subject }) => {
      try {
        client.setQueryData(queryKey, await context.api(path));
      } catch (error) {
        const status = (error as { status?: unknown }).status;
        if (!subject || (status !== 404 && status !== 400)) return;
        // Cached as "none", so the browser shows the page's not-found state without asking again.
        client.setQueryData(queryKey, null);
        found = false;
      }
    }),
  );
  return data<PageData>({ dehydrated: dehydrate(client) }, { status: found ? 200 : 404 });
}

/** Client navigation: the browser's cache is filled first, so the page renders whole, not in pieces. */
export async function loadInBrowser(queries: PageQuery[]): Promise<PageData> {
  await Promise.all(queries.map(({ queryKey, path }) => queryClient.ensureQueryData({ queryKey, queryFn: ({ signal }) => apiRequest(path, { signal }) }).catch(() => undefined)));
  return { dehydrated: undefined };
}

/** The route's page with the server's answers in the cache, so hydration fetches nothing again. */
export function WithPageData({ children }: { children: ReactNode }) {
  const data = useLoaderData() as PageData | undefined;
  return <HydrationBoundary state={data?.dehydrated}>{children}</HydrationBoundary>;
}
