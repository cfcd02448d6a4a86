import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { CancelledError, dehydrate, hydrate, HydrationBoundary, QueryClient, QueryClientProvider, useQuery } from '.';
import { isMutating, Mutation, mutationCacheOf } from './mutation';
import { hashKey, keepEqualParts, startsWith } from './keys';

describe('query keys', () => {
  it('are one key whatever the order of an object part, and a part set to undefined is left out', () => {
    expect(hashKey(['admin', 'orders', { status: 'paid', page: 2 }])).toBe(hashKey(['admin', 'orders', { page: 2, status: 'paid', search: undefined }]));
    expect(hashKey(['orders', 1])).not.toBe(hashKey(['orders', '1']));
  });

  it('cover the keys under them part by part, never by a prefix of their text', () => {
    expect(startsWith(['orders', 'MS-1', 'claims'], ['orders'])).toBe(true);
    expect(startsWith(['orders', 'MS-1'], ['orders', 'MS-1'])).toBe(true);
    expect(startsWith(['admin', 'claim', 7], ['admin', 'claims'])).toBe(false);
    expect(startsWith(['admin', 'orders', { status: 'paid', page: 1 }], ['admin', 'orders', { status: 'paid' }])).toBe(true);
    expect(startsWith(['admin', 'orders', { status: 'paid' }], ['admin', 'orders', { status: 'packed' }])).toBe(false);
    expect(startsWith(['promo-codes', 'active'], ['admin', 'promo-codes'])).toBe(false);
  });

  it('keep the parts of an answer that did not change, so what depends on them does not run again', () => {
    const before = { cart: { lines: [{ id: 1, quantity: 2 }, { id: 2, quantity: 1 }] }, total: 10 };
    const same = keepEqualParts(before, JSON.parse(JSON.stringify(before)) as typeof before);
    expect(same).toBe(before);
    const changed = keepEqualParts(before, { cart: { lines: [{ id: 1, quantity: 2 }, { id: 2, quantity: 3 }] }, total: 12 });
    expect(changed).not.toBe(before);
    expect(changed.cart.lines[0]).toBe(before.cart.lines[0]);
    expect(changed.cart.lines[1]).toEqual({ id: 2, quantity: 3 });
  });
});

