import type { RouterOutputs, Trpc } from "@/lib/trpc";

export type Session = RouterOutputs["account"]["me"];
export type SessionUser = Extract<Session, { loggedIn: true }>["user"];

// docs/product.md §4 "Session": the session check is not retried and not refetched on window focus.
export function sessionQueryOptions(trpc: Trpc) {
  return trpc.account.me.queryOptions(undefined, { retry: false, refetchOnWindowFocus: false });
}
