import CircleAlertIcon from "lucide-react/icons/circle-alert";
import * as React from "react";

import { Alert, AlertDescription } from "@/components/ui/alert";
import { OnlinePaymentsSection } from "./online-payments";
import { FollowUpsSection, usePaymentsRefresh } from "./payments-follow-ups";
import { ImportHistory } from "./payments-history";
import type { ImportResult } from "./payments-import";
import { ImportPreview } from "./payments-preview";
import { StatementUploadForm } from "./statement-upload-form";

// docs/decisions/025, docs/architecture.md §5 "Invoices and payments": the treasurer reads in the bank's CAMT.053 statement,
// sees per booking whether it pays an invoiced order, and only then marks the matched orders paid.
// Reading in changes nothing on the server; 'Verwerken' does, once per import (a statement read in
// twice never pays twice: its bookings then show as 'Al verwerkt'). What it cannot book stays below as
// a follow-up, and every import stays listed (docs/decisions/057). Payments through Mollie have a list of their
// own (docs/decisions/066).

export function PaymentsTab() {
  const refresh = usePaymentsRefresh();
  const [error, setError] = React.useState<string | null>(null);
  const [result, setResult] = React.useState<ImportResult | null>(null);
  // A processed statement leaves an empty form for the next one: a new key gives the form (and its file input) afresh.
  const [formKey, setFormKey] = React.useState(0);
  const errorId = `${React.useId()}-error`;

  return (
    // Grid items keep their content's width by default; min-w-0 lets the preview's table scroll inside its
    // own box on a phone instead of widening the page.
    <div className="grid gap-4 *:min-w-0" data-slot="payments-tab">
      <StatementUploadForm
        key={formKey}
        invalid={Boolean(error)}
        errorId={errorId}
        onResult={setResult}
        onError={setError}
        onUploaded={() => void refresh()}
      />

      {error && (
        <Alert variant="destructive" id={errorId} data-slot="payments-error">
          <CircleAlertIcon aria-hidden="true" />
          <AlertDescription className="text-destructive-text">{error}</AlertDescription>
        </Alert>
      )}

      {result && (
        <ImportPreview
          result={result}
          onError={setError}
          onProcessed={() => {
            setResult(null);
            setFormKey((key) => key + 1);
          }}
        />
      )}

      <FollowUpsSection />
      <OnlinePaymentsSection />
      <ImportHistory />
    </div>
  );
}
