import { useMutation, useQuery } from "@tanstack/react-query";
import * as React from "react";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { LoadError, LoadingState } from "../-components/admin-page";
import { formatBookingDate, formatEuroNl } from "./charts-format";
import { EntriesTable, type EntryColumn, SkippedEntries } from "./entries-table";
import { usePaymentsRefresh } from "./payments-follow-ups";
import {
  type ImportSummary,
  importCounts,
  outcomeText,
  PAYMENT_STATUS_LABELS,
  periodText,
  processedText,
  type StoredEntryView,
} from "./payments-import";
import { ProcessButton } from "./process-button";
import { formatNlDate } from "./shared";

// docs/decisions/057: every statement read in stays listed, newest first, and opens to show its lines and
// what became of each.

export function ImportHistory() {
  const trpc = useTrpc();
  const query = useQuery(trpc.payments.imports.queryOptions());
  const [open, setOpen] = React.useState<ImportSummary | null>(null);
  const headingId = React.useId();

  let body: React.ReactNode;
  if (query.isPending) body = <LoadingState label="Ingelezen afschriften laden" />;
  else if (query.isError)
    body = (
      <LoadError
        title="Ingelezen afschriften laden mislukt"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  else if (query.data.imports.length === 0)
    body = <p className="rounded-xl border bg-card p-4 text-sm text-muted-foreground">Nog geen bankafschrift ingelezen.</p>;
  else
    body = (
      <ul className="grid gap-2" aria-labelledby={headingId}>
        {query.data.imports.map((summary) => (
          <ImportRow key={summary.id} summary={summary} onOpen={() => setOpen(summary)} />
        ))}
      </ul>
    );

  return (
    <section aria-labelledby={headingId} className="grid gap-3 *:min-w-0" data-slot="payments-history">
      <h2 id={headingId} className="text-base font-semibold">
        Ingelezen afschriften
      </h2>
      {body}
      <ImportDialog summary={open} onClose={() => setOpen(null)} />
    </section>
  );
}

function statementLine(summary: ImportSummary): string {
  const period = periodText(summary.period_from, summary.period_to);
  return [summary.statement_id && `Afschrift ${summary.statement_id}`, period].filter(Boolean).join(" · ");
}

function ImportRow({ summary, onOpen }: { summary: ImportSummary; onOpen: () => void }) {
  const statement = statementLine(summary);
  return (
    <li
      className="flex flex-wrap items-start justify-between gap-3 rounded-xl border bg-card p-4 text-sm"
      data-slot="payment-import"
      data-import={summary.id}
    >
      <div className="grid min-w-0 flex-1 basis-64 gap-1">
        <span className="font-medium wrap-anywhere">{summary.filename}</span>
        {statement && <span className="text-muted-foreground wrap-anywhere">{statement}</span>}
        <span className="text-muted-foreground">
          Ingelezen {formatNlDate(summary.created_at)}
          {summary.created_by ? ` door ${summary.created_by}` : ""} ·{" "}
          {summary.confirmed_at ? `verwerkt ${formatNlDate(summary.confirmed_at)}` : "niet verwerkt"}
        </span>
        <ul className="flex flex-wrap gap-1.5 pt-1" aria-label="Aantallen" data-slot="import-counts">
          {importCounts(summary).map((c) => (
            <li key={c.key} data-count={c.key}>
              <Badge variant="outline" className="text-xs">
                {c.label}: <span className="tabular-nums">{c.count}</span>
              </Badge>
            </li>
          ))}
        </ul>
      </div>
      <Button
        variant="outline"
        size="sm"
        onClick={onOpen}
        aria-label={`Bekijken: ${summary.filename}, ingelezen ${formatNlDate(summary.created_at)}`}
      >
        Bekijken
      </Button>
    </li>
  );
}

function ImportDialog({ summary, onClose }: { summary: ImportSummary | null; onClose: () => void }) {
  return (
    <Modal
      closeLabel="Sluiten"
      open={summary !== null}
      onOpenChange={(open) => !open && onClose()}
      title={summary ? `Bankafschrift ${summary.filename}` : "Bankafschrift"}
      className="sm:max-w-4xl"
    >
      {summary && <ImportDetail importId={summary.id} />}
    </Modal>
  );
}

/** After the booking itself: its status when read in, and what processing made of it. */
const OUTCOME_COLUMNS: readonly EntryColumn<StoredEntryView>[] = [
  { head: "Status", className: "whitespace-nowrap", cell: (entry) => PAYMENT_STATUS_LABELS[entry.status] },
  {
    head: "Resultaat",
    className: "min-w-40 whitespace-normal",
    cell: (entry) => (
      <>
        <span data-slot="entry-outcome">{outcomeText(entry)}</span>
        {entry.resolved_by && <span className="block text-xs text-muted-foreground">door {entry.resolved_by}</span>}
      </>
    ),
  },
];

function ImportDetail({ importId }: { importId: number }) {
  const trpc = useTrpc();
  const refresh = usePaymentsRefresh();
  const { showSnackbar } = useSnackbar();
  const query = useQuery(trpc.payments.entries.queryOptions({ import_id: importId }));
  const confirm = useMutation(trpc.payments.confirm.mutationOptions());
  const [error, setError] = React.useState<string | null>(null);

  if (query.isPending) return <LoadingState label="Boekingen laden" />;
  if (query.isError)
    return (
      <LoadError title="Boekingen laden mislukt" error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
    );
  const { import: summary, entries, skipped } = query.data;
  const statement = statementLine(summary);

  async function process() {
    setError(null);
    try {
      const { marked_paid, follow_ups } = await confirm.mutateAsync({ import_id: importId });
      showSnackbar(processedText(marked_paid, follow_ups), "success");
      await refresh();
    } catch (failure) {
      setError(errorText(failure, "Verwerken mislukt"));
    }
  }

  return (
    <div className="grid min-w-0 gap-3 text-sm" data-slot="payment-import-detail">
      <p className="text-muted-foreground">
        {statement && <span className="block wrap-anywhere">{statement}</span>}
        Ingelezen {formatNlDate(summary.created_at)}
        {summary.created_by ? ` door ${summary.created_by}` : ""} ·{" "}
        {summary.confirmed_at ? `verwerkt ${formatNlDate(summary.confirmed_at)}` : "nog niet verwerkt"}
      </p>
      {!summary.confirmed_at && (
        <div className="flex flex-wrap items-center gap-3">
          <ProcessButton pending={confirm.isPending} disabled={confirm.isPending} onClick={() => void process()} />
          {error && (
            <p role="alert" className="text-destructive">
              {error}
            </p>
          )}
        </div>
      )}
      {entries.length === 0 && <p className="text-muted-foreground md:hidden">Geen bijschrijvingen in dit afschrift.</p>}
      {/* Phones: a card per line, what became of it first in view instead of at the end of a wide table. */}
      <ul className="grid gap-2 md:hidden" aria-label="Boekingen van dit bankafschrift">
        {entries.map((entry) => (
          <EntryCard key={entry.id} entry={entry} />
        ))}
      </ul>
      <div className="hidden min-w-0 rounded-xl border md:block">
        <EntriesTable
          label="Boekingen van dit bankafschrift"
          entries={entries}
          rowKey={(entry) => entry.id}
          rowData={(entry) => ({ "data-entry": entry.entry_ref, "data-outcome": entry.outcome })}
          columns={OUTCOME_COLUMNS}
          compact
        />
      </div>
      <SkippedEntries skipped={skipped} slot="import-skipped" className="grid gap-1" />
    </div>
  );
}

function EntryCard({ entry }: { entry: StoredEntryView }) {
  return (
    <li className="grid gap-1 rounded-lg border p-3" data-entry-card={entry.entry_ref} data-outcome={entry.outcome}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold tabular-nums">{formatEuroNl(entry.amount)}</span>
        <span className="text-muted-foreground">{formatBookingDate(entry.booked_at)}</span>
      </div>
      <span className="wrap-anywhere">{entry.counterparty || "–"}</span>
      <span className="text-muted-foreground wrap-anywhere">{entry.remittance || "–"}</span>
      <span className="text-muted-foreground">
        {PAYMENT_STATUS_LABELS[entry.status]}
        {entry.reference && <span className="font-mono text-xs"> · {entry.reference}</span>}
      </span>
      <span className="font-medium">
        {outcomeText(entry)}
        {entry.resolved_by && <span className="font-normal text-muted-foreground"> (door {entry.resolved_by})</span>}
      </span>
    </li>
  );
}
