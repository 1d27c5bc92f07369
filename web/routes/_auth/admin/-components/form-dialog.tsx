import PlusIcon from "lucide-react/icons/plus";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { useMessages } from "@/i18n/use-messages";
import { useFormFeedback } from "@/lib/form";
import { useRefreshAdminData } from "./admin-cache";

/** What a dialog's form gets: close the dialog, and tell it when a call runs (it cannot be closed then). */
export type FormDialogControls = { close: () => void; setBusy: (busy: boolean) => void };

/**
 * An 'Add …' button that opens a modal with a form. The form is mounted only while the modal is open, so
 * it starts empty every time; while its call runs, Escape, the backdrop and the close button do nothing.
 */
export function AddDialogButton({
  label,
  description,
  children,
}: {
  /** The button's text, also the modal's title ('Add Group'). */
  label: string;
  description: string;
  children: (controls: FormDialogControls) => React.ReactNode;
}) {
  const [open, setOpen] = React.useState(false);
  const [busy, setBusy] = React.useState(false);
  const t = useMessages();
  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <PlusIcon aria-hidden="true" />
        {label}
      </Button>
      <Modal
        closeLabel={t.common.close}
        open={open}
        onOpenChange={(next) => {
          if (!busy) setOpen(next);
        }}
        title={label}
        description={description}
      >
        {open && children({ close: () => setOpen(false), setBusy })}
      </Modal>
    </>
  );
}

/**
 * The sending part of an admin dialog's form: runs the call, refreshes the admin data, shows the success
 * in the snackbar and closes; a failure stays in the form as the server's text or `fallback` (docs/product.md §8).
 * `onSubmitInvalid` shows the first problem of a submission the form's own checks refused.
 */
export function useDialogSubmit({ close, setBusy }: FormDialogControls, fallback: string) {
  const refresh = useRefreshAdminData();
  const { showSnackbar } = useSnackbar();
  const { feedback, onSubmitInvalid, attempt } = useFormFeedback();

  async function submit(call: () => Promise<string>) {
    setBusy(true);
    try {
      await attempt(async () => {
        const success = await call();
        await refresh();
        showSnackbar(success, "success");
        close();
        return null;
      }, fallback);
    } finally {
      setBusy(false);
    }
  }

  return { feedback, onSubmitInvalid, submit };
}
