import { hashKey, keepEqualParts, type QueryKey, startsWith } from './keys';

export type QueryStatus = 'pending' | 'error' | 'success';
export type FetchStatus = 'idle' | 'fetching';

export interface QueryState<TData = unknown> {
  /** The last answer; `null` is an answer ("none"), only `undefined` means there is none yet. */
  data: TData | undefined;
  dataUpdatedAt: number;
  /** Answers stored so far, fetched or set. */
  dataUpdateCount: number;
  error: Error | null;
  errorUpdatedAt: number;
  status: QueryStatus;
  fetchStatus: FetchStatus;
  /** Marked out of date by `invalidateQueries`: asked again whatever its `staleTime`. */
  isInvalidated: boolean;
}

export interface QueryFunctionContext {
  queryKey: QueryKey;
  /** Aborted when nobody shows the answer any more, or when a newer fetch replaces this one. */
  signal: AbortSignal;
}

export type QueryFunction<TData> = (context: QueryFunctionContext) => Promise<TData>;

/** A fetch that was called off: whoever waits for it gets this, and the query never shows it as an error. */
export class CancelledError extends Error {
  constructor() {
    super('The request was called off');
    this.name = 'CancelledError';
  }
}

const isServer = typeof window === 'undefined';
/** How long an answer nobody shows is kept: 5 minutes in the browser; for the request's lifetime on the server. */
const defaultGcTime = isServer ? Infinity : 5 * 60_000;

export function ignore(): void {
  // A promise whose failure is seen elsewhere (the query's state, `onError`).
}

function emptyState<TData>(): QueryState<TData> {
  return { data: undefined, dataUpdatedAt: 0, dataUpdateCount: 0, error: null, errorUpdatedAt: 0, status: 'pending', fetchStatus: 'idle', isInvalidated: false };
}

interface Run<TData> {
  promise: Promise<TData>;
  controller: AbortController;
  signalRead: boolean;
  called: boolean;
  before: QueryState<TData>;
  reject: (reason: unknown) => void;
}

/** Something on screen showing a query: whether it may fetch decides whether an invalidation refetches now. */
export interface QueryObserver {
  enabled: boolean;
}

/** One key's answer, who shows it, and the fetch under way. */
export class Query<TData = unknown> {
  state: QueryState<TData>;
  queryFn: QueryFunction<TData> | undefined;
  gcTime = defaultGcTime;
  private readonly listeners = new Set<() => void>();
  private readonly observers = new Set<QueryObserver>();
  private run: Run<TData> | undefined;
  private gcTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly cache: QueryCache,
    readonly queryKey: QueryKey,
    readonly queryHash: string,
    state?: QueryState<TData>,
  ) {
    this.state = state ?? emptyState<TData>();
    this.scheduleGc();
  }

  /** For `useSyncExternalStore`: called on every change of `state`. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getState = (): QueryState<TData> => this.state;

  /** The latest options of the components showing it: their query function, and the longest time to keep it. */
  use(queryFn: QueryFunction<TData>, gcTime: number | undefined): void {
    this.queryFn = queryFn;
    if (gcTime !== undefined) this.gcTime = Math.max(this.gcTime, gcTime);
  }

  setState(state: QueryState<TData>): void {
    this.state = state;
    for (const listener of [...this.listeners]) listener();
  }

  observe(observer: QueryObserver): () => void {
    this.observers.add(observer);
    clearTimeout(this.gcTimer);
    return () => {
      this.observers.delete(observer);
      if (this.observers.size > 0) return;
      // Nobody shows it any more: a fetch that can be aborted is, and the query is as it was before it.
      if (this.run?.signalRead) this.cancel({ revert: true });
      this.scheduleGc();
    };
  }

  /** Shown by something that may fetch it now. */
  isActive(): boolean {
    for (const observer of this.observers) if (observer.enabled) return true;
    return false;
  }

  isStale(staleTime: number): boolean {
    const { data, isInvalidated, dataUpdatedAt } = this.state;
    return data === undefined || isInvalidated || Date.now() - dataUpdatedAt >= staleTime;
  }

  setData(data: TData, updatedAt = Date.now()): void {
    this.setState({
      ...this.state,
      data: keepEqualParts(this.state.data, data),
      dataUpdatedAt: updatedAt,
      dataUpdateCount: this.state.dataUpdateCount + 1,
      error: null,
      status: 'success',
      isInvalidated: false,
    });
  }

  /**
   * Asks for the answer. A fetch already under way is shared, unless `cancelRefetch` and the query
   * already has an answer: then it is called off and a new one starts (the old one may be out of date).
   */
  fetch(queryFn?: QueryFunction<TData>, options: { cancelRefetch?: boolean } = {}): Promise<TData> {
    if (queryFn) this.queryFn = queryFn;
    if (this.run) {
      if (options.cancelRefetch && this.state.data !== undefined) this.cancel({ revert: false });
      else return this.run.promise;
    }
    const fn = this.queryFn;
    if (!fn) return Promise.reject(new Error(`No query function for ${this.queryHash}`));
    const controller = new AbortController();
    const run = { controller, signalRead: false, called: false, before: this.state } as Run<TData>;
    const context: QueryFunctionContext = {
      queryKey: this.queryKey,
      get signal() {
        run.signalRead = true;
        return controller.signal;
      },
    };
    run.promise = new Promise<TData>((resolve, reject) => {
      run.reject = reject;
      // Called at once, so a component that goes in the same moment can still abort the request.
      let answer: Promise<TData>;
      try {
        answer = Promise.resolve(fn(context));
      } catch (error) {
        answer = Promise.reject(error as Error);
      }
      answer.then(
        (data) => {
          if (run.called) return;
          this.run = undefined;
          this.state = { ...this.state, fetchStatus: 'idle' };
          this.setData(data);
          if (this.observers.size === 0) this.scheduleGc();
          resolve(this.state.data as TData);
        },
        (error: unknown) => {
          if (run.called) return;
          this.run = undefined;
          if (this.observers.size === 0) this.scheduleGc();
          // A failed refetch keeps the last answer beside the error.
          this.setState({ ...this.state, error: error as Error, errorUpdatedAt: Date.now(), status: 'error', fetchStatus: 'idle' });
          reject(error);
        },
      );
    });
    run.promise.catch(ignore);
    this.run = run;
    // Without an answer yet, the query is back to pending: its last error is no longer shown.
    this.setState({ ...this.state, fetchStatus: 'fetching', ...(this.state.data === undefined ? { error: null, status: 'pending' as const } : {}) });
    return run.promise;
  }

  /** Calls off the fetch under way: aborted first (so the request knows), then its waiters told. */
  cancel({ revert }: { revert: boolean }): void {
    const run = this.run;
    if (!run) return;
    run.called = true;
    this.run = undefined;
    run.controller.abort();
    this.setState(revert ? { ...run.before, fetchStatus: 'idle' } : { ...this.state, fetchStatus: 'idle' });
    run.reject(new CancelledError());
  }

  private scheduleGc(): void {
    clearTimeout(this.gcTimer);
    if (!Number.isFinite(this.gcTime)) return;
    // A fetch still under way when the time is up schedules this again when it settles.
    this.gcTimer = setTimeout(() => {
      if (this.observers.size === 0 && !this.run) this.cache.remove(this);
    }, this.gcTime);
  }

  /** Taken out of the cache: nothing more happens to it. */
  destroy(): void {
    clearTimeout(this.gcTimer);
    this.cancel({ revert: false });
  }
}

