import { useMutation } from "@tanstack/react-query";
import * as React from "react";

import { Badge } from "@/components/ui/badge";
import { useSnackbar } from "@/components/ui/snackbar";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { cn } from "@/lib/utils";
import { EntriesTable, type EntryColumn, SkippedEntries } from "./entries-table";
import { usePaymentsRefresh } from "./payments-follow-ups";
import {
  EARLIER_FOLLOW_UP_LABELS,
  type ImportResult,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  type PaymentEntry,
  type PaymentStatus,
  processableCount,
  processedText,
  statusCounts,
} from "./payments-import";
import { ProcessButton } from "./process-button";

const STATUS_STYLES: Record<PaymentStatus, string> = {
  matched: "border-transparent bg-success text-success-foreground",
  amount_mismatch: "border-amber-300 bg-amber-50 text-amber-900",
  unmatched: "border-border bg-muted text-foreground",
  already_imported: "border-border bg-background text-muted-foreground",
};

const STATUS_COLUMN: EntryColumn<PaymentEntry> = {
  head: "Status",
  cell: (entry) => (
    <>
      <Badge variant="outline" className={STATUS_STYLES[entry.status]} data-slot="payment-status">
        {PAYMENT_STATUS_LABELS[entry.status]}
      </Badge>
      {entry.follow_up && (
        <span className="block pt-1 text-xs text-muted-foreground" data-slot="earlier-follow-up">
          {EARLIER_FOLLOW_UP_LABELS[entry.follow_up]}
        </span>
      )}
    </>
  ),
};

/**
 * A statement just read in, before anything is booked: how many bookings have which status, each booking with the
 * order it pays, and 'Verwerken', which books them. `onError` carries the text of a failed processing (null when
 * a new try starts); `onProcessed` follows a processing that went through.
 */
export function ImportPreview({
  result,
  onError,
  onProcessed,
}: {
  result: ImportResult;
  onError: (text: string | null) => void;
  onProcessed: () => void;
}) {
  const trpc = useTrpc();
  const refresh = usePaymentsRefresh();
  const { showSnackbar } = useSnackbar();
  const confirm = useMutation(trpc.payments.confirm.mutationOptions());
  const headingId = `${React.useId()}-preview`;
  const counts = statusCounts(result.entries);
  const processable = processableCount(result.entries);

  async function process() {
    if (processable === 0) return;
    onError(null);
    try {
      const { marked_paid, follow_ups } = await confirm.mutateAsync({ import_id: result.import_id });
      showSnackbar(processedText(marked_paid, follow_ups), "success");
      onProcessed();
      // The follow-ups, the history, the orders' paid switches and the totals now read differently.
      await refresh();
    } catch (failure) {
      onError(errorText(failure, "Verwerken mislukt"));
    }
  }

  return (
    <section aria-labelledby={headingId} className="grid gap-3 *:min-w-0" data-slot="payments-preview">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-2">
          <h2 id={headingId} className="text-base font-semibold">
            Voorbeeld: {result.entries.length} {result.entries.length === 1 ? "boeking" : "boekingen"}
          </h2>
          <ul className="flex flex-wrap gap-2" aria-label="Aantal per status" data-slot="payment-counts">
            {PAYMENT_STATUSES.map((status) => (
              <li key={status} data-status={status}>
                <Badge variant="outline" className={cn("text-xs", STATUS_STYLES[status])}>
                  {PAYMENT_STATUS_LABELS[status]}: <span className="tabular-nums">{counts[status]}</span>
                </Badge>
              </li>
            ))}
          </ul>
        </div>
        <ProcessButton pending={confirm.isPending} disabled={processable === 0 || confirm.isPending} onClick={() => void process()} />
      </div>
      <p className="text-sm text-muted-foreground" data-slot="payments-preview-note">
        {processable === 0
          ? "Niets nieuws: elke betaling in dit afschrift is al verwerkt of staat bij Af te handelen."
          : "Verwerken markeert de gevonden bestellingen als betaald; betalingen met een afwijkend bedrag of zonder bestelling komen bij Af te handelen."}
      </p>
      <div className="rounded-xl border bg-card">
        <EntriesTable
          label="Boekingen van het bankafschrift"
          entries={result.entries}
          rowKey={(entry) => entry.entry_ref}
          rowData={(entry) => ({ "data-entry": entry.entry_ref, "data-status": entry.status })}
          columns={[STATUS_COLUMN]}
        />
      </div>
      <SkippedEntries skipped={result.skipped} slot="payments-skipped" className="grid gap-1 text-sm" />
    </section>
  );
}
