import { keepPreviousData, useQuery } from "@tanstack/react-query";
import ArrowDownIcon from "lucide-react/icons/arrow-down";
import ArrowUpIcon from "lucide-react/icons/arrow-up";
import ArrowUpDownIcon from "lucide-react/icons/arrow-up-down";
import ChevronLeftIcon from "lucide-react/icons/chevron-left";
import ChevronRightIcon from "lucide-react/icons/chevron-right";
import ChevronsLeftIcon from "lucide-react/icons/chevrons-left";
import ChevronsRightIcon from "lucide-react/icons/chevrons-right";
import PlusIcon from "lucide-react/icons/plus";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Label } from "@/components/ui/label";
import { SelectionCheckbox } from "@/components/ui/selection-checkbox";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTrpc } from "@/lib/auth";
import { cn } from "@/lib/utils";
import type { OrderSort } from "../../../../../src/features/orders/orders.schemas";
import { LoadError, LoadingState } from "../-components/admin-page";
import { BulkActions } from "./bulk-actions";
import { DeliveryListButton } from "./delivery";
import { OrderDialog } from "./order-dialog";
import { OrderRow } from "./orders-row";
import {
  effectiveSort,
  type ManagementSearch,
  MAX_SEARCH_LENGTH,
  nextSort,
  orderFilters,
  ordersPageInput,
  PER_PAGE_CHOICES,
  type SortDir,
} from "./search";
import { formatCount, type Order, ordersCountText, UNKNOWN_TABLER } from "./shared";

// docs/product.md §2 tab Bestellingen; §4 paid and invoice states; §8 messages. The server
// filters and edits change the cache instead of reloading. docs/decisions/020–022: the overdue and credited filters,
// and a selection for the bulk actions. docs/decisions/034: one page at a time from orders.page (50 by default,
// sorted by the server), with filters, search text, sort and page in the URL (search.ts). docs/decisions/023: the
// delivered filter and mark, and the chosen tabler's delivery list.

const SEARCH_DEBOUNCE_MS = 300;

/**
 * Changes to the URL's state; `replace` keeps typing in the search box out of the browser history.
 * Settles once the new URL is in place.
 */
export type SearchChange = (changes: Partial<ManagementSearch>, options?: { replace?: boolean }) => Promise<void>;

/** The sort choices of the phone layout, which has no column headers: value 'sort:dir'. */
const PHONE_SORTS: { sort: OrderSort; dir: SortDir; label: string }[] = [
  { sort: "created_at", dir: "desc", label: "Nieuwste eerst" },
  { sort: "created_at", dir: "asc", label: "Oudste eerst" },
  { sort: "name", dir: "asc", label: "Klant A–Z" },
  { sort: "name", dir: "desc", label: "Klant Z–A" },
  { sort: "tabler_name", dir: "asc", label: "Tabler A–Z" },
  { sort: "tabler_name", dir: "desc", label: "Tabler Z–A" },
  { sort: "amount", dir: "asc", label: "Aantal oplopend" },
  { sort: "amount", dir: "desc", label: "Aantal aflopend" },
  { sort: "paid", dir: "asc", label: "Open eerst" },
  { sort: "paid", dir: "desc", label: "Betaald eerst" },
];

