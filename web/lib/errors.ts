import { TRPCClientError } from "@trpc/client";

import type { Refusal } from "../i18n/server-errors";

// docs/product.md §8: the server's error text is preferred where present; the screen's own text is the
// fallback. A failure the server answered (a tRPC error shape) is "expected"; anything else (no
// network, a proxy's HTML error page) is "unexpected" and gets the screen's exception text.

/** The user-facing text the server sent with a failure, or null when the server never answered. */
export function serverErrorText(error: unknown): string | null {
  if (!(error instanceof TRPCClientError) || error.shape === undefined) return null;
  const message = typeof error.message === "string" ? error.message.trim() : "";
  return message === "" ? null : message;
}

/**
 * The refusal the server answered, with its code and values (docs/decisions/062: `error.data` of a tRPC error
 * holds the code beside the status), or null when the server never answered.
 */
export function serverRefusal(error: unknown): Refusal | null {
  const message = serverErrorText(error);
  if (message === null || !(error instanceof TRPCClientError)) return null;
  const { code, httpStatus: _status, ...values } = (error.data ?? {}) as Record<string, unknown>;
  return { code: typeof code === "string" ? code : undefined, message, values };
}

/** Whether the failure came with an answer from the server (as opposed to an exception). */
export function isServerAnswer(error: unknown): boolean {
  return error instanceof TRPCClientError && error.shape !== undefined;
}

/**
 * The text to show for a failed call: the server's text, else `fallback` when the server answered
 * without one, else `unexpected` (defaults to `fallback`) for an exception.
 */
export function errorText(error: unknown, fallback: string, unexpected: string = fallback): string {
  const text = serverErrorText(error);
  if (text) return text;
  return isServerAnswer(error) ? fallback : unexpected;
}
