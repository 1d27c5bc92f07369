import * as React from "react";

import { errorFeedback, type Feedback, FormFeedback, successFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useUpdateEmail } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import type { SessionUser } from "@/lib/session";

// A light shape check; the server has the last word.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// spec §2 'Update Email' card; §5 "Account" and §8 "Account" for the texts.
export function UpdateEmailCard({ user }: { user: SessionUser }) {
  const updateEmail = useUpdateEmail();
  const [email, setEmail] = React.useState(user.email ?? "");
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    const value = email.trim();
    if (!value) return setFeedback(errorFeedback("Email cannot be empty"));
    if (!EMAIL_PATTERN.test(value)) return setFeedback(errorFeedback("Invalid email address"));
    try {
      await updateEmail.mutateAsync({ email: value });
      setEmail(value);
      setFeedback(successFeedback("Email updated successfully"));
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, "Failed to update email")));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">
            Update Email
          </h2>
        </CardTitle>
        <CardDescription>Used for messages about your account.</CardDescription>
      </CardHeader>
      <CardContent>
        {/* noValidate: the spec's own texts, not the browser's, explain a bad address. */}
        <form className="grid gap-4" onSubmit={handleSubmit} noValidate aria-label="Update Email">
          <FormFeedback feedback={feedback} />
          <TextField
            label="Email"
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
            {updateEmail.isPending && <Spinner label="Saving" />}
            Save
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
