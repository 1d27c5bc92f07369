import { useQueryClient } from "@tanstack/react-query";

import { useTrpc } from "@/lib/auth";
import type { RouterOutputs } from "@/lib/trpc";

// spec §3 Tabler and Order as the server sends them; §9 nl-NL dates and 'Onbekend'.
export type Tabler = RouterOutputs["tablers"]["list"][number];
export type Order = RouterOutputs["orders"]["list"][number];
/** The server-side filters of orders.list (sent as text, like the query string of GET /orders). */
export type OrderFilters = {
  paid?: "true" | "false" | undefined;
  invoice_sent?: "true" | "false" | undefined;
  tabler_id?: string | undefined;
  q?: string | undefined;
};
export type MailMessage = RouterOutputs["mail"]["list"]["messages"][number];

export const UNKNOWN_TABLER = "Onbekend";

const nlDate = new Intl.DateTimeFormat("nl-NL", { dateStyle: "medium", timeStyle: "short" });
const nlDay = new Intl.DateTimeFormat("nl-NL", { dateStyle: "medium" });
const euro = new Intl.NumberFormat("nl-NL", { style: "currency", currency: "EUR" });

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

export function formatEuro(amount: number): string {
  return euro.format(amount);
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

/**
 * Changes every cached orders.list answer (the filtered table and the unfiltered totals) in place,
 * so an edit never reloads 5,000 orders. Returns the previous answers for a rollback.
 */
export function useOrdersCache() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const queryKey = trpc.orders.list.pathKey();
  return {
    async cancel() {
      await queryClient.cancelQueries({ queryKey });
    },
    snapshot() {
      return queryClient.getQueriesData<Order[]>({ queryKey });
    },
    restore(snapshot: [readonly unknown[], Order[] | undefined][]) {
      for (const [key, data] of snapshot) queryClient.setQueryData(key, data);
    },
    update(fn: (orders: Order[]) => Order[]) {
      queryClient.setQueriesData<Order[]>({ queryKey }, (old) => (old ? fn(old) : old));
    },
    /** Marks the lists stale; only the ones on screen refetch, in the background. */
    invalidate() {
      return queryClient.invalidateQueries({ queryKey });
    },
  };
}
