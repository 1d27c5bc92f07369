import { AlertDialog as AlertDialogPrimitive } from "radix-ui";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";

// docs/product.md §2 "Shared elements": a confirm dialog with cancel and confirm buttons, default texts
// 'Cancel' and 'Confirm'. Controlled: the caller owns `open`.

export type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title?: React.ReactNode;
  message?: React.ReactNode;
  confirmText?: string;
  cancelText?: string;
  /**
   * May return a promise: the dialog stays open, buttons disabled, until it settles; it closes
   * when the promise resolves and stays open when it rejects.
   */
  onConfirm: () => unknown;
  onCancel?: () => void;
  /** The spinner's accessible name while an async confirmation runs. */
  busyLabel?: string;
  /** Styles the confirm button as destructive (deletions). */
  destructive?: boolean;
};

export function ConfirmDialog({
  open,
  onOpenChange,
  title = "Are you sure?",
  message,
  confirmText = "Confirm",
  cancelText = "Cancel",
  busyLabel = "Working",
  onConfirm,
  onCancel,
  destructive = false,
}: ConfirmDialogProps) {
  const [busy, setBusy] = React.useState(false);

  async function handleConfirm(event: React.MouseEvent) {
    // Keep the dialog open while an async confirmation runs.
    event.preventDefault();
    setBusy(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch (error) {
      // The caller reports its own failures (snackbar, alert); the dialog stays open to retry.
      console.error(error);
    } finally {
      setBusy(false);
    }
  }

  function handleOpenChange(next: boolean) {
    if (busy) return;
    if (!next) onCancel?.();
    onOpenChange(next);
  }

  return (
    <AlertDialogPrimitive.Root open={open} onOpenChange={handleOpenChange}>
      <AlertDialogPrimitive.Portal>
        <AlertDialogPrimitive.Overlay
          data-slot="confirm-dialog-overlay"
          className="fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-fade-in"
        />
        <AlertDialogPrimitive.Content
          data-slot="confirm-dialog"
          className="fixed top-[50%] left-[50%] z-50 grid w-full max-w-[calc(100%-2rem)] translate-x-[-50%] translate-y-[-50%] gap-4 rounded-lg border bg-background p-6 shadow-lg outline-none data-[state=open]:animate-dialog-in sm:max-w-md"
        >
          <div className="flex flex-col gap-2 text-center sm:text-left">
            <AlertDialogPrimitive.Title className="text-lg font-semibold">{title}</AlertDialogPrimitive.Title>
            <AlertDialogPrimitive.Description className={cn("text-sm text-muted-foreground", !message && "sr-only")}>
              {message ?? title}
            </AlertDialogPrimitive.Description>
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogPrimitive.Cancel asChild>
              <Button variant="outline" disabled={busy}>
                {cancelText}
              </Button>
            </AlertDialogPrimitive.Cancel>
            <AlertDialogPrimitive.Action asChild>
              <Button
                variant={destructive ? "destructive" : "default"}
                disabled={busy}
                aria-busy={busy || undefined}
                onClick={handleConfirm}
              >
                {busy && <Spinner label={busyLabel} />}
                {confirmText}
              </Button>
            </AlertDialogPrimitive.Action>
          </div>
        </AlertDialogPrimitive.Content>
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  );
}
