import { useMutation } from "@tanstack/react-query";
import type * as z from "zod";

import { FormFeedback } from "@/components/form-feedback";
import { useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { useAppForm } from "@/lib/form";
import { liveCheck } from "@/lib/form-errors";
import { addGroupSchema } from "#src/features/groups/groups.schemas";
import { AddDialogButton, type FormDialogControls, useDialogSubmit } from "./form-dialog";

// docs/product.md §2 Add Group dialog; §5: name required (Create disabled while it is blank after trimming),
// description optional; §8: failures shown in the form, 'Failed to add group' as the fallback. The server's
// schema is the check, and makes what is sent (trimmed).
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
  const { feedback, onSubmitInvalid, submit } = useDialogSubmit(controls, t.groups.addGroup.failed);
  const defaultValues: z.input<typeof addGroupSchema> = { name: "", description: "" };
  const form = useAppForm({
    defaultValues,
    validators: liveCheck(addGroupSchema),
    onSubmitInvalid,
    onSubmit: ({ value }) =>
      submit(async () => {
        const result = await addGroup.mutateAsync(addGroupSchema.parse(value));
        return t.groups.addGroup.added(result.group.name);
      }),
  });

  return (
    <form.AppForm>
      <form.Form className="grid gap-4" noValidate aria-label={t.groups.addGroup.title}>
        <FormFeedback feedback={feedback} />
        <form.AppField name="name">
          {(field) => <field.TextField label={t.common.name} required autoFocus autoComplete="off" maxLength={64} />}
        </form.AppField>
        <form.AppField name="description">
          {(field) => <field.TextField label={t.groups.addGroup.descriptionField} autoComplete="off" maxLength={500} />}
        </form.AppField>
        <form.Actions
          onCancel={controls.close}
          submitLabel={t.common.create}
          busyLabel={t.groups.addGroup.creating}
          cancelLabel={t.common.cancel}
        />
      </form.Form>
    </form.AppForm>
  );
}
