import { QueryClient } from './query';

/** Spec 7: no retries and no refetch on window focus (the cache does neither); only the success page polls. */
export function makeQueryClient(): QueryClient {
  return new QueryClient();
}

/**
 * The browser's one client. The server makes one per request (root.tsx): a module-level client
 * there would share one visitor's cart or account with the next.
 */
export const queryClient = makeQueryClient();
