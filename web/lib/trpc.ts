import type { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { createTRPCOptionsProxy, type TRPCOptionsProxy } from "@trpc/tanstack-react-query";

import type { AppRouter } from "#src/app-router";

export type { AppRouter };
export type Trpc = TRPCOptionsProxy<AppRouter>;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

// docs/product.md §6: the client sends the session cookie with every request.
export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    httpBatchLink({
      url: "/trpc",
      fetch: (input, init) => fetch(input, { ...init, credentials: "include" }),
    }),
  ],
});

/** The options proxy the routes and components use (`trpc.settings.list.queryOptions()`). */
export function createTrpc(queryClient: QueryClient): Trpc {
  return createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
}
