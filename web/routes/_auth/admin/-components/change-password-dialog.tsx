import { useMutation } from "@tanstack/react-query";
import * as React from "react";

import { FormActions } from "@/components/form-actions";
import { errorFeedback, type Feedback, FormFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import type { AdminUser } from "./admin-types";

// spec §2 change-password dialog ('New Password (min N)', 'Confirm Password'); §5: Save is enabled
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
  const [busy, setBusy] = React.useState(false);
  return (
    <Modal
      open={user !== null}
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
      title="Change Password"
      description={user ? `Set a new password for ${user.username}. Their other sessions end.` : undefined}
    >
      {user && (
        <ChangePasswordForm key={user.id} user={user} minLength={minLength} onDone={onClose} onBusyChange={setBusy} />
      )}
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
      showSnackbar("Password changed successfully", "success");
      onDone();
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, "Failed to update password")));
    } finally {
      onBusyChange(false);
    }
  }

  return (
    <form className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label={`Change password of ${user.username}`}>
      <FormFeedback feedback={feedback} />
      {/* Lets a password manager file the new password under the right account. */}
      <input type="text" name="username" autoComplete="username" value={user.username} readOnly hidden />
      <TextField
        label={`New Password (min ${minLength})`}
        name="new_password"
        type="password"
        autoComplete="new-password"
        autoFocus
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <TextField
        label="Confirm Password"
        name="confirm_password"
        type="password"
        autoComplete="new-password"
        value={confirmPassword}
        onChange={(event) => setConfirmPassword(event.target.value)}
        aria-invalid={mismatch || undefined}
        hint={mismatch ? <span className="text-destructive">Passwords do not match</span> : undefined}
      />
      <FormActions onCancel={onDone} busy={editUser.isPending} canSubmit={valid} submitLabel="Save" busyLabel="Saving" />
    </form>
  );
}
