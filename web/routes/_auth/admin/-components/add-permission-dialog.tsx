import { useMutation } from "@tanstack/react-query";
import * as React from "react";

import { FormActions } from "@/components/form-actions";
import { FormFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { AddDialogButton, type FormDialogControls, useDialogSubmit } from "./form-dialog";

// docs/product.md §2 Add Permission dialog; §5: key required (trimmed), description trimmed; §8 texts.
export function AddPermissionButton() {
  const t = useMessages();
  return (
    <AddDialogButton label={t.permissions.addPermission.title} description={t.permissions.addPermission.description}>
      {(controls) => <AddPermissionForm controls={controls} />}
    </AddDialogButton>
  );
}

function AddPermissionForm({ controls }: { controls: FormDialogControls }) {
  const trpc = useTrpc();
  const t = useMessages();
  const addPermission = useMutation(trpc.permissions.add.mutationOptions());
  const { feedback, submit } = useDialogSubmit(controls, t.permissions.addPermission.failed);
  const [key, setKey] = React.useState("");
  const [description, setDescription] = React.useState("");

  const canAdd = key.trim() !== "" && !addPermission.isPending;

  function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!canAdd) return;
    void submit(async () => {
      await addPermission.mutateAsync({ key: key.trim(), description: description.trim() });
      return t.permissions.addPermission.added;
    });
  }

  return (
    <form className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label={t.permissions.addPermission.title}>
      <FormFeedback feedback={feedback} />
      <TextField
        label={t.permissions.addPermission.key}
        name="key"
        required
        autoFocus
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={64}
        placeholder="orders.export"
        className="font-mono"
        hint={t.permissions.addPermission.keyHint}
        value={key}
        onChange={(event) => setKey(event.target.value)}
      />
      <TextField
        label={t.common.description}
        name="description"
        autoComplete="off"
        maxLength={500}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
      <FormActions
        onCancel={controls.close}
        busy={addPermission.isPending}
        canSubmit={canAdd}
        submitLabel={t.common.add}
        busyLabel={t.permissions.addPermission.adding}
        cancelLabel={t.common.cancel}
      />
    </form>
  );
}
