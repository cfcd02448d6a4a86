import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import {
  type FetchStatus,
  ignore,
  Mutation,
  type MutationOptions,
  type MutationState,
  type Query,
  QueryClient,
  type QueryFunction,
  type QueryState,
} from "./cache";
import { type DehydratedState, hydrate } from "./hydration";
import type { QueryKey } from "./keys";

const ClientContext = createContext<QueryClient | undefined>(undefined);

export function QueryClientProvider({
  client,
  children,
}: {
  client: QueryClient;
  children?: ReactNode;
}) {
  return (
    <ClientContext.Provider value={client}>{children}</ClientContext.Provider>
  );
}

export function useQueryClient(): QueryClient {
  const client = useContext(ClientContext);
  if (!client)
    throw new Error(
      "No QueryClient set: wrap the app in <QueryClientProvider>",
    );
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
  refetchOnMount?: boolean | "always";
  placeholderData?: typeof keepPreviousData;
  /** The cache never retries a failed fetch; `false` is accepted to say so where it matters. */
  retry?: false;
  /** Asks again this often (ms) while shown and the page is visible; `false` stops. */
  refetchInterval?:
    number | false | ((query: Query<TData>) => number | false | undefined);
}

interface ResultBase {
  fetchStatus: FetchStatus;
  isFetching: boolean;
  isPlaceholderData: boolean;
  dataUpdatedAt: number;
  refetch: () => Promise<unknown>;
}

export type UseQueryResult<TData> =
  | (ResultBase & {
      status: "pending";
      data: undefined;
      error: null;
      isPending: true;
      isError: false;
      isSuccess: false;
    })
  | (ResultBase & {
      status: "error";
      data: TData | undefined;
      error: Error;
      isPending: false;
      isError: true;
      isSuccess: false;
    })
  | (ResultBase & {
      status: "success";
      data: TData;
      error: null;
      isPending: false;
      isError: false;
      isSuccess: true;
    });

function shouldFetchOnMount<TData>(
  query: Query<TData>,
  options: UseQueryOptions<TData>,
): boolean {
  if (options.enabled === false) return false;
  if (query.state.data === undefined) return true;
  const onMount = options.refetchOnMount ?? true;
  return (
    onMount === "always" ||
    (onMount !== false && query.isStale(options.staleTime ?? 0))
  );
}

/**
 * The answer for `queryKey`, fetched when it is not in the cache or out of date. On the server it
 * only reads the cache (what the page's loader put there); fetches start once the page is live.
 */
