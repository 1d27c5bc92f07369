import * as React from "react";

import type { Order } from "./shared";

const EMPTY_SELECTION: ReadonlyMap<number, string> = new Map();

/**
 * The orders ticked for the bulk actions, one by one, possibly on several pages (id → reference, for the bulk
 * result). A new filter or search (`filterKey`) starts a new selection: orders ticked under the old one may be out
 * of sight. `rows` are the orders on this page.
 */
export function useOrderSelection(filterKey: string, rows: readonly Order[]) {
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
  const clear = React.useCallback(() => changeSelection((next) => next.clear()), [changeSelection]);
  const setSelected = React.useCallback(
    (order: Pick<Order, "id" | "reference">, checked: boolean) =>
      changeSelection((next) => {
        if (checked) next.set(order.id, order.reference);
        else next.delete(order.id);
      }),
    [changeSelection],
  );

  // The bulk actions take the orders on this page in table order, then the ones ticked on other pages.
  const onPage = rows.filter((o) => selected.has(o.id)).map((o) => o.id);
  const onPageIds = new Set(rows.map((o) => o.id));
  const offPage = [...selected.keys()].filter((id) => !onPageIds.has(id));
  const pageSelected = rows.length > 0 && onPage.length === rows.length;

  function setPageSelected(checked: boolean) {
    changeSelection((next) => {
      for (const o of rows) {
        if (checked) next.set(o.id, o.reference);
        else next.delete(o.id);
      }
    });
  }

  return {
    selected,
    /** In the order the bulk actions take them. */
    selectedIds: [...onPage, ...offPage],
    offPageCount: offPage.length,
    /** The state of the 'whole page' checkbox. */
    pageCheckbox: pageSelected ? true : onPage.length > 0 ? ("indeterminate" as const) : false,
    clear,
    setSelected,
    setPageSelected,
  };
}
