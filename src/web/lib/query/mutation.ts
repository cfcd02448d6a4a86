/**
 * Changes sent to the server (`useMutation`), apart from the query cache: only pages that change
 * something load this file, so the first view's code stays smaller.
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { QueryClient } from './cache';
import { type QueryKey, startsWith } from './keys';
import { useQueryClient } from './react';

export type MutationStatus = 'idle' | 'pending' | 'error' | 'success';

export interface MutationState<TData, TVariables> {
  status: MutationStatus;
  data: TData | undefined;
  error: Error | null;
  variables: TVariables | undefined;
}

export interface MutationOptions<TData, TVariables> {
  mutationFn: (variables: TVariables) => Promise<TData>;
  mutationKey?: QueryKey;
  /** Mutations with the same scope id run one after another, in the order they were asked for. */
  scope?: { id: string };
  onSuccess?: (data: TData, variables: TVariables) => unknown;
  onError?: (error: Error, variables: TVariables) => unknown;
  onSettled?: (data: TData | undefined, error: Error | null, variables: TVariables) => unknown;
}

/** One change sent to the server: pending until it and its callbacks have run. */
export class Mutation<TData, TVariables> {
  state: MutationState<TData, TVariables> = { status: 'idle', data: undefined, error: null, variables: undefined };
  private readonly listeners = new Set<() => void>();

  constructor(
    private options: MutationOptions<TData, TVariables>,
    private readonly cache: MutationCache,
  ) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getState = (): MutationState<TData, TVariables> => this.state;

  get mutationKey(): QueryKey | undefined {
    return this.options.mutationKey;
  }

  get scope(): string | undefined {
    return this.options.scope?.id;
  }

  /** The component's latest options, while it runs: its callbacks see the latest values. */
  setOptions(options: MutationOptions<TData, TVariables>): void {
    if (this.state.status === 'pending') this.options = options;
  }

  private setState(state: MutationState<TData, TVariables>): void {
    this.state = state;
    for (const listener of [...this.listeners]) listener();
  }

  /** Never rejects: the outcome is in `state` and the callbacks. Callbacks run even after the component has gone. */
  async execute(variables: TVariables): Promise<void> {
    this.setState({ status: 'pending', data: undefined, error: null, variables });
    const release = this.cache.start(this);
    try {
      await release.turn;
      let data: TData;
      try {
        data = await this.options.mutationFn(variables);
        await this.options.onSuccess?.(data, variables);
        await this.options.onSettled?.(data, null, variables);
      } catch (error) {
        try {
          await this.options.onError?.(error as Error, variables);
          await this.options.onSettled?.(undefined, error as Error, variables);
        } finally {
          this.setState({ status: 'error', data: undefined, error: error as Error, variables });
        }
        return;
      }
      this.setState({ status: 'success', data, error: null, variables });
    } catch {
      // An error thrown by onError or onSettled: the state already says error.
    } finally {
      release.done();
    }
  }
}

export class MutationCache {
  private readonly pending = new Set<Mutation<unknown, unknown>>();
  private readonly scopes = new Map<string, Promise<void>>();

  /** Counts the mutation as pending; its turn comes after the earlier ones of its scope. */
  start<TData, TVariables>(mutation: Mutation<TData, TVariables>): { turn: Promise<void>; done: () => void } {
    this.pending.add(mutation as Mutation<unknown, unknown>);
    const scope = mutation.scope;
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const turn = scope ? (this.scopes.get(scope) ?? Promise.resolve()) : Promise.resolve();
    if (scope) {
      const chain = turn.then(() => finished);
      this.scopes.set(scope, chain);
      void chain.then(() => {
        if (this.scopes.get(scope) === chain) this.scopes.delete(scope);
      });
    }
    return {
      turn,
      done: () => {
        this.pending.delete(mutation as Mutation<unknown, unknown>);
        done();
      },
    };
  }

  /** Pending mutations, those whose key starts with `mutationKey` when given. */
  count(mutationKey?: QueryKey): number {
    let count = 0;
    for (const mutation of this.pending) {
      if (!mutationKey || (mutation.mutationKey && startsWith(mutation.mutationKey, mutationKey))) count += 1;
    }
    return count;
  }
}

const mutationCaches = new WeakMap<QueryClient, MutationCache>();

/** The client's mutations: pending counts and scopes are shared by every component using it. */
export function mutationCacheOf(client: QueryClient): MutationCache {
  let cache = mutationCaches.get(client);
  if (!cache) mutationCaches.set(client, (cache = new MutationCache()));
  return cache;
}

/** Pending mutations of `client`, those whose key starts with `mutationKey` when given. */
export function isMutating(client: QueryClient, filters: { mutationKey?: QueryKey } = {}): number {
  return mutationCacheOf(client).count(filters.mutationKey);
}

export type UseMutationResult<TData, TVariables> = MutationState<TData, TVariables> & {
  mutate: (variables: TVariables) => void;
  reset: () => void;
  isIdle: boolean;
  isPending: boolean;
  isError: boolean;
  isSuccess: boolean;
};

const idle: MutationState<never, never> = { status: 'idle', data: undefined, error: null, variables: undefined };

function noChanges(): () => void {
  return () => undefined;
}

/** What one component's `useMutation` remembers: its latest options, for the next `mutate`. */
class Sender<TData, TVariables> {
  constructor(private options: MutationOptions<TData, TVariables>) {}

  setOptions(options: MutationOptions<TData, TVariables>): void {
    this.options = options;
  }

  latest(): MutationOptions<TData, TVariables> {
    return this.options;
  }
}

/**
 * A change sent to the server. `mutate` never throws: the outcome is in the result and in the
 * callbacks, which run (awaited, while `isPending` holds) even if the component has gone.
 */
export function useMutation<TData, TVariables = void>(options: MutationOptions<TData, TVariables>): UseMutationResult<TData, TVariables> {
  const client = useQueryClient();
  const [sender] = useState(() => new Sender<TData, TVariables>(options));
  const [mutation, setMutation] = useState<Mutation<TData, TVariables> | null>(null);
  // The next mutate, and a running mutation's callbacks, use the committed render's values.
  useEffect(() => {
    sender.setOptions(options);
    mutation?.setOptions(options);
  });
  const state = useSyncExternalStore(
    mutation ? mutation.subscribe : noChanges,
    mutation ? mutation.getState : () => idle as MutationState<TData, TVariables>,
    mutation ? mutation.getState : () => idle as MutationState<TData, TVariables>,
  );
  const actions = useMemo(
    () => ({
      mutate: (variables: TVariables) => {
        const next = new Mutation<TData, TVariables>(sender.latest(), mutationCacheOf(client));
        setMutation(next);
        void next.execute(variables);
      },
      reset: () => setMutation(null),
    }),
    [client, sender],
  );
  return {
    ...state,
    ...actions,
    isIdle: state.status === 'idle',
    isPending: state.status === 'pending',
    isError: state.status === 'error',
    isSuccess: state.status === 'success',
  };
}