export interface QueryFilters {
  queryKey?: QueryKey;
  /** Only the query with exactly this key, not those under it. */
  exact?: boolean;
}

export class QueryCache {
  private readonly queries = new Map<string, Query<unknown>>();

  build<TData>(queryKey: QueryKey, state?: QueryState<TData>, queryHash = hashKey(queryKey)): Query<TData> {
    let query = this.queries.get(queryHash) as Query<TData> | undefined;
    if (!query) {
      query = new Query<TData>(this, queryKey, queryHash, state);
      this.queries.set(queryHash, query as Query<unknown>);
    }
    return query;
  }

  get<TData>(queryHash: string): Query<TData> | undefined {
    return this.queries.get(queryHash) as Query<TData> | undefined;
  }

  find<TData>(queryKey: QueryKey): Query<TData> | undefined {
    return this.get<TData>(hashKey(queryKey));
  }

  findAll(filters: QueryFilters = {}): Array<Query<unknown>> {
    const all = [...this.queries.values()];
    const { queryKey, exact } = filters;
    if (!queryKey) return all;
    if (exact) {
      const hash = hashKey(queryKey);
      return all.filter((query) => query.queryHash === hash);
    }
    return all.filter((query) => startsWith(query.queryKey, queryKey));
  }

  remove(query: Query<unknown>): void {
    if (this.queries.get(query.queryHash) !== query) return;
    this.queries.delete(query.queryHash);
    query.destroy();
  }
}

export interface FetchQueryOptions<TData> {
  queryKey: QueryKey;
  queryFn: QueryFunction<TData>;
}

/**
 * The shop's query cache: answers by key, shared by every component that shows them. No retries
 * and no refetch on focus or reconnect: a failed request shows its error, and the shopper asks again.
 */
export class QueryClient {
  private readonly queryCache = new QueryCache();

  getQueryCache(): QueryCache {
    return this.queryCache;
  }

  getQueryData<TData>(queryKey: QueryKey): TData | undefined {
    return this.queryCache.find<TData>(queryKey)?.state.data;
  }

  getQueryState<TData>(queryKey: QueryKey): QueryState<TData> | undefined {
    return this.queryCache.find<TData>(queryKey)?.state;
  }

  /** Stores an answer as if fetched now; `undefined` stores nothing. */
  setQueryData<TData>(queryKey: QueryKey, data: TData | undefined): TData | undefined {
    if (data === undefined) return undefined;
    const query = this.queryCache.build<TData>(queryKey);
    query.setData(data);
    return query.state.data;
  }

  /** The answer in the cache, even an out-of-date one; fetched only when there is none. */
  async ensureQueryData<TData>({ queryKey, queryFn }: FetchQueryOptions<TData>): Promise<TData> {
    const query = this.queryCache.build<TData>(queryKey);
    if (query.state.data !== undefined) return query.state.data;
    return query.fetch(queryFn);
  }

  /**
   * Marks the matching answers out of date; those on screen now are fetched again at once (a fetch
   * under way for them is replaced), the others when next shown. Never rejects.
   */
  async invalidateQueries(filters: QueryFilters = {}): Promise<void> {
    const matching = this.queryCache.findAll(filters);
    for (const query of matching) query.setState({ ...query.state, isInvalidated: true });
    await Promise.all(matching.filter((query) => query.isActive()).map((query) => query.fetch(undefined, { cancelRefetch: true }).catch(ignore)));
  }

  removeQueries(filters: QueryFilters = {}): void {
    for (const query of this.queryCache.findAll(filters)) this.queryCache.remove(query);
  }
}