export function useQuery<TData>(
  options: UseQueryOptions<TData>,
): UseQueryResult<TData> {
  const client = useQueryClient();
  const query = client.getQueryCache().build<TData>(options.queryKey);
  query.queryFn = options.queryFn;
  if (options.gcTime !== undefined)
    query.gcTime = Math.max(query.gcTime, options.gcTime);
  const enabled = options.enabled !== false;
  const state = useSyncExternalStore(
    query.subscribe,
    query.getState,
    query.getState,
  );
  /** The query and `enabled` of the last committed render: what the effect below compares with. */
  const shown = useRef<{ query: Query<TData>; enabled: boolean } | null>(null);
  const lastData = useRef<{ data: TData } | null>(null);
  const latest = useRef(options);
  latest.current = options;

  // What the effect will do, so this render already says "fetching" (the server's render says the same).
  const before = shown.current;
  const fetchesNow =
    before === null
      ? shouldFetchOnMount(query, options)
      : (before.query !== query || !before.enabled) &&
        enabled &&
        query.isStale(options.staleTime ?? 0);

  useEffect(() => {
    const previous = shown.current;
    shown.current = { query, enabled };
    const observer = { enabled };
    const stop = query.observe(observer);
    const current = latest.current;
    const fetch =
      previous === null
        ? shouldFetchOnMount(query, current)
        : (previous.query !== query || !previous.enabled) &&
          enabled &&
          query.isStale(current.staleTime ?? 0);
    if (fetch) query.fetch(current.queryFn).catch(ignore);
    return stop;
  }, [query, enabled]);

  const polls =
    enabled &&
    latest.current.refetchInterval !== undefined &&
    latest.current.refetchInterval !== false;
  useEffect(() => {
    if (!polls) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      const every = latest.current.refetchInterval;
      const ms = typeof every === "function" ? every(query) : every;
      if (!ms || ms <= 0) return;
      timer = setTimeout(() => {
        if (document.visibilityState === "hidden") schedule();
        else query.fetch(latest.current.queryFn).catch(ignore);
      }, ms);
    };
    schedule();
    const stop = query.subscribe(() => {
      if (query.state.fetchStatus === "idle") schedule();
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [query, polls]);

  return resultOf(query, state, fetchesNow, options, lastData);
}

function resultOf<TData>(
  query: Query<TData>,
  state: QueryState<TData>,
  fetchesNow: boolean,
  options: UseQueryOptions<TData>,
  lastData: { current: { data: TData } | null },
): UseQueryResult<TData> {
  let { status, data, error } = state;
  const fetchStatus: FetchStatus = fetchesNow ? "fetching" : state.fetchStatus;
  if (fetchesNow && data === undefined) {
    status = "pending";
    error = null;
  }
  let isPlaceholderData = false;
  if (
    status === "pending" &&
    data === undefined &&
    options.placeholderData === keepPreviousData &&
    lastData.current
  ) {
    data = lastData.current.data;
    status = "success";
    isPlaceholderData = true;
  }
  if (!isPlaceholderData && data !== undefined) lastData.current = { data };
  const base: ResultBase = {
    fetchStatus,
    isFetching: fetchStatus === "fetching",
    isPlaceholderData,
    dataUpdatedAt: state.dataUpdatedAt,
    refetch: () =>
      query.fetch(options.queryFn, { cancelRefetch: true }).catch(ignore),
  };
  if (status === "success")
    return {
      ...base,
      status,
      data: data as TData,
      error: null,
      isPending: false,
      isError: false,
      isSuccess: true,
    };
  if (status === "error")
    return {
      ...base,
      status,
      data,
      error: error ?? new Error("The request failed"),
      isPending: false,
      isError: true,
      isSuccess: false,
    };
  return {
    ...base,
    status: "pending",
    data: undefined,
    error: null,
    isPending: true,
    isError: false,
    isSuccess: false,
  };
}

export type UseMutationResult<TData, TVariables> = MutationState<
  TData,
  TVariables
> & {
  mutate: (variables: TVariables) => void;
  reset: () => void;
  isIdle: boolean;
  isPending: boolean;
  isError: boolean;
  isSuccess: boolean;
};

const idle: MutationState<never, never> = {
  status: "idle",
  data: undefined,
  error: null,
  variables: undefined,
};

/**
 * A change sent to the server. `mutate` never throws: the outcome is in the result and in the
 * callbacks, which run (awaited, while `isPending` holds) even if the component has gone.
 */
export function useMutation<TData, TVariables = void>(
  options: MutationOptions<TData, TVariables>,
): UseMutationResult<TData, TVariables> {
  const client = useQueryClient();
  const [mutation, setMutation] = useState<Mutation<TData, TVariables> | null>(
    null,
  );
  const latest = useRef(options);
  latest.current = options;
  // A running mutation's callbacks see this render's values.
  useEffect(() => {
    if (mutation?.state.status === "pending") mutation.options = options;
  });
  const subscribe = useMemo(
    () => (mutation ? mutation.subscribe : () => () => undefined),
    [mutation],
  );
  const state = useSyncExternalStore(
    subscribe,
    () => mutation?.state ?? (idle as MutationState<TData, TVariables>),
    () => mutation?.state ?? (idle as MutationState<TData, TVariables>),
  );
  const actions = useMemo(
    () => ({
      mutate: (variables: TVariables) => {
        const next = new Mutation<TData, TVariables>(
          latest.current,
          client.getMutationCache(),
        );
        setMutation(next);
        void next.execute(variables);
      },
      reset: () => setMutation(null),
    }),
    [client],
  );
  return {
    ...state,
    ...actions,
    isIdle: state.status === "idle",
    isPending: state.status === "pending",
    isError: state.status === "error",
    isSuccess: state.status === "success",
  };
}

/**
 * Puts the server's answers into the cache while rendering, so the page shows them at once: new
 * keys at once, keys already cached only when the server's answer is newer (after the render).
 */
export function HydrationBoundary({
  state,
  children,
}: {
  state: DehydratedState | undefined;
  children?: ReactNode;
}) {
  const client = useQueryClient();
  const later = useMemo(() => {
    if (!state) return undefined;
    const cache = client.getQueryCache();
    const fresh = state.queries.filter((one) => !cache.get(one.queryHash));
    const newer = state.queries.filter((one) => {
      const cached = cache.get(one.queryHash);
      return (
        cached !== undefined &&
        one.state.dataUpdatedAt > cached.state.dataUpdatedAt
      );
    });
    if (fresh.length) hydrate(client, { queries: fresh });
    return newer.length ? newer : undefined;
  }, [client, state]);
  useEffect(() => {
    if (later) hydrate(client, { queries: later });
  }, [client, later]);
  return <>{children}</>;
}
