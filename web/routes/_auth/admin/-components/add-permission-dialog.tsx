import { useMutation } from "@tanstack/react-query";
import PlusIcon from "lucide-react/icons/plus";
import * as React from "react";

import { errorFeedback, type Feedback, FormFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { useRefreshAdminData } from "./admin-cache";

// spec §2 Add Permission dialog; §5: key required (trimmed), description trimmed; §8 texts.
export function AddPermissionButton() {
  const [open, setOpen] = React.useState(false);
  const [busy, setBusy] = React.useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <PlusIcon aria-hidden="true" />
        Add Permission
      </Button>
      <Modal
        open={open}
        onOpenChange={(next) => {
          if (!busy) setOpen(next);
        }}
        title="Add Permission"
        description="Give groups this permission on the Groups page."
      >
        {open && <AddPermissionForm onDone={() => setOpen(false)} onBusyChange={setBusy} />}
      </Modal>
    </>
  );
}

function AddPermissionForm({ onDone, onBusyChange }: { onDone: () => void; onBusyChange: (busy: boolean) => void }) {
  const trpc = useTrpc();
  const refresh = useRefreshAdminData();
  const { showSnackbar } = useSnackbar();
  const addPermission = useMutation(trpc.permissions.add.mutationOptions());
  const [key, setKey] = React.useState("");
  const [description, setDescription] = React.useState("");
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);

  const canAdd = key.trim() !== "" && !addPermission.isPending;

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!canAdd) return;
    setFeedback(null);
    onBusyChange(true);
    try {
      await addPermission.mutateAsync({ key: key.trim(), description: description.trim() });
      await refresh();
      showSnackbar("Permission added successfully.", "success");
      onDone();
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, "Failed to add permission")));
    } finally {
      onBusyChange(false);
    }
  }

  return (
    <form className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label="Add Permission">
      <FormFeedback feedback={feedback} />
      <TextField
        label="Key"
        name="key"
        required
        autoFocus
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={64}
        placeholder="orders.export"
        className="font-mono"
        hint="prefix.action, in lowercase; the prefix groups it on this page."
        value={key}
        onChange={(event) => setKey(event.target.value)}
      />
      <TextField
        label="Description"
        name="description"
        autoComplete="off"
        maxLength={500}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onDone} disabled={addPermission.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={!canAdd} aria-busy={addPermission.isPending || undefined}>
          {addPermission.isPending && <Spinner label="Adding" />}
          Add
        </Button>
      </div>
    </form>
  );
}
