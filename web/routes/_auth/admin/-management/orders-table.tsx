import type * as React from "react";

import { SelectionCheckbox } from "@/components/ui/selection-checkbox";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { OrderSort } from "#src/features/orders/orders.schemas";
import type { SortDir } from "./search";
import type { Order } from "./shared";
import { SortableHead } from "./sortable-head";

type PageCheckbox = boolean | "indeterminate";

/**
 * The orders of one page on a wide screen: a row each, the columns that sort on the server, and a checkbox that
 * ticks the whole page. `busy` while the next page loads with this one still on screen.
 */
export function OrdersTable({
  rows,
  renderRow,
  pageCheckbox,
  onSelectPage,
  sort,
  dir,
  onSort,
  busy,
}: {
  rows: readonly Order[];
  renderRow: (order: Order) => React.ReactNode;
  pageCheckbox: PageCheckbox;
  onSelectPage: (checked: boolean) => void;
  sort: OrderSort;
  dir: SortDir;
  onSort: (column: OrderSort) => void;
  busy: boolean;
}) {
  const sortable = (column: OrderSort, label: string, className?: string) => (
    <SortableHead column={column} label={label} sort={sort} dir={dir} onSort={onSort} className={className} />
  );
  return (
    <Table className="text-[13px]" scrollLabel="Bestellingen" aria-busy={busy || undefined}>
      <TableHeader>
        <TableRow>
          <TableHead className="w-8">
            <SelectionCheckbox
              checked={pageCheckbox}
              onCheckedChange={(checked) => onSelectPage(checked === true)}
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
          rows.map(renderRow)
        )}
      </TableBody>
    </Table>
  );
}

/** The same orders on a phone: a card each, under one checkbox for the whole page. */
export function OrderCards({
  rows,
  renderCard,
  pageCheckbox,
  onSelectPage,
}: {
  rows: readonly Order[];
  renderCard: (order: Order) => React.ReactNode;
  pageCheckbox: PageCheckbox;
  onSelectPage: (checked: boolean) => void;
}) {
  return (
    <div className="grid gap-3 md:hidden">
      {rows.length > 0 && (
        <label className="flex items-center gap-3 px-4 text-sm">
          <SelectionCheckbox checked={pageCheckbox} onCheckedChange={(checked) => onSelectPage(checked === true)} />
          Selecteer alle bestellingen op deze pagina
        </label>
      )}
      {rows.length === 0 ? (
        <p className="rounded-xl border bg-card p-4 text-center text-sm text-muted-foreground">Geen bestellingen gevonden.</p>
      ) : (
        rows.map(renderCard)
      )}
    </div>
  );
}
