import { createContext, type ReactNode, useContext, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { type FetchStatus, ignore, type Query, type QueryClient, type QueryFunction, type QueryState } from './cache';
import { type DehydratedState, hydrate } from './hydration';
import type { QueryKey } from './keys';

const ClientContext = createContext<QueryClient | undefined>(undefined);

export function QueryClientProvider({ client, children }: { client: QueryClient; children?: ReactNode }) {
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>;
}

export function useQueryClient(): QueryClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('No QueryClient set: wrap the app in <QueryClientProvider>');
  return client;
}

/** `placeholderData: keepPreviousData`: while a new key has no answer, show the last key's. */
export function keepPreviousData<T>(previousData: T): T {
  return previousData;
}

export interface UseQueryOptions<TData> {
  queryKey: QueryKey;
  queryFn: QueryFunction<TData>;
  /** `false`: never fetched (a placeholder is still shown). */
  enabled?: boolean;
  /** How long an answer counts as fresh, in ms: a component that appears within it does not ask again. */
  staleTime?: number;
  gcTime?: number;
  /** `false`: an existing answer is not asked again when a component appears; `'always'`: even a fresh one is. */
  refetchOnMount?: boolean | 'always';
  placeholderData?: typeof keepPreviousData;
  /** The cache never retries a failed fetch; `false` is accepted to say so where it matters. */
  retry?: false;
  /** Asks again this often (ms) while shown and the page is visible; `false` stops. */
  refetchInterval?: number | false | ((query: Query<TData>) => number | false | undefined);
}

interface ResultBase {
  fetchStatus: FetchStatus;
  isFetching: boolean;
  isPlaceholderData: boolean;
  dataUpdatedAt: number;
  refetch: () => Promise<unknown>;
}

export type UseQueryResult<TData> =
  | (ResultBase & { status: 'pending'; data: undefined; error: null; isPending: true; isError: false; isSuccess: false })
  | (ResultBase & { status: 'error'; data: TData | undefined; error: Error; isPending: false; isError: true; isSuccess: false })
  | (ResultBase & { status: 'success'; data: TData; error: null; isPending: false; isError: false; isSuccess: true });

/**
 * What one component's `useQuery` remembers between renders: the query it last showed (and whether
 * it still does), the last answer it showed (for `keepPreviousData`) and its committed options.
 * Written only from effects, so a render React throws away leaves nothing behind.
 */
export class Watcher<TData> {
  private shown: { query: Query<TData>; enabled: boolean; attached: boolean } | null = null;
  private lastData: { data: TData } | null = null;
  private options: UseQueryOptions<TData>;
  /** This component, as the queries it shows see it. */
  readonly observer = { enabled: true };

  constructor(options: UseQueryOptions<TData>) {
    this.options = options;
  }

  /** After a commit: the options the next fetch and poll use, and the answer now on screen. */
  committed(query: Query<TData>, options: UseQueryOptions<TData>, result: UseQueryResult<TData>): void {
    this.options = options;
    query.use(options.queryFn, options.gcTime);
    if (!result.isPlaceholderData && result.data !== undefined) this.lastData = { data: result.data };
  }

  latest(): UseQueryOptions<TData> {
    return this.options;
  }

  /**
   * Whether showing `query` with these options starts a fetch: when it appears (first shown, or shown
   * again after it was let go) and has no answer or an out-of-date one (as `refetchOnMount` says); on
   * a new key, or once enabled, when out of date.
   */
  fetchesOn(query: Query<TData>, enabled: boolean, options: UseQueryOptions<TData>): boolean {
    if (!enabled) return false;
    const staleTime = options.staleTime ?? 0;
    const shown = this.shown;
    if (shown && shown.query !== query) return query.isStale(staleTime);
    if (shown === null || !shown.attached) {
      if (query.state.data === undefined) return true;
      const onMount = options.refetchOnMount ?? true;
      return onMount === 'always' || (onMount !== false && query.isStale(staleTime));
    }
    return !shown.enabled && query.isStale(staleTime);
  }

  /** The component shows `query` now: whether to fetch. */
  attach(query: Query<TData>, enabled: boolean): boolean {
    const fetch = this.fetchesOn(query, enabled, this.options);
    this.shown = { query, enabled, attached: true };
    this.observer.enabled = enabled;
    return fetch;
  }

  /** `enabled` changed while shown: whether to fetch now (a fetch under way goes on either way). */
  enable(query: Query<TData>, enabled: boolean): boolean {
    if (!this.shown || this.shown.query !== query || this.shown.enabled === enabled) return false;
    const fetch = this.fetchesOn(query, enabled, this.options);
    this.shown = { ...this.shown, enabled };
    this.observer.enabled = enabled;
    return fetch;
  }

