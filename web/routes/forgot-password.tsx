import { useMutation } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import * as React from "react";

import { errorFeedback, type Feedback, FormFeedback, successFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { PageSpinner } from "@/components/ui/spinner";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { requireAnonymous } from "@/lib/guards";
import { AuthCard } from "./-components/auth-card";
import { AuthForm } from "./-components/auth-form";

// docs/architecture.md §5 forgot password: asks for a username or e-mail address and always gives the same answer,
// so the page never tells whether an account exists.
export const Route = createFileRoute("/forgot-password")({
  beforeLoad: ({ context }) => requireAnonymous(context),
  pendingComponent: () => <PageSpinner />,
  component: ForgotPasswordPage,
});

export const FORGOT_PASSWORD_SENT =
  "If an account with that username or email has an email address, we have sent it a link to choose a new password. The link is valid for 1 hour.";

function ForgotPasswordPage() {
  const trpc = useTrpc();
  const forgot = useMutation(trpc.account.forgotPassword.mutationOptions());
  const [login, setLogin] = React.useState("");
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  const [sent, setSent] = React.useState(false);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    if (login.trim() === "") {
      setFeedback(errorFeedback("Username or email is required"));
      return;
    }
    try {
      await forgot.mutateAsync({ login: login.trim() });
      setSent(true);
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, "Could not send the link", "Something went wrong")));
    }
  }

  const backToLogin = (
    <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
      Back to Login
    </Link>
  );

  if (sent) {
    return (
      <AuthCard title="Check your email" footer={backToLogin}>
        <FormFeedback focusOnShow feedback={successFeedback(FORGOT_PASSWORD_SENT)} />
        <p className="text-sm text-muted-foreground">No email address on your account? Ask an administrator to reset your password.</p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Forgot password?" description="We will email you a link to choose a new password." footer={backToLogin}>
      <AuthForm
        label="Forgot password"
        feedback={feedback}
        onSubmit={handleSubmit}
        pending={forgot.isPending}
        pendingLabel="Sending"
        submitText="Send link"
      >
        <TextField
          label="Username or email"
          name="login"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          value={login}
          onChange={(event) => setLogin(event.target.value)}
        />
      </AuthForm>
    </AuthCard>
  );
}