describe('the query client', () => {
  it('invalidates the keys under a prefix, refetching only those shown', async () => {
    const client = new QueryClient();
    const shown = vi.fn(async () => 'fresh');
    const order = client.getQueryCache().build<string>(['orders', 'MS-1']);
    order.setData('old');
    order.use(shown, undefined);
    const stop = order.observe({ enabled: true });
    client.setQueryData(['orders', 'MS-1', 'claims'], ['old claim']);
    client.setQueryData(['admin', 'orders'], 'not under it');
    await client.invalidateQueries({ queryKey: ['orders'] });
    expect(shown).toHaveBeenCalledTimes(1);
    expect(client.getQueryData(['orders', 'MS-1'])).toBe('fresh');
    expect(client.getQueryState(['orders', 'MS-1', 'claims'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['admin', 'orders'])?.isInvalidated).toBe(false);
    stop();
  });

  it('calls off a fetch nobody shows any more: aborted before its waiters hear, and the query as it was', async () => {
    const client = new QueryClient();
    const query = client.getQueryCache().build<string>(['products', 'search', 'kes']);
    let abortedFirst: boolean | undefined;
    const stop = query.observe({ enabled: true });
    const fetching = query.fetch(({ signal }) => new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))));
    const heard = fetching.catch((error: unknown) => {
      abortedFirst = error instanceof CancelledError;
    });
    expect(query.state.fetchStatus).toBe('fetching');
    stop();
    await heard;
    expect(abortedFirst).toBe(true);
    expect(query.state).toMatchObject({ status: 'pending', fetchStatus: 'idle', error: null, data: undefined });
  });

  it('fetches again when a component lets its query go and shows it again at once, as a strict-mode remount does', async () => {
    const { Watcher } = await import('./react');
    const client = new QueryClient();
    const query = client.getQueryCache().build<string>(['cart', 7]);
    const options = { queryKey: ['cart', 7], queryFn: ({ signal }: { signal: AbortSignal }) => new Promise<string>((resolve) => setTimeout(() => resolve(signal.aborted ? 'late' : 'cart'), 5)) };
    const watcher = new Watcher(options);
    let stop = query.observe(watcher.observer);
    expect(watcher.attach(query, true)).toBe(true);
    void query.fetch(options.queryFn).catch(() => undefined);
    // The effect's cleanup: the last observer goes, the fetch is called off and the query is as it was.
    stop();
    watcher.detach();
    expect(query.state).toMatchObject({ status: 'pending', fetchStatus: 'idle' });
    stop = query.observe(watcher.observer);
    expect(watcher.attach(query, true)).toBe(true);
    await query.fetch(options.queryFn);
    expect(query.state).toMatchObject({ status: 'success', data: 'cart' });
    stop();
  });

  it('shares one fetch between the components that ask at once', async () => {
    const client = new QueryClient();
    const fn = vi.fn(async () => ({ name: 'Kesar' }));
    const query = client.getQueryCache().build<{ name: string }>(['settings']);
    const [a, b] = await Promise.all([query.fetch(fn), query.fetch(fn)]);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(a).toBe(b);
  });

  it('counts a mutation as pending until its callbacks are done, and runs a scope one at a time', async () => {
    const client = new QueryClient();
    const order: string[] = [];
    let countedInCallback = -1;
    const save = (name: string, ms: number) =>
      new Mutation<string, void>(
        {
          mutationKey: ['pages', 'order'],
          scope: { id: 'pages' },
          mutationFn: async () => {
            order.push(`start ${name}`);
            await new Promise((resolve) => setTimeout(resolve, ms));
            order.push(`end ${name}`);
            return name;
          },
          onSuccess: () => {
            if (name === 'second') countedInCallback = isMutating(client, { mutationKey: ['pages'] });
          },
        },
        mutationCacheOf(client),
      );
    const first = save('first', 30);
    const second = save('second', 1);
    await Promise.all([first.execute(), second.execute()]);
    expect(order).toEqual(['start first', 'end first', 'start second', 'end second']);
    expect(countedInCallback).toBe(1);
    expect(isMutating(client)).toBe(0);
    expect(second.state).toMatchObject({ status: 'success', data: 'second' });
  });
});

describe('answers carried from the server', () => {
  it('render in the browser without a fetch, null included, and stay fresh within their staleTime', () => {
    const server = new QueryClient();
    server.setQueryData(['products', 99999], null);
    server.setQueryData(['settings'], { shopName: 'Mango Shop' });
    const state = JSON.parse(JSON.stringify(dehydrate(server))) as ReturnType<typeof dehydrate>;
    const browser = new QueryClient();
    const fetchSpy = vi.fn(async () => 'asked');
    function Product() {
      const product = useQuery({ queryKey: ['products', 99999], queryFn: fetchSpy, staleTime: 60_000 });
      const settings = useQuery({ queryKey: ['settings'], queryFn: fetchSpy, staleTime: 60_000 });
      return (
        <p>
          {product.isPending ? 'pending' : String(product.data)} {settings.isFetching ? 'fetching' : 'idle'}
        </p>
      );
    }
    const html = renderToString(
      <QueryClientProvider client={browser}>
        <HydrationBoundary state={state}>
          <Product />
        </HydrationBoundary>
      </QueryClientProvider>,
    );
    expect(html).toContain('null');
    expect(html).toContain('idle');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('replace a cached answer only with a newer one', () => {
    const client = new QueryClient();
    client.setQueryData(['cart', 1], 'newer');
    const older = { queries: [{ queryKey: ['cart', 1], queryHash: hashKey(['cart', 1]), state: { ...client.getQueryState(['cart', 1])!, data: 'older', dataUpdatedAt: 1 } }] };
    hydrate(client, older);
    expect(client.getQueryData(['cart', 1])).toBe('newer');
  });
});