  /** The component let `query` go (unmounted, or a new key): showing it again counts as appearing. */
  detach(): void {
    if (this.shown) this.shown = { ...this.shown, attached: false };
  }

  result(query: Query<TData>, state: QueryState<TData>, fetchesNow: boolean, options: UseQueryOptions<TData>): UseQueryResult<TData> {
    let { status, data, error } = state;
    const fetchStatus: FetchStatus = fetchesNow ? 'fetching' : state.fetchStatus;
    if (fetchesNow && data === undefined) {
      status = 'pending';
      error = null;
    }
    let isPlaceholderData = false;
    if (status === 'pending' && data === undefined && options.placeholderData === keepPreviousData && this.lastData) {
      data = this.lastData.data;
      status = 'success';
      isPlaceholderData = true;
    }
    const queryFn = options.queryFn;
    const base: ResultBase = {
      fetchStatus,
      isFetching: fetchStatus === 'fetching',
      isPlaceholderData,
      dataUpdatedAt: state.dataUpdatedAt,
      refetch: () => query.fetch(queryFn, { cancelRefetch: true }).catch(ignore),
    };
    if (status === 'success') return { ...base, status, data: data as TData, error: null, isPending: false, isError: false, isSuccess: true };
    if (status === 'error') return { ...base, status, data, error: error ?? new Error('The request failed'), isPending: false, isError: true, isSuccess: false };
    return { ...base, status: 'pending', data: undefined, error: null, isPending: true, isError: false, isSuccess: false };
  }

  /** How long until the next poll, or nothing. */
  pollEvery(query: Query<TData>): number | undefined {
    const every = this.options.refetchInterval;
    const ms = typeof every === 'function' ? every(query) : every;
    return ms && ms > 0 ? ms : undefined;
  }
}

/**
 * The answer for `queryKey`, fetched when it is not in the cache or out of date. On the server it
 * only reads the cache (what the page's loader put there); fetches start once the page is live.
 */
export function useQuery<TData>(options: UseQueryOptions<TData>): UseQueryResult<TData> {
  const client = useQueryClient();
  const query = client.getQueryCache().build<TData>(options.queryKey);
  const enabled = options.enabled !== false;
  const state = useSyncExternalStore(query.subscribe, query.getState, query.getState);
  const [watcher] = useState(() => new Watcher<TData>(options));
  // What the effects below will do, so this render already says "fetching" (the server's says the same).
  const fetchesNow = watcher.fetchesOn(query, enabled, options);
  const result = watcher.result(query, state, fetchesNow, options);

  // First, so the effects after it in this commit use this render's options.
  useEffect(() => watcher.committed(query, options, result));

  useEffect(() => {
    const stop = query.observe(watcher.observer);
    if (watcher.attach(query, enabled)) query.fetch(watcher.latest().queryFn).catch(ignore);
    return () => {
      stop();
      watcher.detach();
    };
    // `enabled` is read for the first showing only; later changes are the next effect's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [watcher, query]);

  useEffect(() => {
    if (watcher.enable(query, enabled)) query.fetch(watcher.latest().queryFn).catch(ignore);
  }, [watcher, query, enabled]);

  const polls = enabled && options.refetchInterval !== undefined && options.refetchInterval !== false;
  useEffect(() => {
    if (!polls) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      const ms = watcher.pollEvery(query);
      if (ms === undefined) return;
      timer = setTimeout(() => {
        if (document.visibilityState === 'hidden') schedule();
        else query.fetch(watcher.latest().queryFn).catch(ignore);
      }, ms);
    };
    schedule();
    const stop = query.subscribe(() => {
      if (query.state.fetchStatus === 'idle') schedule();
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [watcher, query, polls]);

  return result;
}

/**
 * Puts the server's answers into the cache while rendering, so the page shows them at once: new
 * keys at once, keys already cached only when the server's answer is newer (after the render).
 */
export function HydrationBoundary({ state, children }: { state: DehydratedState | undefined; children?: ReactNode }) {
  const client = useQueryClient();
  const later = useMemo(() => {
    if (!state) return undefined;
    const cache = client.getQueryCache();
    const cached = state.queries.filter((one) => cache.get(one.queryHash));
    hydrate(client, { queries: state.queries.filter((one) => !cache.get(one.queryHash)) });
    // Keys already shown are updated after the render; `hydrate` keeps the newer answer.
    return cached.length ? cached : undefined;
  }, [client, state]);
  useEffect(() => {
    if (later) hydrate(client, { queries: later });
  }, [client, later]);
  return <>{children}</>;
}
