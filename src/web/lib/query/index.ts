/**
 * The shop's query cache: the part of a data-fetching library the pages use (keyed answers shared
 * across components, freshness, invalidation by key prefix, server answers carried into the page,
 * mutations in ./mutation), small enough for the first view. See docs/decisions/0037-own-query-cache.md.
 */
export { CancelledError, QueryClient, type QueryFunction, type QueryFunctionContext, type QueryState } from './cache';
export { type DehydratedState, dehydrate, hydrate } from './hydration';
export type { QueryKey } from './keys';
export { HydrationBoundary, keepPreviousData, QueryClientProvider, useQuery, useQueryClient, type UseQueryOptions, type UseQueryResult } from './react';
