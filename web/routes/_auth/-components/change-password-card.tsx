import * as React from "react";

import { errorFeedback, type Feedback, FormFeedback, successFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useErrorText, useMessages } from "@/i18n/use-messages";
import { useChangePassword } from "@/lib/auth";

// docs/product.md §9: the account password minimum is 6 (not the registration setting).
const ACCOUNT_PASSWORD_MIN_LENGTH = 6;

// docs/product.md §2 'Change Password' card; §5 "Account" and §8 "Account" for the texts.
export function ChangePasswordCard({ username }: { username: string }) {
  const changePassword = useChangePassword();
  const t = useMessages();
  const errorText = useErrorText();
  const [oldPassword, setOldPassword] = React.useState("");
  const [newPassword, setNewPassword] = React.useState("");
  const [confirmPassword, setConfirmPassword] = React.useState("");
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    if (!oldPassword) return setFeedback(errorFeedback(t.account.password.oldRequired));
    if (newPassword.length < ACCOUNT_PASSWORD_MIN_LENGTH) {
      return setFeedback(errorFeedback(t.account.password.tooShort(ACCOUNT_PASSWORD_MIN_LENGTH)));
    }
    if (newPassword !== confirmPassword) return setFeedback(errorFeedback(t.account.password.mismatch));
    try {
      await changePassword.mutateAsync({ old_password: oldPassword, new_password: newPassword });
      setOldPassword("");
      setNewPassword("");
      setConfirmPassword("");
      setFeedback(successFeedback(t.account.password.updated));
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, t.account.password.failed)));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{t.account.password.title}</h2>
        </CardTitle>
        <CardDescription>{t.account.password.description}</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label={t.account.password.title}>
          <FormFeedback feedback={feedback} />
          {/* Lets password managers tie the new password to this account. */}
          <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
          <TextField
            label={t.account.password.oldPassword}
            name="old_password"
            type="password"
            autoComplete="current-password"
            value={oldPassword}
            onChange={(event) => setOldPassword(event.target.value)}
          />
          <TextField
            label={t.account.password.newPassword}
            name="new_password"
            type="password"
            autoComplete="new-password"
            hint={t.account.password.minimum(ACCOUNT_PASSWORD_MIN_LENGTH)}
            value={newPassword}
            onChange={(event) => setNewPassword(event.target.value)}
          />
          <TextField
            label={t.account.password.confirmNewPassword}
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
            {changePassword.isPending && <Spinner label={t.account.saving} />}
            {t.account.password.title}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
