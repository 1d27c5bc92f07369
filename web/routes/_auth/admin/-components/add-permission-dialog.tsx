import { useMutation } from "@tanstack/react-query";
import * as React from "react";

import { FormActions } from "@/components/form-actions";
import { FormFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { useTrpc } from "@/lib/auth";
import { AddDialogButton, type FormDialogControls, useDialogSubmit } from "./form-dialog";

// spec §2 Add Permission dialog; §5: key required (trimmed), description trimmed; §8 texts.
export function AddPermissionButton() {
  return (
    <AddDialogButton label="Add Permission" description="Give groups this permission on the Groups page.">
      {(controls) => <AddPermissionForm controls={controls} />}
    </AddDialogButton>
  );
}

function AddPermissionForm({ controls }: { controls: FormDialogControls }) {
  const trpc = useTrpc();
  const addPermission = useMutation(trpc.permissions.add.mutationOptions());
  const { feedback, submit } = useDialogSubmit(controls, "Failed to add permission");
  const [key, setKey] = React.useState("");
  const [description, setDescription] = React.useState("");

  const canAdd = key.trim() !== "" && !addPermission.isPending;

  function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!canAdd) return;
    void submit(async () => {
      await addPermission.mutateAsync({ key: key.trim(), description: description.trim() });
      return "Permission added successfully.";
    });
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
      <FormActions onCancel={controls.close} busy={addPermission.isPending} canSubmit={canAdd} submitLabel="Add" busyLabel="Adding" />
    </form>
  );
}
