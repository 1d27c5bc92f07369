import * as React from "react";

import { errorFeedback, type Feedback, FormFeedback, successFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useErrorText, useMessages } from "@/i18n/use-messages";
import { useUpdateEmail } from "@/lib/auth";
import type { SessionUser } from "@/lib/session";

// A light shape check; the server has the last word.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// docs/product.md §2 'Update Email' card; §5 "Account" and §8 "Account" for the texts.
export function UpdateEmailCard({ user }: { user: SessionUser }) {
  const updateEmail = useUpdateEmail();
  const t = useMessages();
  const errorText = useErrorText();
  const [email, setEmail] = React.useState(user.email ?? "");
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    const value = email.trim();
    if (!value) return setFeedback(errorFeedback(t.account.email.empty));
    if (!EMAIL_PATTERN.test(value)) return setFeedback(errorFeedback(t.account.email.invalid));
    try {
      await updateEmail.mutateAsync({ email: value });
      setEmail(value);
      setFeedback(successFeedback(t.account.email.updated));
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, t.account.email.failed)));
    }
  }

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
        <form className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label={t.account.email.title}>
          <FormFeedback feedback={feedback} />
          <TextField
            label={t.account.email.label}
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <Button
            type="submit"
            className="justify-self-start"
            disabled={updateEmail.isPending}
            aria-busy={updateEmail.isPending || undefined}
          >
            {updateEmail.isPending && <Spinner label={t.account.saving} />}
            {t.common.save}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
