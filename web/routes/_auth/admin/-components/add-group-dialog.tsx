import { useMutation } from "@tanstack/react-query";
import * as React from "react";

import { FormActions } from "@/components/form-actions";
import { FormFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { AddDialogButton, type FormDialogControls, useDialogSubmit } from "./form-dialog";

// docs/product.md §2 Add Group dialog; §5: name required (Create disabled while it is blank after trimming),
// description optional; §8: failures shown in the form, 'Failed to add group' as the fallback.
export function AddGroupButton() {
  const t = useMessages();
  return (
    <AddDialogButton label={t.groups.addGroup.title} description={t.groups.addGroup.description}>
      {(controls) => <AddGroupForm controls={controls} />}
    </AddDialogButton>
  );
}

function AddGroupForm({ controls }: { controls: FormDialogControls }) {
  const trpc = useTrpc();
  const t = useMessages();
  const addGroup = useMutation(trpc.groups.add.mutationOptions());
  const { feedback, submit } = useDialogSubmit(controls, t.groups.addGroup.failed);
  const [name, setName] = React.useState("");
  const [description, setDescription] = React.useState("");

  const canCreate = name.trim() !== "" && !addGroup.isPending;

  function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!canCreate) return;
    void submit(async () => {
      const result = await addGroup.mutateAsync({ name: name.trim(), description: description.trim() });
      return t.groups.addGroup.added(result.group.name);
    });
  }

  return (
    <form className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label={t.groups.addGroup.title}>
      <FormFeedback feedback={feedback} />
      <TextField
        label={t.common.name}
        name="name"
        required
        autoFocus
        autoComplete="off"
        maxLength={64}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <TextField
        label={t.groups.addGroup.descriptionField}
        name="description"
        autoComplete="off"
        maxLength={500}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
      <FormActions
        onCancel={controls.close}
        busy={addGroup.isPending}
        canSubmit={canCreate}
        submitLabel={t.common.create}
        busyLabel={t.groups.addGroup.creating}
        cancelLabel={t.common.cancel}
      />
    </form>
  );
}
