import type * as React from "react";

import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatBookingDate, formatEuroNl } from "./charts-format";
import type { ImportResult, PaymentEntry } from "./payments-import";

/** What every bank booking shows, in the preview of a statement and in a statement read in before. */
type BankEntry = Pick<PaymentEntry, "booked_at" | "amount" | "counterparty" | "remittance" | "reference">;

/** A column after the booking's own ones: its status, what became of it. */
export type EntryColumn<Entry> = { head: string; cell: (entry: Entry) => React.ReactNode; className?: string };

/**
 * The credits of one bank statement, a row each: date, amount, counterparty, description and the order it names,
 * then the caller's `columns`. `compact` narrows the counterparty and description for a table with more columns.
 */
export function EntriesTable<Entry extends BankEntry>({
  label,
  entries,
  rowKey,
  rowData,
  columns,
  compact = false,
}: {
  /** The name of the table's scroll area. */
  label: string;
  entries: readonly Entry[];
  rowKey: (entry: Entry) => React.Key;
  /** The row's data attributes (`data-entry`, …) the row is found by. */
  rowData: (entry: Entry) => Record<`data-${string}`, string>;
  columns: readonly EntryColumn<Entry>[];
  compact?: boolean;
}) {
  return (
    <Table scrollLabel={label}>
      <TableHeader>
        <TableRow>
          <TableHead>Datum</TableHead>
          <TableHead className="text-right">Bedrag</TableHead>
          <TableHead>Tegenpartij</TableHead>
          <TableHead>Omschrijving</TableHead>
          <TableHead>Bestelling</TableHead>
          {columns.map((column) => (
            <TableHead key={column.head}>{column.head}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {entries.length === 0 ? (
          <TableRow>
            <TableCell colSpan={5 + columns.length} className="py-6 text-center text-muted-foreground">
              Geen bijschrijvingen in dit afschrift.
            </TableCell>
          </TableRow>
        ) : (
          entries.map((entry) => (
            <TableRow key={rowKey(entry)} {...rowData(entry)}>
              <TableCell className="whitespace-nowrap">{formatBookingDate(entry.booked_at)}</TableCell>
              <TableCell className="text-right whitespace-nowrap tabular-nums">{formatEuroNl(entry.amount)}</TableCell>
              <TableCell className={compact ? "max-w-40 truncate" : "max-w-48 truncate"} title={entry.counterparty}>
                {entry.counterparty || "–"}
              </TableCell>
              <TableCell className={compact ? "max-w-48 truncate" : "max-w-64 truncate"} title={entry.remittance}>
                {entry.remittance || "–"}
              </TableCell>
              <TableCell className="font-mono text-xs whitespace-nowrap">{entry.reference ?? "–"}</TableCell>
              {columns.map((column) => (
                <TableCell key={column.head} className={column.className}>
                  {column.cell(entry)}
                </TableCell>
              ))}
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}

/** The credits a statement held that were left out of it, each with its reason. */
export function SkippedEntries({ skipped, slot, className }: { skipped: ImportResult["skipped"]; slot: string; className: string }) {
  if (skipped.length === 0) return null;
  return (
    <div className={className} data-slot={slot}>
      <h3 className="font-medium">Niet meegenomen ({skipped.length})</h3>
      <ul className="list-disc pl-5 text-muted-foreground">
        {skipped.map((entry) => (
          <li key={`${entry.entry_ref}-${entry.booked_at}`}>
            {entry.booked_at ? formatBookingDate(entry.booked_at) : "–"}
            {entry.entry_ref && <span className="font-mono text-xs"> {entry.entry_ref}</span>}: {entry.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}
