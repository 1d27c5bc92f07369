import { keepPreviousData, useQuery } from "@tanstack/react-query";
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
import { LoadError, LoadingState } from "../-components/admin-page";
import { BulkActions } from "./bulk-actions";
import { OrderDialog } from "./order-dialog";
import { OrderRow } from "./orders-row";
import { type Order, type OrderFilters, ordersCountText, type Tabler, UNKNOWN_TABLER } from "./shared";

// spec §2 tab Bestellingen; §4 paid and invoice states; §8 messages. Issue 6 item 8: the server
// filters, the table shows 50 rows a page, and edits change the cache instead of reloading. Issue 13:
// the overdue and credited filters, and a selection for the bulk actions.

export const PAGE_SIZE = 50;
const SEARCH_DEBOUNCE_MS = 300;

export function OrdersTab({
  filters,
  onFiltersChange,
  onError,
}: {
  filters: OrderFilters;
  onFiltersChange: (filters: OrderFilters) => void;
  onError: (message: string) => void;
}) {
  const trpc = useTrpc();
  const ordersQuery = useQuery({ ...trpc.orders.list.queryOptions(filters), placeholderData: keepPreviousData });
  const tablersQuery = useQuery(trpc.tablers.list.queryOptions());
  const tablers = tablersQuery.data ?? [];
  const [search, setSearch] = React.useState(filters.q ?? "");
  const [page, setPage] = React.useState(0);
  const [editing, setEditing] = React.useState<Order | "new" | null>(null);

  // Debounced text search, sent to the server.
  React.useEffect(() => {
    const q = search.trim();
    if (q === (filters.q ?? "")) return;
    const timer = window.setTimeout(() => onFiltersChange({ ...filters, q: q || undefined }), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [search, filters, onFiltersChange]);

  // The selection: orders ticked one by one (possibly on several pages), or every order the filter matches.
  const [selected, setSelected] = React.useState<ReadonlySet<number>>(() => new Set());
  const [allMatching, setAllMatching] = React.useState(false);
  const clearSelection = React.useCallback(() => {
    setSelected(new Set());
    setAllMatching(false);
  }, []);

  const filterKey = JSON.stringify(filters);
  // A new filter shows other orders: a selection made under the old one would act on orders out of sight.
  React.useEffect(() => {
    setPage(0);
    clearSelection();
  }, [filterKey, clearSelection]);

  const orders = ordersQuery.data;
  const pageCount = orders ? Math.max(1, Math.ceil(orders.length / PAGE_SIZE)) : 1;
  const currentPage = Math.min(page, pageCount - 1);
  const rows = orders?.slice(currentPage * PAGE_SIZE, (currentPage + 1) * PAGE_SIZE) ?? [];

  // Only orders still in the list count: a deleted or filtered-out order drops out of the selection.
  const selectedIds = React.useMemo(
    () => (orders ?? []).filter((o) => allMatching || selected.has(o.id)).map((o) => o.id),
    [orders, selected, allMatching],
  );
  const references = React.useMemo(() => new Map((orders ?? []).map((o) => [o.id, o.reference])), [orders]);
  const pageSelected = rows.length > 0 && rows.every((o) => allMatching || selected.has(o.id));
  const pageSomeSelected = rows.some((o) => allMatching || selected.has(o.id));

  const handleSelectedChange = React.useCallback(
    (id: number, checked: boolean) => {
      setSelected((old) => {
        // Unticking one order of "all matching" leaves the others ticked.
        const next = new Set(allMatching ? (orders ?? []).map((o) => o.id) : old);
        if (checked) next.add(id);
        else next.delete(id);
        return next;
      });
      setAllMatching(false);
    },
    [allMatching, orders],
  );

  function handleSelectPage(checked: boolean) {
    setSelected((old) => {
      const next = new Set(allMatching ? (orders ?? []).map((o) => o.id) : old);
      for (const o of rows) {
        if (checked) next.add(o.id);
        else next.delete(o.id);
      }
      return next;
    });
    setAllMatching(false);
  }

  // The table (wide screens) and the cards (phones) show the same rows with the same selection.
  const renderOrder = (order: Order, variant: "row" | "card") => (
    <OrderRow
      key={order.id}
      order={order}
      selected={allMatching || selected.has(order.id)}
      onSelectedChange={handleSelectedChange}
      onEdit={setEditing}
      onError={onError}
      variant={variant}
    />
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
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <FlagFilter id="filter-paid" label="Betaald" field="paid" yes="Betaald" no="Open" filters={filters} onFiltersChange={onFiltersChange} />
        <FlagFilter id="filter-invoice" label="Factuur" field="invoice_sent" yes="Verstuurd" no="Niet verstuurd" filters={filters} onFiltersChange={onFiltersChange} />
        <FlagFilter id="filter-cancelled" label="Gecrediteerd" field="cancelled" yes="Gecrediteerd" no="Niet gecrediteerd" filters={filters} onFiltersChange={onFiltersChange} />
        <div className="grid gap-1">
          <Label htmlFor="filter-tabler">Tabler</Label>
          <NativeSelect
            id="filter-tabler"
            value={filters.tabler_id ?? ""}
            onChange={(e) => onFiltersChange({ ...filters, tabler_id: e.target.value || undefined })}
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
        <div className="flex h-9 items-center gap-2">
          <Checkbox
            id="filter-overdue"
            checked={filters.overdue === "true"}
            onCheckedChange={(checked) => onFiltersChange({ ...filters, overdue: checked === true ? "true" : undefined })}
          />
          <Label htmlFor="filter-overdue">Achterstallig</Label>
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
          <div className="flex items-center justify-between text-sm text-muted-foreground">
            <span data-slot="orders-count">
              {ordersCountText(orders!.length)}
              {ordersQuery.isFetching && <Spinner className="ml-2 inline size-3" label="Bijwerken" />}
            </span>
            {pageCount > 1 && (
              <span className="flex items-center gap-2">
                <Button variant="outline" size="sm" disabled={currentPage === 0} onClick={() => setPage(currentPage - 1)}>
                  Vorige
                </Button>
                Pagina {currentPage + 1} van {pageCount}
                <Button variant="outline" size="sm" disabled={currentPage >= pageCount - 1} onClick={() => setPage(currentPage + 1)}>
                  Volgende
                </Button>
              </span>
            )}
          </div>
          <BulkActions
            ids={selectedIds}
            references={references}
            allMatching={allMatching}
            canSelectAllMatching={!allMatching && selectedIds.length > 0 && selectedIds.length < orders!.length}
            matchingCount={orders!.length}
            onSelectAllMatching={() => setAllMatching(true)}
            onClear={clearSelection}
          />
          <div className="hidden rounded-xl border bg-card md:block">
            <Table className="text-[13px]" scrollLabel="Bestellingen">
              <TableHeader>
                <TableRow>
                  <TableHead className="w-8">
                    <SelectionCheckbox
                      checked={pageSelected ? true : pageSomeSelected ? "indeterminate" : false}
                      onCheckedChange={(checked) => handleSelectPage(checked === true)}
                      disabled={rows.length === 0}
                      aria-label="Selecteer alle bestellingen op deze pagina"
                    />
                  </TableHead>
                  <TableHead>Bestelling</TableHead>
                  <TableHead>Tabler</TableHead>
                  <TableHead>Klant</TableHead>
                  <TableHead>Adres</TableHead>
                  <TableHead className="text-right">Aantal</TableHead>
                  <TableHead>Betaald</TableHead>
                  <TableHead>Factuur</TableHead>
                  <TableHead className="text-right">Acties</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={9} className="text-center text-muted-foreground">
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
                <SelectionCheckbox
                  checked={pageSelected ? true : pageSomeSelected ? "indeterminate" : false}
                  onCheckedChange={(checked) => handleSelectPage(checked === true)}
                />
                Selecteer alle bestellingen op deze pagina
              </label>
            )}
            {rows.length === 0 ? (
              <p className="rounded-xl border bg-card p-4 text-center text-sm text-muted-foreground">Geen bestellingen gevonden.</p>
            ) : (
              rows.map((order) => renderOrder(order, "card"))
            )}
          </div>
        </>
      )}
      <OrderDialog order={editing} tablers={tablers} onClose={() => setEditing(null)} />
    </div>
  );
}

export type { Tabler };

type FlagField = "paid" | "invoice_sent" | "cancelled";

/** A yes/no/all filter of the orders list: one select per flag, all alike. */
function FlagFilter(props: {
  id: string;
  label: string;
  field: FlagField;
  yes: string;
  no: string;
  filters: OrderFilters;
  onFiltersChange: (filters: OrderFilters) => void;
}) {
  const { id, label, field, yes, no, filters, onFiltersChange } = props;
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect
        id={id}
        value={filters[field] ?? ""}
        onChange={(e) => onFiltersChange({ ...filters, [field]: (e.target.value || undefined) as OrderFilters[FlagField] })}
      >
        <option value="">Alle</option>
        <option value="true">{yes}</option>
        <option value="false">{no}</option>
      </NativeSelect>
    </div>
  );
}
