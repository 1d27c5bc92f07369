import { QueryClientProvider } from "@tanstack/react-query";
import { createRouter as createTanStackRouter } from "@tanstack/react-router";

import { ErrorFallback } from "@/components/error-fallback";
import { NotFound } from "@/components/not-found";
import { PageSpinner } from "@/components/ui/spinner";
import { createQueryClient } from "@/lib/query-client";
import { createTrpc } from "@/lib/trpc";
import { routeTree } from "./routeTree.gen";

// The QueryClient and the tRPC options proxy travel in the router context, so loaders and
// beforeLoad guards can `ensureQueryData` the same queryOptions the components read.
export function createRouter() {
  const queryClient = createQueryClient();
  const trpc = createTrpc(queryClient);

  return createTanStackRouter({
    routeTree,
    context: { queryClient, trpc },
    defaultPreload: "intent",
    // Freshness is React Query's business; the router always asks it.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultPendingComponent: PageSpinner,
    defaultErrorComponent: ErrorFallback,
    defaultNotFoundComponent: NotFound,
    // biome-ignore lint/correctness/noComponentHookFactories: one router per app, and its Wrap provides that router's own QueryClient
    Wrap: ({ children }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createRouter>;
  }
}
