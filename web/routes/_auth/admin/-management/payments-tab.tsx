import { useStore } from "@tanstack/react-form";
import { useMutation } from "@tanstack/react-query";
import CircleAlertIcon from "lucide-react/icons/circle-alert";
import FileUpIcon from "lucide-react/icons/file-up";
import ListChecksIcon from "lucide-react/icons/list-checks";
import * as React from "react";

import { Alert, AlertDescription } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { useAppForm } from "@/lib/form";
import { UploadNetworkError, uploadWithProgress } from "@/lib/upload";
import { cn } from "@/lib/utils";
import { formatBookingDate, formatEuroNl } from "./charts-format";
import { FollowUpsSection, usePaymentsRefresh } from "./payments-follow-ups";
import { ImportHistory } from "./payments-history";
import {
  EARLIER_FOLLOW_UP_LABELS,
  IMPORT_FAILED,
  type ImportResult,
  parseImportAnswer,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  type PaymentStatus,
  processableCount,
  processedText,
  statusCounts,
} from "./payments-import";

// docs/decisions/025, docs/architecture.md §5 "Invoices and payments": the treasurer reads in the bank's CAMT.053 statement,
// sees per booking whether it pays an invoiced order, and only then marks the matched orders paid.
// Reading in changes nothing on the server; 'Verwerken' does, once per import (a statement read in
// twice never pays twice: its bookings then show as 'Al verwerkt'). What it cannot book stays below as
// a follow-up, and every import stays listed (docs/decisions/057).

const IMPORT_URL = "/api/payments/import";

const STATUS_STYLES: Record<PaymentStatus, string> = {
  matched: "border-transparent bg-success text-success-foreground",
  amount_mismatch: "border-amber-300 bg-amber-50 text-amber-900",
  unmatched: "border-border bg-muted text-foreground",
  already_imported: "border-border bg-background text-muted-foreground",
};

