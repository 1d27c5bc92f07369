import { keepPreviousData, useQuery } from "@tanstack/react-query";
import * as React from "react";

import { Spinner } from "@/components/ui/spinner";
import { useTrpc } from "@/lib/auth";
import type { OrderSort } from "#src/features/orders/orders.schemas";
import { LoadError, LoadingState } from "../-components/admin-page";
import { BulkActions } from "./bulk-actions";
import { OrderDialog } from "./order-dialog";
import { OrdersFilters } from "./orders-filters";
import { Pager, PerPageSelect } from "./orders-pager";
import { OrderRow } from "./orders-row";
import { OrderCards, OrdersTable } from "./orders-table";
import { effectiveSort, type ManagementSearch, nextSort, orderFilters, ordersPageInput, type SearchChange } from "./search";
import { type Order, ordersCountText } from "./shared";
import { useOrderSelection } from "./use-order-selection";

// docs/product.md §2 tab Bestellingen; §4 paid and invoice states; §8 messages. The server
// filters and edits change the cache instead of reloading. docs/decisions/020–022: the overdue and credited filters,
// and a selection for the bulk actions. docs/decisions/034: one page at a time from orders.page (50 by default,
// sorted by the server), with filters, search text, sort and page in the URL (search.ts). docs/decisions/023: the
// delivered filter and mark, and the chosen tabler's delivery list.

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
  const setPage = (page: number) => onSearchChange({ page: page > 1 ? page : undefined });
  const sortBy = (column: OrderSort) => void onSearchChange({ ...nextSort(search, column), page: undefined });

  const data = ordersQuery.data;
  const rows = data?.orders ?? [];
  const selection = useOrderSelection(JSON.stringify(orderFilters(search)), rows);
  const listTop = React.useRef<HTMLDivElement>(null);
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.per_page)) : 1;

  // A page past the end (a link from when there were more orders, or the last order of the last page
  // deleted): go to the last page there is.
  const pastTheEnd = data !== undefined && !ordersQuery.isPlaceholderData && rows.length === 0 && data.total > 0 && urlPage > pageCount;
  React.useEffect(() => {
    if (pastTheEnd) void onSearchChange({ page: pageCount > 1 ? pageCount : undefined }, { replace: true });
  }, [pastTheEnd, pageCount, onSearchChange]);

  // The table (wide screens) and the cards (phones) show the same rows with the same selection.
  const renderOrder = (order: Order, variant: "row" | "card") => (
    <OrderRow
      key={order.id}
      order={order}
      selected={selection.selected.has(order.id)}
      onSelectedChange={selection.setSelected}
      onEdit={setEditing}
      onError={onError}
      variant={variant}
    />
  );
  const { sort, dir } = effectiveSort(search);

  return (
    <div className="grid gap-3">
      <OrdersFilters search={search} onSearchChange={onSearchChange} tablers={tablers} onNewOrder={() => setEditing("new")} />

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
              <PerPageSelect value={data!.per_page} onChange={(perPage) => void onSearchChange({ per_page: perPage, page: undefined })} />
              <Pager
                label="Paginering"
                page={Math.min(data!.page, pageCount)}
                pageCount={pageCount}
                urlPage={urlPage}
                onPage={(page) => void setPage(page)}
              />
            </div>
          </div>
          <BulkActions
            ids={selection.selectedIds}
            references={selection.selected}
            offPage={selection.offPageCount}
            onClear={selection.clear}
          />
          <div className="hidden rounded-xl border bg-card md:block">
            <OrdersTable
              rows={rows}
              renderRow={(order) => renderOrder(order, "row")}
              pageCheckbox={selection.pageCheckbox}
              onSelectPage={selection.setPageSelected}
              sort={sort}
              dir={dir}
              onSort={sortBy}
              busy={ordersQuery.isPlaceholderData}
            />
          </div>
          <OrderCards
            rows={rows}
            renderCard={(order) => renderOrder(order, "card")}
            pageCheckbox={selection.pageCheckbox}
            onSelectPage={selection.setPageSelected}
          />
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
