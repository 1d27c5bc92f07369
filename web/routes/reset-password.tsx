import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import * as React from "react";
import * as z from "zod";

import { errorFeedback, type Feedback, FormFeedback, successFeedback } from "@/components/form-feedback";
import { Button } from "@/components/ui/button";
import { PageSpinner } from "@/components/ui/spinner";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { passwordMinLength } from "@/lib/password-min-length";
import { toSettingsLookup } from "@/lib/settings";
import { PASSWORD_MIN_LENGTH } from "#src/core/credential-rules";
import { AuthCard } from "./-components/auth-card";
import { AuthForm } from "./-components/auth-form";
import { NewPasswordFields } from "./-components/new-password-fields";

// docs/architecture.md §5 the page a reset link opens: a new password, twice; then every session of the account has
// ended and the user signs in with the new password.
export const Route = createFileRoute("/reset-password")({
  validateSearch: (search) => z.object({ token: z.string().max(100).optional().catch(undefined) }).parse(search),
  component: ResetPasswordPage,
});

// Changing a password needs at least PASSWORD_MIN_LENGTH characters whatever the setting says (docs/product.md §9).
function ResetPasswordPage() {
  const trpc = useTrpc();
  const settingsQuery = useQuery(trpc.settings.list.queryOptions());
  if (settingsQuery.isPending) return <PageSpinner />;
  const minLength = Math.max(PASSWORD_MIN_LENGTH, passwordMinLength(toSettingsLookup(settingsQuery.data?.settings)));
  return <ResetPasswordForm minLength={minLength} />;
}

function ResetPasswordForm({ minLength }: { minLength: number }) {
  const { token } = Route.useSearch();
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const reset = useMutation(trpc.account.resetPassword.mutationOptions());
  const [password, setPassword] = React.useState("");
  const [confirmPassword, setConfirmPassword] = React.useState("");
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  const [done, setDone] = React.useState(false);

  const newLink = (
    <Link to="/forgot-password" className="font-medium text-primary underline-offset-4 hover:underline">
      Request a new link
    </Link>
  );

  if (!token) {
    return (
      <AuthCard title="Choose a new password" footer={newLink}>
        <FormFeedback feedback={errorFeedback("This password reset link is invalid or has expired. Request a new one.")} />
      </AuthCard>
    );
  }

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    if (password.length < minLength) {
      setFeedback(errorFeedback(`Password must be at least ${minLength} characters`));
      return;
    }
    if (password !== confirmPassword) {
      setFeedback(errorFeedback("Passwords do not match."));
      return;
    }
    try {
      await reset.mutateAsync({ token: token!, new_password: password });
      setDone(true);
      // Every session of the account has ended, maybe this browser's too.
      await queryClient.invalidateQueries({ queryKey: trpc.account.me.queryKey(), refetchType: "all" });
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, "Could not change the password", "Something went wrong")));
    }
  }

  if (done) {
    return (
      <AuthCard title="Password changed">
        <FormFeedback focusOnShow feedback={successFeedback("Your password has been changed. Sign in with your new password.")} />
        <Button asChild className="w-full">
          <Link to="/login">Go to Login</Link>
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password" description="Every device signed in to your account is signed out." footer={newLink}>
      <AuthForm
        label="Choose a new password"
        feedback={feedback}
        onSubmit={handleSubmit}
        pending={reset.isPending}
        pendingLabel="Saving"
        submitText="Set new password"
      >
        <NewPasswordFields
          label="New Password"
          confirmLabel="Confirm New Password"
          minLength={minLength}
          autoFocus
          password={password}
          confirmPassword={confirmPassword}
          onPasswordChange={setPassword}
          onConfirmPasswordChange={setConfirmPassword}
        />
      </AuthForm>
    </AuthCard>
  );
}
