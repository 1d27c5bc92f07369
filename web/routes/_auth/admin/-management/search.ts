import * as z from "zod";

import { DEFAULT_PER_PAGE, MAX_PER_PAGE, ORDER_SORTS, type OrderSort } from "#src/features/orders/orders.schemas";
import type { OrderFilters } from "./shared";

// docs/decisions/034: the dashboard's open tab and the orders table's filters, search text, sort and page live in
// the URL, so a reload, a shared link and Back show the same orders. Every field is optional and a
// default is stored as "absent", so the URL holds only what differs from the plain dashboard. A value
// that is not understood (a hand-edited or old link) falls back to its default instead of an error page.

export const MANAGEMENT_TABS = ["tablers", "orders", "payments", "mail"] as const;
export type ManagementTab = (typeof MANAGEMENT_TABS)[number];
export const DEFAULT_TAB: ManagementTab = "tablers";

/** The page sizes the table offers; the server takes up to MAX_PER_PAGE. */
export const PER_PAGE_CHOICES = [25, DEFAULT_PER_PAGE, 100, MAX_PER_PAGE] as const;
/** The server's limit on the search text (orderListSchema). */
export const MAX_SEARCH_LENGTH = 200;
/** The server's largest page number (orderListSchema: at most nine digits). */
const MAX_PAGE = 999_999_999;

export type SortDir = "asc" | "desc";
/** The order the server uses without a sort: newest first. */
export const DEFAULT_SORT: { sort: OrderSort; dir: SortDir } = { sort: "created_at", dir: "desc" };

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

// The router hands over the query string JSON-parsed: 'true' arrives as a boolean and '12' as a number,
// so a search text typed into the address bar as digits comes as a number too.
const searchSchema = z.object({
  tab: optional(z.enum(MANAGEMENT_TABS)),
  q: optional(z.union([z.string(), z.number()]).transform((v) => String(v).trim().slice(0, MAX_SEARCH_LENGTH) || undefined)),
  paid: optional(z.boolean()),
  invoice_sent: optional(z.boolean()),
  cancelled: optional(z.boolean()),
  delivered: optional(z.boolean()),
  overdue: optional(z.literal(true)),
  tabler_id: optional(z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.literal("none")])),
  sort: optional(z.enum(ORDER_SORTS)),
  dir: optional(z.enum(["asc", "desc"])),
  page: optional(z.number().int().min(1).max(MAX_PAGE)),
  per_page: optional(z.literal(PER_PAGE_CHOICES)),
});

export type ManagementSearch = z.output<typeof searchSchema>;

/**
 * Changes to the URL's state; `replace` keeps typing in the search box out of the browser history.
 * Settles once the new URL is in place.
 */
export type SearchChange = (changes: Partial<ManagementSearch>, options?: { replace?: boolean }) => Promise<void>;

/**
 * Leaves out what equals a default: the Tablers tab, page 1, 50 a page, and newest first. A chosen
 * column sorts ascending unless the URL says `dir=desc`, so `?sort=name` is A–Z.
 */
export function withoutDefaults(search: ManagementSearch): ManagementSearch {
  const { sort, dir } = effectiveSort(search);
  const isDefaultSort = sort === DEFAULT_SORT.sort && dir === DEFAULT_SORT.dir;
  return {
    ...search,
    tab: search.tab === DEFAULT_TAB ? undefined : search.tab,
    q: search.q?.trim() || undefined,
    page: search.page === 1 ? undefined : search.page,
    per_page: search.per_page === DEFAULT_PER_PAGE ? undefined : search.per_page,
    sort: isDefaultSort ? undefined : sort,
    dir: isDefaultSort || dir === "asc" ? undefined : dir,
  };
}

/** The route's validateSearch: whatever the URL holds, a usable state. */
export function validateManagementSearch(raw: Record<string, unknown>): ManagementSearch {
  return withoutDefaults(searchSchema.parse(raw));
}

/** The sort in force: the URL's, or newest first. */
export function effectiveSort(search: Pick<ManagementSearch, "sort" | "dir">): { sort: OrderSort; dir: SortDir } {
  if (!search.sort) return search.dir ? { sort: DEFAULT_SORT.sort, dir: search.dir } : DEFAULT_SORT;
  return { sort: search.sort, dir: search.dir ?? "asc" };
}

/** A click on a column header: ascending first, descending on the second click, and so on. */
export function nextSort(search: Pick<ManagementSearch, "sort" | "dir">, column: OrderSort): { sort: OrderSort; dir: SortDir } {
  const current = effectiveSort(search);
  return { sort: column, dir: current.sort === column && current.dir === "asc" ? "desc" : "asc" };
}

/** The filters as the server reads them (text, like the query string of GET /orders and its CSV export). */
export function orderFilters(search: ManagementSearch): OrderFilters {
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? ("true" as const) : ("false" as const));
  return {
    paid: flag(search.paid),
    invoice_sent: flag(search.invoice_sent),
    cancelled: flag(search.cancelled),
    delivered: flag(search.delivered),
    overdue: search.overdue ? "true" : undefined,
    tabler_id: search.tabler_id === undefined ? undefined : String(search.tabler_id),
    q: search.q,
  };
}

/** The input of orders.page for the table as the URL describes it. */
export function ordersPageInput(search: ManagementSearch) {
  const { sort, dir } = effectiveSort(search);
  return { ...orderFilters(search), sort, dir, page: String(search.page ?? 1), per_page: String(search.per_page ?? DEFAULT_PER_PAGE) };
}
