import { formatDateLong, formatEuro } from "#src/core/nl-format";
import type { OrderStatusView } from "#src/features/online-payments/online-payments.schemas";

// The customer's order page (docs/architecture.md §6 "The order page and online payment", docs/decisions/067):
// what GET /api/order-status/<token> answers, and the words the page makes of it.

/** What GET /api/order-status/<token> answers: the server's own type of it. */
export type OrderStatus = OrderStatusView;

/** The token in the page's address, or null when the address names none. */
export function orderTokenFromPath(pathname: string): string | null {
  const match = /^\/bestelling\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

const apiPath = (token: string) => `/api/order-status/${encodeURIComponent(token)}`;

export const orderStatusUrl = (token: string) => apiPath(token);
export const invoicePdfUrl = (token: string) => `${apiPath(token)}/invoice.pdf`;
export const payUrl = (token: string) => `${apiPath(token)}/pay`;

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === "string";

/** The answer as the page needs it, or null when it is not the contract's shape. */
export function parseOrderStatus(body: unknown): OrderStatus | null {
  if (typeof body !== "object" || body === null) return null;
  const answer = body as Record<keyof OrderStatus, unknown>;
  const valid =
    typeof answer.reference === "string" &&
    typeof answer.name === "string" &&
    isNumber(answer.amount) &&
    isNumber(answer.amount_incl) &&
    typeof answer.paid === "boolean" &&
    isTextOrNull(answer.paid_at) &&
    typeof answer.cancelled === "boolean" &&
    isTextOrNull(answer.invoice_number) &&
    isNumber(answer.refunded_amount) &&
    typeof answer.can_pay === "boolean";
  if (!valid) return null;
  const { reference, name, amount, amount_incl, paid, paid_at, cancelled, invoice_number, refunded_amount, can_pay } =
    answer as OrderStatus;
  return { reference, name, amount, amount_incl, paid, paid_at, cancelled, invoice_number, refunded_amount, can_pay };
}

export type OrderState = "open" | "paid" | "refunded" | "cancelled";

export const ORDER_STATE_LABELS: Record<OrderState, string> = {
  open: "Open",
  paid: "Betaald",
  refunded: "Terugbetaald",
  cancelled: "Geannuleerd",
};

/** One state for the badge: cancelled outranks a refund, a whole refund outranks paid. */
export function orderState(status: OrderStatus): OrderState {
  if (status.cancelled) return "cancelled";
  if (status.refunded_amount > 0 && status.refunded_amount >= status.amount_incl) return "refunded";
  if (status.paid) return "paid";
  return "open";
}

/** The euros refunded when part of the order was, else null (a whole refund is the state itself). */
export function partialRefund(status: OrderStatus): number | null {
  return status.refunded_amount > 0 && status.refunded_amount < status.amount_incl ? status.refunded_amount : null;
}

/** 272.25 → '€ 272,25', as the invoices write it (core/nl-format counts cents). */
export function formatEuros(euros: number): string {
  return formatEuro(Math.round(euros * 100));
}

/** 'op 22 november 2026' for a paid order, or null when the moment is unknown or unreadable. */
export function paidOnText(paidAt: string | null): string | null {
  if (paidAt === null) return null;
  const date = new Date(paidAt);
  return Number.isNaN(date.getTime()) ? null : `op ${formatDateLong(date)}`;
}

export const PAY_FAILED = "Het betalen kon niet worden gestart. Probeer het zo nog eens.";
export const PAY_TOO_OFTEN = "Te veel pogingen om te betalen. Wacht een paar minuten en probeer het dan opnieuw.";

/**
 * What the page says when `pay` did not give a checkout: the server's own Dutch text for a refusal about the
 * order (409: paid, cancelled, online payment off) or the payment provider (502); its own text for a rate
 * limit (the generic limit answers in English) and for anything else.
 */
export function payFailureText(status: number, body: unknown): string {
  if (status === 429) return PAY_TOO_OFTEN;
  if (status === 409 || status === 502) return refusalError(body) ?? PAY_FAILED;
  return PAY_FAILED;
}

/** The `error` text of a refusal ({success:false,error,code}), or null when the body carries none. */
export function refusalError(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const error = (body as { error?: unknown }).error;
  return typeof error === "string" && error.trim() !== "" ? error.trim() : null;
}

/** The hosted checkout's address from a `pay` answer, when it is a web address. */
export function checkoutUrl(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const url = (body as { checkout_url?: unknown }).checkout_url;
  if (typeof url !== "string") return null;
  try {
    const { protocol } = new URL(url);
    return protocol === "https:" || protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}
