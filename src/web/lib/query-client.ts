import { QueryClient } from '@tanstack/react-query';

/** Spec 7: no retries, no refetch on window focus, no polling. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
