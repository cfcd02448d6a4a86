import type { QueryClient, QueryState } from './cache';
import type { QueryKey } from './keys';

/** The answers a server render used, as they travel in the page to the browser's cache. */
export interface DehydratedState {
  queries: Array<{ queryKey: QueryKey; queryHash: string; state: QueryState }>;
}

/** Every answered query (errors and pending ones stay behind: the browser asks for them itself). */
export function dehydrate(client: QueryClient): DehydratedState {
  return {
    queries: client
      .getQueryCache()
      .findAll()
      .filter((query) => query.state.status === 'success')
      .map((query) => ({ queryKey: query.queryKey, queryHash: query.queryHash, state: { ...query.state, fetchStatus: 'idle' } })),
  };
}

/** Stores the server's answers; a cached answer is replaced only by a newer one. */
export function hydrate(client: QueryClient, state: DehydratedState | undefined): void {
  const cache = client.getQueryCache();
  for (const { queryKey, queryHash, state: answered } of state?.queries ?? []) {
    const cached = cache.get(queryHash);
    if (!cached) {
      cache.build(queryKey, { ...answered, fetchStatus: 'idle' }, queryHash);
      continue;
    }
    if (cached.state.dataUpdatedAt < answered.dataUpdatedAt) cached.setState({ ...answered, fetchStatus: cached.state.fetchStatus });
  }
}