export function OrdersTab({
  search,
  onSearchChange,
  onError,
}: {
  search: ManagementSearch;
  onSearchChange: SearchChange;
  onError: (message: string) => void;
}) {
  const trpc = useTrpc();
  // The previous page stays on screen while the next one loads, instead of a blank table.
  const ordersQuery = useQuery({ ...trpc.orders.page.queryOptions(ordersPageInput(search)), placeholderData: keepPreviousData });
  const tablersQuery = useQuery(trpc.tablers.list.queryOptions());
  const tablers = tablersQuery.data ?? [];
  const [editing, setEditing] = React.useState<Order | "new" | null>(null);

  const urlPage = search.page ?? 1;
  const setFilter = (changes: Partial<ManagementSearch>) => void onSearchChange({ ...changes, page: undefined });
  const setPage = (page: number) => onSearchChange({ page: page > 1 ? page : undefined });
  const sortBy = (column: OrderSort) => void onSearchChange({ ...nextSort(search, column), page: undefined });

  // The search box follows typing at once; the URL (and so the query) after a pause, in place.
  const urlQ = search.q ?? "";
  const [text, setText] = React.useState(urlQ);
  const sentQ = React.useRef<string | null>(null);
  React.useEffect(() => {
    // Back, Forward or a link changed the search text: show it. Our own change leaves the box alone,
    // so a space typed meanwhile is not taken away.
    if (urlQ === sentQ.current) return;
    sentQ.current = null;
    setText(urlQ);
  }, [urlQ]);
  React.useEffect(() => {
    const q = text.trim();
    if (q === urlQ) return;
    const timer = window.setTimeout(() => {
      sentQ.current = q;
      void onSearchChange({ q: q || undefined, page: undefined }, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, urlQ, onSearchChange]);

  // The selection: orders ticked one by one, possibly on several pages (id → reference, for the bulk
  // result). A new filter or search starts a new one: orders ticked under the old one may be out of sight.
  const filterKey = JSON.stringify(orderFilters(search));
  const [selection, setSelection] = React.useState<{ key: string; orders: ReadonlyMap<number, string> }>(() => ({
    key: filterKey,
    orders: new Map(),
  }));
  const selected = selection.key === filterKey ? selection.orders : EMPTY_SELECTION;
  const changeSelection = React.useCallback(
    (change: (next: Map<number, string>) => void) =>
      setSelection((old) => {
        const next = new Map(old.key === filterKey ? old.orders : EMPTY_SELECTION);
        change(next);
        return { key: filterKey, orders: next };
      }),
    [filterKey],
  );
  const clearSelection = React.useCallback(() => changeSelection((next) => next.clear()), [changeSelection]);
  const handleSelectedChange = React.useCallback(
    (order: Pick<Order, "id" | "reference">, checked: boolean) =>
      changeSelection((next) => {
        if (checked) next.set(order.id, order.reference);
        else next.delete(order.id);
      }),
    [changeSelection],
  );

  const data = ordersQuery.data;
  const rows = data?.orders ?? [];
  const listTop = React.useRef<HTMLDivElement>(null);
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.per_page)) : 1;

  // A page past the end (a link from when there were more orders, or the last order of the last page
  // deleted): go to the last page there is.
  const pastTheEnd = data !== undefined && !ordersQuery.isPlaceholderData && rows.length === 0 && data.total > 0 && urlPage > pageCount;
  React.useEffect(() => {
    if (pastTheEnd) void onSearchChange({ page: pageCount > 1 ? pageCount : undefined }, { replace: true });
  }, [pastTheEnd, pageCount, onSearchChange]);

  // The bulk actions take the orders on this page in table order, then the ones ticked on other pages.
  const onPage = rows.filter((o) => selected.has(o.id)).map((o) => o.id);
  const onPageIds = new Set(rows.map((o) => o.id));
  const offPage = [...selected.keys()].filter((id) => !onPageIds.has(id));
  const selectedIds = [...onPage, ...offPage];
  const pageSelected = rows.length > 0 && onPage.length === rows.length;
  const pageCheckbox = pageSelected ? true : onPage.length > 0 ? ("indeterminate" as const) : false;

  function handleSelectPage(checked: boolean) {
    changeSelection((next) => {
      for (const o of rows) {
        if (checked) next.set(o.id, o.reference);
        else next.delete(o.id);
      }
    });
  }

  // The table (wide screens) and the cards (phones) show the same rows with the same selection.
  const renderOrder = (order: Order, variant: "row" | "card") => (
    <OrderRow
      key={order.id}
      order={order}
      selected={selected.has(order.id)}
      onSelectedChange={handleSelectedChange}
      onEdit={setEditing}
      onError={onError}
      variant={variant}
    />
  );
  const { sort, dir } = effectiveSort(search);
  const sortable = (column: OrderSort, label: string, className?: string) => (
    <SortableHead column={column} label={label} sort={sort} dir={dir} onSort={sortBy} className={className} />
  );

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid min-w-48 flex-1 gap-1">
          <Label htmlFor="orders-search">Zoeken</Label>
          <Input
            id="orders-search"
            type="search"
            placeholder="Naam, email, adres, bestelnummer…"
            maxLength={MAX_SEARCH_LENGTH}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <FlagFilter id="filter-paid" label="Betaald" value={search.paid} yes="Betaald" no="Open" onChange={(paid) => setFilter({ paid })} />
        <FlagFilter
          id="filter-invoice"
          label="Factuur"
          value={search.invoice_sent}
          yes="Verstuurd"
          no="Niet verstuurd"
          onChange={(invoice_sent) => setFilter({ invoice_sent })}
        />
        <FlagFilter
          id="filter-cancelled"
          label="Gecrediteerd"
          value={search.cancelled}
          yes="Gecrediteerd"
          no="Niet gecrediteerd"
          onChange={(cancelled) => setFilter({ cancelled })}
        />
        <FlagFilter
          id="filter-delivered"
          label="Bezorgd"
          value={search.delivered}
          yes="Bezorgd"
          no="Niet bezorgd"
          onChange={(delivered) => setFilter({ delivered })}
        />
        <div className="grid gap-1">
          <Label htmlFor="filter-tabler">Tabler</Label>
          <NativeSelect
            id="filter-tabler"
            value={search.tabler_id === undefined ? "" : String(search.tabler_id)}
            onChange={(e) => {
              const value = e.target.value;
              setFilter({ tabler_id: value === "" ? undefined : value === "none" ? "none" : Number(value) });
            }}
          >
            <option value="">Alle</option>
            {tablers.map((t) => (
              <option key={t.id} value={String(t.id)}>
                {t.name}
              </option>
            ))}
            <option value="none">{UNKNOWN_TABLER}</option>
          </NativeSelect>
        </div>
        {/* With one tabler's orders on screen, their list to print is one click away (docs/decisions/023). */}
        {search.tabler_id !== undefined && (
          <DeliveryListButton
            className="h-9"
            of={{
              id: search.tabler_id,
              name: search.tabler_id === "none" ? UNKNOWN_TABLER : (tablers.find((t) => t.id === search.tabler_id)?.name ?? UNKNOWN_TABLER),
            }}
          />
        )}
        <div className="flex h-9 items-center gap-2">
          <Checkbox
            id="filter-overdue"
            checked={search.overdue === true}
            onCheckedChange={(checked) => setFilter({ overdue: checked === true ? true : undefined })}
          />
          <Label htmlFor="filter-overdue">Achterstallig</Label>
        </div>
        <div className="grid gap-1 md:hidden">
          <Label htmlFor="orders-sort">Sorteren</Label>
          <NativeSelect
            id="orders-sort"
            value={`${sort}:${dir}`}
            onChange={(e) => {
              const [nextSortKey, nextDir] = e.target.value.split(":") as [OrderSort, SortDir];
              void onSearchChange({ sort: nextSortKey, dir: nextDir, page: undefined });
            }}
          >
            {PHONE_SORTS.map((o) => (
              <option key={`${o.sort}:${o.dir}`} value={`${o.sort}:${o.dir}`}>
                {o.label}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button onClick={() => setEditing("new")}>
          <PlusIcon aria-hidden="true" />
          Nieuwe Bestelling
        </Button>
      </div>

      {ordersQuery.isPending ? (
        <LoadingState label="Bestellingen laden" />
      ) : ordersQuery.isError ? (
        <LoadError
          title="Failed to fetch orders"
          error={ordersQuery.error}
          onRetry={() => void ordersQuery.refetch()}
          retrying={ordersQuery.isFetching}
        />
      ) : (
        <>
          <div ref={listTop} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-sm text-muted-foreground">
            <span data-slot="orders-count">
              {ordersCountText(data!.total)}
              {ordersQuery.isFetching && <Spinner className="ml-2 inline size-3" label="Bijwerken" />}
            </span>
            <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
              <div className="flex items-center gap-2">
                <Label htmlFor="orders-per-page" className="font-normal">
                  Per pagina
                </Label>
                <NativeSelect
                  id="orders-per-page"
                  className="h-8"
                  value={String(data!.per_page)}
                  onChange={(e) =>
                    void onSearchChange({ per_page: Number(e.target.value) as ManagementSearch["per_page"], page: undefined })
                  }
                >
                  {PER_PAGE_CHOICES.map((n) => (
                    <option key={n} value={String(n)}>
                      {n}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <Pager
                label="Paginering"
                page={Math.min(data!.page, pageCount)}
                pageCount={pageCount}
                urlPage={urlPage}
                onPage={(page) => void setPage(page)}
              />
            </div>
          </div>
          <BulkActions ids={selectedIds} references={selected} offPage={offPage.length} onClear={clearSelection} />
          <div className="hidden rounded-xl border bg-card md:block">
            <Table className="text-[13px]" scrollLabel="Bestellingen" aria-busy={ordersQuery.isPlaceholderData || undefined}>
              <TableHeader>
                <TableRow>
                  <TableHead className="w-8">
                    <SelectionCheckbox
                      checked={pageCheckbox}
                      onCheckedChange={(checked) => handleSelectPage(checked === true)}
                      disabled={rows.length === 0}
                      aria-label="Selecteer alle bestellingen op deze pagina"
                    />
                  </TableHead>
                  {sortable("created_at", "Bestelling")}
                  {sortable("tabler_name", "Tabler")}
                  {sortable("name", "Klant")}
                  <TableHead>Adres</TableHead>
                  {sortable("amount", "Aantal", "text-right")}
                  {sortable("paid", "Betaald")}
                  <TableHead>Bezorgd</TableHead>
                  <TableHead>Factuur</TableHead>
                  <TableHead className="text-right">Acties</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={10} className="text-center text-muted-foreground">
                      Geen bestellingen gevonden.
                    </TableCell>
                  </TableRow>
                ) : (
                  rows.map((order) => renderOrder(order, "row"))
                )}
              </TableBody>
            </Table>
          </div>
          <div className="grid gap-3 md:hidden">
            {rows.length > 0 && (
              <label className="flex items-center gap-3 px-4 text-sm">
                <SelectionCheckbox checked={pageCheckbox} onCheckedChange={(checked) => handleSelectPage(checked === true)} />
                Selecteer alle bestellingen op deze pagina
              </label>
            )}
            {rows.length === 0 ? (
              <p className="rounded-xl border bg-card p-4 text-center text-sm text-muted-foreground">Geen bestellingen gevonden.</p>
            ) : (
              rows.map((order) => renderOrder(order, "card"))
            )}
          </div>
          {/* Under a long page too, where the reader ends up; the next page then starts at its top. */}
          {pageCount > 1 && rows.length > 10 && (
            <div className="flex justify-end text-sm text-muted-foreground">
              <Pager
                label="Paginering onderaan"
                page={Math.min(data!.page, pageCount)}
                pageCount={pageCount}
                urlPage={urlPage}
                onPage={(page) => void setPage(page).then(() => listTop.current?.scrollIntoView({ block: "start" }))}
              />
            </div>
          )}
        </>
      )}
      <OrderDialog order={editing} tablers={tablers} onClose={() => setEditing(null)} />
    </div>
  );
}

const EMPTY_SELECTION: ReadonlyMap<number, string> = new Map();

/**
 * A column header that sorts the table on the server: a button inside the <th>, whose aria-sort tells
 * assistive technology how the column is sorted now.
 */
function SortableHead({
  column,
  label,
  sort,
  dir,
  onSort,
  className,
}: {
  column: OrderSort;
  label: string;
  sort: OrderSort;
  dir: SortDir;
  onSort: (column: OrderSort) => void;
  className?: string;
}) {
  const active = sort === column;
  const Icon = !active ? ArrowUpDownIcon : dir === "asc" ? ArrowUpIcon : ArrowDownIcon;
  return (
    <TableHead aria-sort={!active ? "none" : dir === "asc" ? "ascending" : "descending"} className={className}>
      <button
        type="button"
        onClick={() => onSort(column)}
        className="-mx-1 inline-flex items-center gap-1 rounded-sm px-1 py-0.5 font-medium outline-none hover:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        {label}
        <Icon aria-hidden="true" className={cn("size-3.5", !active && "text-muted-foreground")} />
      </button>
    </TableHead>
  );
}

/** First, previous, 'Pagina X van Y', next and last. `page` is the page on screen, `urlPage` the one asked for. */
function Pager({
  label,
  page,
  pageCount,
  urlPage,
  onPage,
}: {
  label: string;
  page: number;
  pageCount: number;
  urlPage: number;
  onPage: (page: number) => void;
}) {
  const atStart = urlPage <= 1;
  const atEnd = urlPage >= pageCount;
  return (
    <nav aria-label={label} className="flex items-center gap-1">
      <Button variant="outline" size="icon" className="size-8" aria-label="Eerste pagina" disabled={atStart} onClick={() => onPage(1)}>
        <ChevronsLeftIcon aria-hidden="true" />
      </Button>
      {/* On a phone the words give way to arrows (still their names), so the pager fits 375 px. */}
      <Button
        variant="outline"
        size="sm"
        className="max-sm:size-8 max-sm:px-0"
        disabled={atStart}
        onClick={() => onPage(Math.min(urlPage, pageCount) - 1)}
      >
        <ChevronLeftIcon aria-hidden="true" className="sm:hidden" />
        <span className="max-sm:sr-only">Vorige</span>
      </Button>
      <span data-slot="page-status" className="px-1 whitespace-nowrap tabular-nums">
        Pagina {formatCount(page)} van {formatCount(pageCount)}
      </span>
      <Button variant="outline" size="sm" className="max-sm:size-8 max-sm:px-0" disabled={atEnd} onClick={() => onPage(urlPage + 1)}>
        <span className="max-sm:sr-only">Volgende</span>
        <ChevronRightIcon aria-hidden="true" className="sm:hidden" />
      </Button>
      <Button
        variant="outline"
        size="icon"
        className="size-8"
        aria-label="Laatste pagina"
        disabled={atEnd}
        onClick={() => onPage(pageCount)}
      >
        <ChevronsRightIcon aria-hidden="true" />
      </Button>
    </nav>
  );
}

/** A yes/no/all filter of the orders table: one select per flag, all alike. */
function FlagFilter(props: {
  id: string;
  label: string;
  value: boolean | undefined;
  yes: string;
  no: string;
  onChange: (value: boolean | undefined) => void;
}) {
  const { id, label, value, yes, no, onChange } = props;
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect
        id={id}
        value={value === undefined ? "" : String(value)}
        onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value === "true")}
      >
        <option value="">Alle</option>
        <option value="true">{yes}</option>
        <option value="false">{no}</option>
      </NativeSelect>
    </div>
  );
}
