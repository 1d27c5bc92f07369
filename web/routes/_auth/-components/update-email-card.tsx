import * as React from "react";

import { FormFeedback, successFeedback } from "@/components/form-feedback";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useMessages } from "@/i18n/use-messages";
import { useUpdateEmail } from "@/lib/auth";
import { useAppForm, useFormFeedback } from "@/lib/form";
import { schemaProblem } from "@/lib/form-errors";
import type { SessionUser } from "@/lib/session";
import { editEmailSchema } from "#src/features/account/account.schemas";

// A light shape check; the server has the last word.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// docs/product.md §2 'Update Email' card; §5 "Account" and §8 "Account" for the texts. The trimmed address is
// checked here, then with the server's schema for the call.
export function UpdateEmailCard({ user }: { user: SessionUser }) {
  const updateEmail = useUpdateEmail();
  const t = useMessages();
  const { feedback, onSubmitInvalid, attempt } = useFormFeedback();
  // The address the card opened with; a refetched user does not overwrite what is typed.
  const [defaultValues] = React.useState(() => ({ email: user.email ?? "" }));
  const form = useAppForm({
    defaultValues,
    validators: {
      onSubmit: ({ value }) => {
        const email = value.email.trim();
        if (!email) return t.account.email.empty;
        if (!EMAIL_PATTERN.test(email)) return t.account.email.invalid;
        return schemaProblem(editEmailSchema, { email });
      },
    },
    onSubmitInvalid,
    onSubmit: ({ value, formApi }) =>
      attempt(async () => {
        const email = value.email.trim();
        await updateEmail.mutateAsync({ email });
        formApi.setFieldValue("email", email);
        return successFeedback(t.account.email.updated);
      }, t.account.email.failed),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{t.account.email.title}</h2>
        </CardTitle>
        <CardDescription>{t.account.email.description}</CardDescription>
      </CardHeader>
      <CardContent>
        {/* noValidate: the spec's own texts, not the browser's, explain a bad address. */}
        <form.AppForm>
          <form.Form className="grid gap-4" noValidate aria-label={t.account.email.title}>
            <FormFeedback feedback={feedback} />
            <form.AppField name="email">
              {(field) => <field.TextField label={t.account.email.label} type="email" autoComplete="email" />}
            </form.AppField>
            <form.SubmitButton className="justify-self-start" busyLabel={t.account.saving}>
              {t.common.save}
            </form.SubmitButton>
          </form.Form>
        </form.AppForm>
      </CardContent>
    </Card>
  );
}
