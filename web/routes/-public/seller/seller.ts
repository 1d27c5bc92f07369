import { NO_CONNECTION, type OrderRequest, postOrder, type SendOutcome } from "@/lib/outbox";

// A seller's own order form, /bestellen/<seller_token> (DESIGN §6 "The door", docs/decisions/070): the rules of the
// page, apart from its React so they have unit tests.

export type Seller = { tabler_id: number; tabler_name: string };

/** The token in the page's address, or null when there is none. */
export function sellerTokenFromPath(pathname: string): string | null {
  const match = /^\/bestellen\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

export const sellerUrl = (token: string) => `/api/sellers/${encodeURIComponent(token)}`;

/** GET /api/sellers/<token>'s answer, or null when it is not the contract's shape. */
export function parseSeller(body: unknown): Seller | null {
  if (typeof body !== "object" || body === null) return null;
  const { tabler_id, tabler_name } = body as Record<string, unknown>;
  return typeof tabler_id === "number" && typeof tabler_name === "string" && tabler_name !== "" ? { tabler_id, tabler_name } : null;
}

/**
 * The customer's order, sent at once: a customer has no outbox, so an order that could not be sent is a refusal
 * to try again. The same order sent again (a second click, a retry after a lost answer) keeps its
 * Idempotency-Key, so the server makes it once; changed fields make a new key.
 */
export function sellerOrderSender(token: string, fetchImpl: typeof fetch = (...args) => fetch(...args)) {
  let last: { body: string; key: string } | null = null;
  return async (request: OrderRequest): Promise<SendOutcome> => {
    // The seller's token names the tabler; what the form puts in tabler_id the server ignores beside it.
    const { gate_token: _gate, ...order } = request;
    const body = { ...order, seller_token: token };
    const text = JSON.stringify(body);
    if (last?.body !== text) last = { body: text, key: crypto.randomUUID() };
    const outcome = await postOrder(last.key, body, fetchImpl);
    if (outcome.kind !== "retry") return outcome;
    return {
      kind: "refused",
      reason:
        outcome.reason === NO_CONNECTION
          ? `${NO_CONNECTION} Controleer je internetverbinding en probeer het opnieuw.`
          : `${outcome.reason} Probeer het opnieuw.`,
    };
  };
}
