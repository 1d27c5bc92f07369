import * as React from "react";

import { errorFeedback, type Feedback, FormFeedback, successFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useChangePassword } from "@/lib/auth";
import { errorText } from "@/lib/errors";

// spec §9: the account password minimum is 6 (not the registration setting).
const ACCOUNT_PASSWORD_MIN_LENGTH = 6;

// spec §2 'Change Password' card; §5 "Account" and §8 "Account" for the texts.
export function ChangePasswordCard({ username }: { username: string }) {
  const changePassword = useChangePassword();
  const [oldPassword, setOldPassword] = React.useState("");
  const [newPassword, setNewPassword] = React.useState("");
  const [confirmPassword, setConfirmPassword] = React.useState("");
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    if (!oldPassword) return setFeedback(errorFeedback("Old password is required"));
    if (newPassword.length < ACCOUNT_PASSWORD_MIN_LENGTH) {
      return setFeedback(errorFeedback(`Password must be at least ${ACCOUNT_PASSWORD_MIN_LENGTH} characters`));
    }
    if (newPassword !== confirmPassword) return setFeedback(errorFeedback("Passwords do not match"));
    try {
      await changePassword.mutateAsync({ old_password: oldPassword, new_password: newPassword });
      setOldPassword("");
      setNewPassword("");
      setConfirmPassword("");
      setFeedback(successFeedback("Password updated successfully"));
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, "Password change failed")));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">
            Change Password
          </h2>
        </CardTitle>
        <CardDescription>Your other signed-in devices are signed out when the password changes.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label="Change Password">
          <FormFeedback feedback={feedback} />
          {/* Lets password managers tie the new password to this account. */}
          <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
          <TextField
            label="Old Password"
            name="old_password"
            type="password"
            autoComplete="current-password"
            value={oldPassword}
            onChange={(event) => setOldPassword(event.target.value)}
          />
          <TextField
            label="New Password"
            name="new_password"
            type="password"
            autoComplete="new-password"
            hint={`Minimum ${ACCOUNT_PASSWORD_MIN_LENGTH} characters`}
            value={newPassword}
            onChange={(event) => setNewPassword(event.target.value)}
          />
          <TextField
            label="Confirm New Password"
            name="confirm_password"
            type="password"
            autoComplete="new-password"
            value={confirmPassword}
            onChange={(event) => setConfirmPassword(event.target.value)}
          />
          <Button
            type="submit"
            className="justify-self-start"
            disabled={changePassword.isPending}
            aria-busy={changePassword.isPending || undefined}
          >
            {changePassword.isPending && <Spinner label="Saving" />}
            Change Password
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
