import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryHistory, createRouter as createTanStackRouter } from "@tanstack/react-router";

import { ErrorFallback } from "@/components/error-fallback";
import { NotFound } from "@/components/not-found";
import { PageSpinner } from "@/components/ui/spinner";
import { createQueryClient } from "@/lib/query-client";
import { createTrpc } from "@/lib/trpc";
import { routeTree } from "./routeTree.gen";

// The QueryClient and the tRPC options proxy travel in the router context, so loaders and
// beforeLoad guards can `ensureQueryData` the same queryOptions the components read.
// The build's prerender step (web/prerender.tsx) asks for one page, in Node: a memory history, no
// window to read the origin from and no scroll position to restore.
export function createRouter({ prerenderPath }: { prerenderPath?: string } = {}) {
  const queryClient = createQueryClient();
  const trpc = createTrpc(queryClient);

  return createTanStackRouter({
    routeTree,
    ...(prerenderPath === undefined
      ? {}
      : { history: createMemoryHistory({ initialEntries: [prerenderPath] }), origin: "http://localhost" }),
    context: { queryClient, trpc },
    defaultPreload: "intent",
    // Freshness is React Query's business; the router always asks it.
    defaultPreloadStaleTime: 0,
    scrollRestoration: prerenderPath === undefined,
    defaultPendingComponent: PageSpinner,
    defaultErrorComponent: ErrorFallback,
    defaultNotFoundComponent: NotFound,
    Wrap: ({ children }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>,
  });
}

export type SiteRouter = ReturnType<typeof createRouter>;

declare module "@tanstack/react-router" {
  interface Register {
    router: SiteRouter;
  }
}
