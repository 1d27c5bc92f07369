import { QueryClient } from "@tanstack/react-query";

// docs/product.md §4 "Data retrieval": 3 retries in the browser (0 on the server side), back-off from 1 s,
// doubling, capped at 30 s; unused cache entries are discarded after 5 minutes.
export const MAX_RETRIES = 3;
export const CACHE_TIME_MS = 5 * 60 * 1000;

export function retryDelay(attemptIndex: number): number {
  return Math.min(1000 * 2 ** attemptIndex, 30_000);
}

export function createQueryClient(): QueryClient {
  const isServer = typeof window === "undefined";
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: isServer ? 0 : MAX_RETRIES,
        retryDelay,
        gcTime: CACHE_TIME_MS,
        // A route loader's ensureQueryData and the component's useQuery then share one fetch.
        staleTime: 30_000,
      },
      mutations: {
        // A write sent while the browser thinks it is offline fails at once with a network error
        // (the screens then show their "unexpected error" text) instead of waiting silently, paused,
        // for the connection to come back. Logout relies on this to clear the user offline.
        networkMode: "always",
      },
    },
  });
}
