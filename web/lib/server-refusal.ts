// docs/product.md §8: the server's error text is preferred where present. For the public forms that means a
// refusal the visitor can act on — a validation answer (400) or a rate limit (429), both written in
// Dutch by the server. Anything else (a crash, maintenance, no network) gets the screen's own text.
const ACTIONABLE_STATUSES = new Set([400, 429]);

// Errors of the tRPC client and of web/lib/trpc-fetch.ts both carry `message` and `data.httpStatus`.
export function refusalText(error: unknown, fallback: string): string {
  if (!(error instanceof Error) || !("data" in error)) return fallback;
  const data = error.data as { httpStatus?: unknown } | undefined;
  const status = typeof data?.httpStatus === "number" ? data.httpStatus : null;
  const message = typeof error.message === "string" ? error.message.trim() : "";
  return status !== null && ACTIONABLE_STATUSES.has(status) && message !== "" ? message : fallback;
}
