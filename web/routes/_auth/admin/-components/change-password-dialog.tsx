import { useStore } from "@tanstack/react-form";
import { useMutation } from "@tanstack/react-query";
import * as React from "react";

import { FormFeedback } from "@/components/form-feedback";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { useAppForm, useFormFeedback } from "@/lib/form";
import { liveCheck } from "@/lib/form-errors";
import type { AdminUser } from "./admin-types";

// docs/product.md §2 change-password dialog ('New Password (min N)', 'Confirm Password'); §5: Save is enabled
// only when the password has at least password_min_length characters and both entries match, with
// the hint 'Passwords do not match'; §6: open to whoever sees the user table.

export function ChangePasswordDialog({
  user,
  minLength,
  onClose,
}: {
  /** The user whose password is changed; null keeps the dialog closed. */
  user: AdminUser | null;
  minLength: number;
  onClose: () => void;
}) {
  const t = useMessages();
  const [busy, setBusy] = React.useState(false);
  return (
    <Modal
      closeLabel={t.common.close}
      open={user !== null}
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
      title={t.users.changePasswordDialog.title}
      description={user ? t.users.changePasswordDialog.description(user.username) : undefined}
    >
      {user && <ChangePasswordForm key={user.id} user={user} minLength={minLength} onDone={onClose} onBusyChange={setBusy} />}
    </Modal>
  );
}

function ChangePasswordForm({
  user,
  minLength,
  onDone,
  onBusyChange,
}: {
  user: AdminUser;
  minLength: number;
  onDone: () => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const trpc = useTrpc();
  const t = useMessages();
  const { showSnackbar } = useSnackbar();
  const editUser = useMutation(trpc.users.edit.mutationOptions());
  const { feedback, onSubmitInvalid, attempt } = useFormFeedback();
  const form = useAppForm({
    defaultValues: { new_password: "", confirm_password: "" },
    // Save stays disabled until the password is long enough and both entries match.
    validators: liveCheck(({ value }: { value: { new_password: string; confirm_password: string } }) => {
      if (value.new_password.length < minLength) return t.account.password.tooShort(minLength);
      return value.new_password === value.confirm_password ? undefined : t.users.changePasswordDialog.mismatch;
    }),
    onSubmitInvalid,
    onSubmit: async ({ value }) => {
      onBusyChange(true);
      try {
        await attempt(async () => {
          await editUser.mutateAsync({ id: user.id, password: value.new_password });
          showSnackbar(t.users.changePasswordDialog.changed, "success");
          onDone();
          return null;
        }, t.users.changePasswordDialog.failed);
      } finally {
        onBusyChange(false);
      }
    },
  });
  const values = useStore(form.store, (state) => state.values);
  const mismatch = values.confirm_password !== "" && values.new_password !== values.confirm_password;

  return (
    <form.AppForm>
      <form.Form className="grid gap-4" noValidate aria-label={t.users.changePasswordOf(user.username)}>
        <FormFeedback feedback={feedback} />
        {/* Lets a password manager file the new password under the right account. */}
        <input type="text" name="username" autoComplete="username" value={user.username} readOnly hidden />
        <form.AppField name="new_password">
          {(field) => (
            <field.TextField
              label={t.users.changePasswordDialog.newPassword(minLength)}
              type="password"
              autoComplete="new-password"
              autoFocus
            />
          )}
        </form.AppField>
        <form.AppField name="confirm_password">
          {(field) => (
            <field.TextField
              label={t.users.changePasswordDialog.confirmPassword}
              type="password"
              autoComplete="new-password"
              aria-invalid={mismatch || undefined}
              hint={mismatch ? <span className="text-destructive">{t.users.changePasswordDialog.mismatch}</span> : undefined}
            />
          )}
        </form.AppField>
        <form.Actions
          onCancel={onDone}
          submitLabel={t.common.save}
          busyLabel={t.users.changePasswordDialog.saving}
          cancelLabel={t.common.cancel}
        />
      </form.Form>
    </form.AppForm>
  );
}
