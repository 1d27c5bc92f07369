import { useMutation } from "@tanstack/react-query";
import * as React from "react";

import { FormActions } from "@/components/form-actions";
import { errorFeedback, type Feedback, FormFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { useErrorText, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
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
  const errorText = useErrorText();
  const { showSnackbar } = useSnackbar();
  const editUser = useMutation(trpc.users.edit.mutationOptions());
  const [password, setPassword] = React.useState("");
  const [confirmPassword, setConfirmPassword] = React.useState("");
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);

  const mismatch = confirmPassword !== "" && password !== confirmPassword;
  const valid = password.length >= minLength && password === confirmPassword;

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!valid) return;
    setFeedback(null);
    onBusyChange(true);
    try {
      await editUser.mutateAsync({ id: user.id, password });
      showSnackbar(t.users.changePasswordDialog.changed, "success");
      onDone();
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, t.users.changePasswordDialog.failed)));
    } finally {
      onBusyChange(false);
    }
  }

  return (
    <form className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label={t.users.changePasswordOf(user.username)}>
      <FormFeedback feedback={feedback} />
      {/* Lets a password manager file the new password under the right account. */}
      <input type="text" name="username" autoComplete="username" value={user.username} readOnly hidden />
      <TextField
        label={t.users.changePasswordDialog.newPassword(minLength)}
        name="new_password"
        type="password"
        autoComplete="new-password"
        autoFocus
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <TextField
        label={t.users.changePasswordDialog.confirmPassword}
        name="confirm_password"
        type="password"
        autoComplete="new-password"
        value={confirmPassword}
        onChange={(event) => setConfirmPassword(event.target.value)}
        aria-invalid={mismatch || undefined}
        hint={mismatch ? <span className="text-destructive">{t.users.changePasswordDialog.mismatch}</span> : undefined}
      />
      <FormActions
        onCancel={onDone}
        busy={editUser.isPending}
        canSubmit={valid}
        submitLabel={t.common.save}
        busyLabel={t.users.changePasswordDialog.saving}
        cancelLabel={t.common.cancel}
      />
    </form>
  );
}
