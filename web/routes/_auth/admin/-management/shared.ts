import { useQueryClient } from "@tanstack/react-query";

import { useTrpc } from "@/lib/auth";
import type { RouterOutputs } from "@/lib/trpc";

// docs/product.md §3 Tabler and Order as the server sends them; §9 nl-NL dates and 'Onbekend'.
export type Tabler = RouterOutputs["tablers"]["list"][number];
export type Order = RouterOutputs["orders"]["page"]["orders"][number];
/** The server-side filters of the orders table (sent as text, like the query string of GET /orders). */
export type OrderFilters = {
  paid?: "true" | "false" | undefined;
  invoice_sent?: "true" | "false" | undefined;
  /** docs/decisions/020: credited orders (a credit note cancelled them). */
  cancelled?: "true" | "false" | undefined;
  /** docs/decisions/023: handed over on delivery day. */
  delivered?: "true" | "false" | undefined;
  /** docs/decisions/021 'Achterstallig': invoiced, unpaid, not credited, past the payment term. */
  overdue?: "true" | undefined;
  tabler_id?: string | undefined;
  q?: string | undefined;
};
export type MailMessage = RouterOutputs["mail"]["list"]["messages"][number];

export const UNKNOWN_TABLER = "Onbekend";

const nlDate = new Intl.DateTimeFormat("nl-NL", { dateStyle: "medium", timeStyle: "short" });
const nlDay = new Intl.DateTimeFormat("nl-NL", { dateStyle: "medium" });
const nlNumericDay = new Intl.DateTimeFormat("nl-NL", { day: "2-digit", month: "2-digit", year: "numeric" });
const nlTime = new Intl.DateTimeFormat("nl-NL", { timeStyle: "short" });
const euro = new Intl.NumberFormat("nl-NL", { style: "currency", currency: "EUR" });
const count = new Intl.NumberFormat("nl-NL");

/** nl-NL date and time ('22 nov 2026, 10:05'); '–' when missing. */
export function formatNlDate(value: string | null | undefined): string {
  if (!value) return "–";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : nlDate.format(date);
}

/** nl-NL date without the time ('22 nov 2026'), for narrow table columns. */
export function formatNlDay(value: string | null | undefined): string {
  if (!value) return "–";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : nlDay.format(date);
}

/** nl-NL time of day ('10:05'), for the line under a formatNlDay; '' when missing. */
export function formatNlTime(value: string | null | undefined): string {
  if (!value) return "";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "" : nlTime.format(date);
}

/** nl-NL numeric date ('24-11-2026'), where a short date sits inside a sentence. */
export function formatNlNumericDay(value: string | null | undefined): string {
  if (!value) return "–";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : nlNumericDay.format(date);
}

export function formatEuro(amount: number): string {
  return euro.format(amount);
}

/** nl-NL whole numbers with a thousands dot ('1.234'). */
export function formatCount(n: number): string {
  return count.format(n);
}

/** '1 bestelling' / '1.234 bestellingen'. */
export function ordersCountText(n: number): string {
  return `${formatCount(n)} ${n === 1 ? "bestelling" : "bestellingen"}`;
}

/** '2 herinneringen, laatste 24-11-2026' (docs/decisions/021), or null before the first reminder. */
export function remindersText(order: Pick<Order, "reminders_sent" | "last_reminder_at">): string | null {
  if (order.reminders_sent <= 0) return null;
  const what = order.reminders_sent === 1 ? "1 herinnering" : `${formatCount(order.reminders_sent)} herinneringen`;
  return order.last_reminder_at ? `${what}, laatste ${formatNlNumericDay(order.last_reminder_at)}` : what;
}

/** What an order allows (docs/decisions/018–021): the same rules the server applies, so the screen offers only these. */
export function canCredit(order: Pick<Order, "invoice_number" | "credit_note_number">): boolean {
  return order.invoice_number !== null && order.credit_note_number === null;
}

export function canRemind(order: Pick<Order, "invoice_number" | "paid" | "cancelled">): boolean {
  return order.invoice_number !== null && !order.paid && !order.cancelled;
}

/** The query string of GET /orders/export.csv for the current filters. */
export function filtersToQueryString(filters: OrderFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

type OrdersPage = RouterOutputs["orders"]["page"];

/**
 * Changes the cached pages of the orders table (orders.page answers) in place, so an edit shows at once
 * without reloading the page. docs/decisions/034: the table holds one page of 50 at a time; nothing on the
 * dashboard loads every order any more. Returns the previous pages for a rollback.
 */
export function useOrdersCache() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const queryKey = trpc.orders.page.pathKey();
  const totalsKey = trpc.invoices.totals.pathKey();
  return {
    async cancel() {
      await queryClient.cancelQueries({ queryKey });
    },
    snapshot() {
      return queryClient.getQueriesData<OrdersPage>({ queryKey });
    },
    restore(snapshot: [readonly unknown[], OrdersPage | undefined][]) {
      for (const [key, data] of snapshot) queryClient.setQueryData(key, data);
    },
    update(fn: (orders: Order[]) => Order[]) {
      queryClient.setQueriesData<OrdersPage>({ queryKey }, (old) => (old ? { ...old, orders: fn(old.orders) } : old));
    },
    /** Marks the pages and totals stale; only the ones on screen refetch, in the background. */
    invalidate() {
      return Promise.all([queryKey, totalsKey].map((key) => queryClient.invalidateQueries({ queryKey: key }))).then(() => undefined);
    },
    /**
     * The totals alone (after a change made in the cache, such as the paid switch): the page keeps the
     * row where it is, even when it no longer matches the filter or sort, instead of pulling it away
     * from under the pointer.
     */
    invalidateTotals() {
      return queryClient.invalidateQueries({ queryKey: totalsKey });
    },
    /**
     * After a change made in the cache: the edit also made every cached page look fresh, so another
     * filter's page (say 'Niet bezorgd', still holding the order just marked) would be shown as it was.
     * Marked stale, each page comes from the server when next shown; the one on screen stays as it is.
     */
    markStale() {
      return queryClient.invalidateQueries({ queryKey, refetchType: "none" });
    },
  };
}