export function PaymentsTab() {
  const trpc = useTrpc();
  const refresh = usePaymentsRefresh();
  const { showSnackbar } = useSnackbar();
  const confirm = useMutation(trpc.payments.confirm.mutationOptions());
  const inputRef = React.useRef<HTMLInputElement>(null);
  const [error, setError] = React.useState<string | null>(null);
  const [result, setResult] = React.useState<ImportResult | null>(null);
  const id = React.useId();
  const inputId = `${id}-file`;
  const errorId = `${id}-error`;

  const form = useAppForm({
    defaultValues: { file: null as File | null },
    onSubmit: async ({ value }) => {
      if (!value.file) return;
      setError(null);
      setResult(null);
      const body = new FormData();
      body.append("file", value.file, value.file.name);
      try {
        const answer = parseImportAnswer(await uploadWithProgress(IMPORT_URL, body));
        if ("error" in answer) setError(answer.error);
        else setResult(answer);
        // The import is stored (not yet processed) and listed below either way.
        void refresh();
      } catch (failure) {
        if (!(failure instanceof UploadNetworkError && failure.aborted)) setError(IMPORT_FAILED);
      }
    },
  });
  const file = useStore(form.store, (state) => state.values.file);

  const counts = result ? statusCounts(result.entries) : null;
  const processable = result ? processableCount(result.entries) : 0;

  async function process() {
    if (!result || processable === 0) return;
    setError(null);
    try {
      const { marked_paid, follow_ups } = await confirm.mutateAsync({ import_id: result.import_id });
      showSnackbar(processedText(marked_paid, follow_ups), "success");
      setResult(null);
      form.reset();
      if (inputRef.current) inputRef.current.value = "";
      // The follow-ups, the history, the orders' paid switches and the totals now read differently.
      await refresh();
    } catch (failure) {
      setError(errorText(failure, "Verwerken mislukt"));
    }
  }

  return (
    // Grid items keep their content's width by default; min-w-0 lets the preview's table scroll inside its
    // own box on a phone instead of widening the page.
    <div className="grid gap-4 *:min-w-0" data-slot="payments-tab">
      <form.AppForm>
        <form.Form className="grid gap-3 rounded-xl border bg-card p-4" aria-label="Bankafschrift inlezen">
          <div className="grid gap-1">
            <h2 className="text-base font-semibold">Bankafschrift inlezen</h2>
            <p className="text-sm text-muted-foreground">
              Download het dagafschrift als CAMT.053 (XML) bij de bank. Na het inlezen zie je eerst welke betalingen bij een gefactureerde
              bestelling horen; pas bij Verwerken worden die bestellingen als betaald gemarkeerd.
            </p>
          </div>
          <div className="flex flex-wrap items-end gap-3">
            <div className="grid min-w-0 flex-1 gap-2 sm:max-w-md">
              <Label htmlFor={inputId}>Bankafschrift (CAMT.053)</Label>
              <form.AppField name="file">
                {(field) => (
                  // A file input keeps its own value: the field only learns which file was chosen.
                  <Input
                    ref={inputRef}
                    id={inputId}
                    type="file"
                    accept=".xml,.053,application/xml,text/xml"
                    onChange={(event) => {
                      field.handleChange(event.target.files?.[0] ?? null);
                      setError(null);
                    }}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? errorId : undefined}
                    className="bg-background"
                  />
                )}
              </form.AppField>
            </div>
            <form.SubmitButton canSubmit={file !== null} busyLabel="Bezig met inlezen" icon={<FileUpIcon aria-hidden="true" />}>
              Inlezen
            </form.SubmitButton>
          </div>
        </form.Form>
      </form.AppForm>

      {error && (
        <Alert variant="destructive" id={errorId} data-slot="payments-error">
          <CircleAlertIcon aria-hidden="true" />
          <AlertDescription className="text-destructive-text">{error}</AlertDescription>
        </Alert>
      )}

      {result && counts && (
        <section aria-labelledby={`${id}-preview`} className="grid gap-3 *:min-w-0" data-slot="payments-preview">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div className="grid gap-2">
              <h2 id={`${id}-preview`} className="text-base font-semibold">
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
            <Button
              onClick={() => void process()}
              disabled={processable === 0 || confirm.isPending}
              aria-busy={confirm.isPending || undefined}
            >
              {confirm.isPending ? <Spinner label="Bezig met verwerken" /> : <ListChecksIcon aria-hidden="true" />}
              Verwerken
            </Button>
          </div>
          <p className="text-sm text-muted-foreground" data-slot="payments-preview-note">
            {processable === 0
              ? "Niets nieuws: elke betaling in dit afschrift is al verwerkt of staat bij Af te handelen."
              : "Verwerken markeert de gevonden bestellingen als betaald; betalingen met een afwijkend bedrag of zonder bestelling komen bij Af te handelen."}
          </p>
          <div className="rounded-xl border bg-card">
            <Table scrollLabel="Boekingen van het bankafschrift">
              <TableHeader>
                <TableRow>
                  <TableHead>Datum</TableHead>
                  <TableHead className="text-right">Bedrag</TableHead>
                  <TableHead>Tegenpartij</TableHead>
                  <TableHead>Omschrijving</TableHead>
                  <TableHead>Bestelling</TableHead>
                  <TableHead>Status</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {result.entries.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={6} className="py-6 text-center text-muted-foreground">
                      Geen bijschrijvingen in dit afschrift.
                    </TableCell>
                  </TableRow>
                ) : (
                  result.entries.map((entry) => (
                    <TableRow key={entry.entry_ref} data-entry={entry.entry_ref} data-status={entry.status}>
                      <TableCell className="whitespace-nowrap">{formatBookingDate(entry.booked_at)}</TableCell>
                      <TableCell className="text-right whitespace-nowrap tabular-nums">{formatEuroNl(entry.amount)}</TableCell>
                      <TableCell className="max-w-48 truncate" title={entry.counterparty}>
                        {entry.counterparty || "–"}
                      </TableCell>
                      <TableCell className="max-w-64 truncate" title={entry.remittance}>
                        {entry.remittance || "–"}
                      </TableCell>
                      <TableCell className="font-mono text-xs whitespace-nowrap">{entry.reference ?? "–"}</TableCell>
                      <TableCell>
                        <Badge variant="outline" className={STATUS_STYLES[entry.status]} data-slot="payment-status">
                          {PAYMENT_STATUS_LABELS[entry.status]}
                        </Badge>
                        {entry.follow_up && (
                          <span className="block pt-1 text-xs text-muted-foreground" data-slot="earlier-follow-up">
                            {EARLIER_FOLLOW_UP_LABELS[entry.follow_up]}
                          </span>
                        )}
                      </TableCell>
                    </TableRow>
                  ))
                )}
              </TableBody>
            </Table>
          </div>
          {result.skipped.length > 0 && (
            <div className="grid gap-1 text-sm" data-slot="payments-skipped">
              <h3 className="font-medium">Niet meegenomen ({result.skipped.length})</h3>
              <ul className="list-disc pl-5 text-muted-foreground">
                {result.skipped.map((entry) => (
                  <li key={`${entry.entry_ref}-${entry.booked_at}`}>
                    {entry.booked_at ? formatBookingDate(entry.booked_at) : "–"}
                    {entry.entry_ref && <span className="font-mono text-xs"> {entry.entry_ref}</span>}: {entry.reason}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </section>
      )}

      <FollowUpsSection />
      <ImportHistory />
    </div>
  );
}
