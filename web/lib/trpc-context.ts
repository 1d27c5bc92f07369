import { useRouteContext } from "@tanstack/react-router";

import type { Trpc } from "@/lib/trpc";

/** The tRPC options proxy from the router context, without pulling in the account hooks. */
export function useTrpcOptions(): Trpc {
  return useRouteContext({ from: "__root__", select: (context) => context.trpc });
}
