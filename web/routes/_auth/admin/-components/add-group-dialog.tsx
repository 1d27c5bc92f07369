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

// spec §2 Add Group dialog; §5: name required (Create disabled while it is blank after trimming),
// description optional; §8: failures shown in the form, 'Failed to add group' as the fallback.
export function AddGroupButton() {
  const [open, setOpen] = React.useState(false);
  const [busy, setBusy] = React.useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <PlusIcon aria-hidden="true" />
        Add Group
      </Button>
      <Modal
        open={open}
        onOpenChange={(next) => {
          if (!busy) setOpen(next);
        }}
        title="Add Group"
        description="Members of a group get every permission the group holds."
      >
        {open && <AddGroupForm onDone={() => setOpen(false)} onBusyChange={setBusy} />}
      </Modal>
    </>
  );
}

function AddGroupForm({ onDone, onBusyChange }: { onDone: () => void; onBusyChange: (busy: boolean) => void }) {
  const trpc = useTrpc();
  const refresh = useRefreshAdminData();
  const { showSnackbar } = useSnackbar();
  const addGroup = useMutation(trpc.groups.add.mutationOptions());
  const [name, setName] = React.useState("");
  const [description, setDescription] = React.useState("");
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);

  const canCreate = name.trim() !== "" && !addGroup.isPending;

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!canCreate) return;
    setFeedback(null);
    onBusyChange(true);
    try {
      const result = await addGroup.mutateAsync({ name: name.trim(), description: description.trim() });
      await refresh();
      showSnackbar(`Group ${result.group.name} added`, "success");
      onDone();
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, "Failed to add group")));
    } finally {
      onBusyChange(false);
    }
  }

  return (
    <form className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label="Add Group">
      <FormFeedback feedback={feedback} />
      <TextField
        label="Name"
        name="name"
        required
        autoFocus
        autoComplete="off"
        maxLength={64}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <TextField
        label="Description (optional)"
        name="description"
        autoComplete="off"
        maxLength={500}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onDone} disabled={addGroup.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={!canCreate} aria-busy={addGroup.isPending || undefined}>
          {addGroup.isPending && <Spinner label="Creating" />}
          Create
        </Button>
      </div>
    </form>
  );
}
