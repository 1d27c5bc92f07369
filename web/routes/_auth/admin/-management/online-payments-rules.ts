import type { RouterOutputs } from "@/lib/trpc";
import { refundSchema } from "#src/features/online-payments/online-payments.schemas";
import { formatEuroNl } from "./charts-format";
import type { Order } from "./shared";

// docs/decisions/066: what the back-office shows of payments through Mollie, apart from React so it can be tested.

export type OnlinePayment = RouterOutputs["onlinePayments"]["list"]["payments"][number];

/** Mollie's payment statuses in Dutch. */
const STATUS_LABELS: Record<string, string> = {
  open: "Open",
  pending: "In behandeling",
  authorized: "Geautoriseerd",
  paid: "Betaald",
  canceled: "Geannuleerd",
  expired: "Verlopen",
  failed: "Mislukt",
};

/** A status Mollie adds later is shown as Mollie writes it rather than hidden. */
export function onlineStatusText(status: string): string {
  return STATUS_LABELS[status] ?? status;
}

const PAYMENT_METHOD_LABELS: Record<NonNullable<Order["payment_method"]>, string> = {
  online: "iDEAL (online)",
  bank: "Bank",
  manual: "Handmatig",
};

/** 'Betaald via: Bank', or null for an order that is not paid (or was paid before the method was kept). */
export function paymentMethodText(order: Pick<Order, "paid" | "payment_method">): string | null {
  if (!order.paid || order.payment_method === null) return null;
  return `Betaald via: ${PAYMENT_METHOD_LABELS[order.payment_method]}`;
}

const cents = (euros: number) => Math.round(euros * 100);

/** What can still be refunded of one payment: it was paid, less what went back by refund or chargeback. */
export function leftToRefund(payment: Pick<OnlinePayment, "status" | "amount" | "refunded_amount" | "charged_back_amount">): number {
  if (payment.status !== "paid") return 0;
  return Math.max(cents(payment.amount) - cents(payment.refunded_amount) - cents(payment.charged_back_amount), 0) / 100;
}

/** A double payment the treasurer can send back from the list: the order still exists and something is left. */
export function canRefundDouble(payment: OnlinePayment): boolean {
  return payment.double_payment && payment.order_id !== null && leftToRefund(payment) > 0;
}

/**
 * The refund dialog offers itself for an order paid online, or one with refunds already (it has an online
 * payment), until the refunds reach its total incl. VAT (`amountIncl`, null while unknown). A double payment
 * on an order paid otherwise is refunded from the list of online payments.
 */
export function mayOfferRefund(order: Pick<Order, "payment_method">, refunded: number, amountIncl: number | null): boolean {
  if (order.payment_method !== "online" && refunded <= 0) return false;
  return amountIncl === null || cents(refunded) < cents(amountIncl);
}

/**
 * The amount typed in the refund dialog: empty is everything that is left (undefined); otherwise euros with a
 * decimal comma or dot and at most two decimals ('10,25', '€ 10.25', '7'). Refused with the server's own text
 * (refundSchema), so the dialog says what the server would.
 */
export function parseRefundAmount(text: string): { amount: number | undefined; error: null } | { amount: null; error: string } {
  const typed = text.replace(/^\s*€\s*/, "").trim();
  if (typed === "") return { amount: undefined, error: null };
  const amount = /^\d{1,9}(?:[.,]\d{1,2})?$/.test(typed) ? cents(Number(typed.replace(",", "."))) / 100 : Number.NaN;
  const checked = refundSchema.safeParse({ amount });
  if (!checked.success) return { amount: null, error: checked.error.issues[0]?.message ?? "Ongeldig bedrag." };
  return { amount, error: null };
}

/**
 * What the snackbar says after a refund: the amount asked, or, for 'everything that is left', the order's
 * refunded total now (the answer) less what it was before.
 */
export function refundDoneText(asked: number | undefined, refundedBefore: number, refundedNow: number): string {
  const refunded = asked ?? (cents(refundedNow) > cents(refundedBefore) ? (cents(refundedNow) - cents(refundedBefore)) / 100 : refundedNow);
  return `${formatEuroNl(refunded)} terugbetaald via Mollie.`;
}
