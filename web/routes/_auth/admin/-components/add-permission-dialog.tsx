import { useMutation } from "@tanstack/react-query";
import type * as z from "zod";

import { FormFeedback } from "@/components/form-feedback";
import { useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { useAppForm } from "@/lib/form";
import { liveCheck } from "@/lib/form-errors";
import { addPermissionSchema, PERMISSION_KEY_REQUIRED } from "#src/features/permissions/permissions.schemas";
import { AddDialogButton, type FormDialogControls, useDialogSubmit } from "./form-dialog";

// docs/product.md §2 Add Permission dialog; §5: key required (trimmed; Add disabled while it is blank),
// description trimmed; §8 texts. The rest of the server's schema (the prefix.action form) is checked on
// submit, with the server's text.
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
  const { feedback, onSubmitInvalid, submit } = useDialogSubmit(controls, t.permissions.addPermission.failed);
  const defaultValues: z.input<typeof addPermissionSchema> = { key: "", description: "" };
  const form = useAppForm({
    defaultValues,
    validators: {
      ...liveCheck(({ value }: { value: { key: string } }) => (value.key.trim() === "" ? PERMISSION_KEY_REQUIRED : undefined)),
      onSubmit: addPermissionSchema,
    },
    onSubmitInvalid,
    onSubmit: ({ value }) =>
      submit(async () => {
        await addPermission.mutateAsync(addPermissionSchema.parse(value));
        return t.permissions.addPermission.added;
      }),
  });

  return (
    <form.AppForm>
      <form.Form className="grid gap-4" noValidate aria-label={t.permissions.addPermission.title}>
        <FormFeedback feedback={feedback} />
        <form.AppField name="key">
          {(field) => (
            <field.TextField
              label={t.permissions.addPermission.key}
              required
              autoFocus
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={64}
              placeholder="orders.export"
              className="font-mono"
              hint={t.permissions.addPermission.keyHint}
            />
          )}
        </form.AppField>
        <form.AppField name="description">
          {(field) => <field.TextField label={t.common.description} autoComplete="off" maxLength={500} />}
        </form.AppField>
        <form.Actions
          onCancel={controls.close}
          submitLabel={t.common.add}
          busyLabel={t.permissions.addPermission.adding}
          cancelLabel={t.common.cancel}
        />
      </form.Form>
    </form.AppForm>
  );
}
