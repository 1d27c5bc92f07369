import { useStore } from "@tanstack/react-form";
import FileUpIcon from "lucide-react/icons/file-up";
import * as React from "react";

import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useAppForm } from "@/lib/form";
import { UploadNetworkError, uploadWithProgress } from "@/lib/upload";
import { IMPORT_FAILED, type ImportResult, parseImportAnswer } from "./payments-import";

const IMPORT_URL = "/api/payments/import";

/**
 * The form that reads in a CAMT.053 statement (docs/decisions/025): it uploads the file and hands over the preview,
 * or the text of what went wrong. `onError(null)` when a new try starts; `errorId` names the message the file
 * input is described by while `invalid`.
 */
export function StatementUploadForm({
  invalid,
  errorId,
  onResult,
  onError,
  onUploaded,
}: {
  invalid: boolean;
  errorId: string;
  onResult: (result: ImportResult | null) => void;
  onError: (text: string | null) => void;
  /** After every upload that reached the server: the import is stored (not yet processed) either way. */
  onUploaded: () => void;
}) {
  const inputId = `${React.useId()}-file`;
  const form = useAppForm({
    defaultValues: { file: null as File | null },
    onSubmit: async ({ value }) => {
      if (!value.file) return;
      onError(null);
      onResult(null);
      const body = new FormData();
      body.append("file", value.file, value.file.name);
      try {
        const answer = parseImportAnswer(await uploadWithProgress(IMPORT_URL, body));
        if ("error" in answer) onError(answer.error);
        else onResult(answer);
        onUploaded();
      } catch (failure) {
        if (!(failure instanceof UploadNetworkError && failure.aborted)) onError(IMPORT_FAILED);
      }
    },
  });
  const file = useStore(form.store, (state) => state.values.file);

  return (
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
                  id={inputId}
                  type="file"
                  accept=".xml,.053,application/xml,text/xml"
                  onChange={(event) => {
                    field.handleChange(event.target.files?.[0] ?? null);
                    onError(null);
                  }}
                  aria-invalid={invalid ? true : undefined}
                  aria-describedby={invalid ? errorId : undefined}
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
  );
}
