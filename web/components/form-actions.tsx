import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

/**
 * The buttons under a dialog's form: cancel (closes without saving) and submit, which shows a spinner
 * and is marked busy while the call runs. Both are locked while busy, so a dialog cannot be left halfway.
 */
export function FormActions({
  onCancel,
  busy,
  canSubmit = true,
  submitLabel,
  busyLabel,
  cancelLabel = "Cancel",
  submitVariant,
}: {
  onCancel: () => void;
  busy: boolean;
  canSubmit?: boolean;
  submitLabel: string;
  /** What the spinner says to screen readers while busy ('Saving', 'Creating'). */
  busyLabel: string;
  cancelLabel?: string;
  /** 'destructive' for a submit that takes something away ('Disable 2FA'). */
  submitVariant?: "destructive";
}) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <Button type="button" variant="outline" onClick={onCancel} disabled={busy}>
        {cancelLabel}
      </Button>
      <Button type="submit" variant={submitVariant} disabled={busy || !canSubmit} aria-busy={busy || undefined}>
        {busy && <Spinner label={busyLabel} />}
        {submitLabel}
      </Button>
    </div>
  );
}
