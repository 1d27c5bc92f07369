import { FormFeedback, successFeedback } from "@/components/form-feedback";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useMessages } from "@/i18n/use-messages";
import { useChangePassword } from "@/lib/auth";
import { useAppForm, useFormFeedback } from "@/lib/form";
import { schemaProblem } from "@/lib/form-errors";
import { changePasswordSchema } from "#src/features/account/account.schemas";
import { PASSWORD_MIN_LENGTH } from "#src/core/credential-rules";

// docs/product.md §9: the card asks for the account minimum, PASSWORD_MIN_LENGTH (the server also applies the setting).
// docs/product.md §2 'Change Password' card; §5 "Account" and §8 "Account" for the texts. After the card's own
// checks, what is sent is checked with the server's schema for the call.
export function ChangePasswordCard({ username }: { username: string }) {
  const changePassword = useChangePassword();
  const t = useMessages();
  const { feedback, onSubmitInvalid, attempt } = useFormFeedback();
  const form = useAppForm({
    defaultValues: { old_password: "", new_password: "", confirm_password: "" },
    validators: {
      onSubmit: ({ value }) => {
        if (!value.old_password) return t.account.password.oldRequired;
        if (value.new_password.length < PASSWORD_MIN_LENGTH) return t.account.password.tooShort(PASSWORD_MIN_LENGTH);
        if (value.new_password !== value.confirm_password) return t.account.password.mismatch;
        return schemaProblem(changePasswordSchema, { old_password: value.old_password, new_password: value.new_password });
      },
    },
    onSubmitInvalid,
    onSubmit: ({ value, formApi }) =>
      attempt(async () => {
        await changePassword.mutateAsync({ old_password: value.old_password, new_password: value.new_password });
        formApi.reset();
        return successFeedback(t.account.password.updated);
      }, t.account.password.failed),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{t.account.password.title}</h2>
        </CardTitle>
        <CardDescription>{t.account.password.description}</CardDescription>
      </CardHeader>
      <CardContent>
        <form.AppForm>
          <form.Form className="grid gap-4" noValidate aria-label={t.account.password.title}>
            <FormFeedback feedback={feedback} />
            {/* Lets password managers tie the new password to this account. */}
            <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
            <form.AppField name="old_password">
              {(field) => <field.TextField label={t.account.password.oldPassword} type="password" autoComplete="current-password" />}
            </form.AppField>
            <form.AppField name="new_password">
              {(field) => (
                <field.TextField
                  label={t.account.password.newPassword}
                  type="password"
                  autoComplete="new-password"
                  hint={t.account.password.minimum(PASSWORD_MIN_LENGTH)}
                />
              )}
            </form.AppField>
            <form.AppField name="confirm_password">
              {(field) => <field.TextField label={t.account.password.confirmNewPassword} type="password" autoComplete="new-password" />}
            </form.AppField>
            <form.SubmitButton className="justify-self-start" busyLabel={t.account.saving}>
              {t.account.password.title}
            </form.SubmitButton>
          </form.Form>
        </form.AppForm>
      </CardContent>
    </Card>
  );
}
