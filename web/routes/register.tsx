import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Link, redirect, useNavigate } from "@tanstack/react-router";
import * as React from "react";

import { errorFeedback, type Feedback, FormFeedback, successFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { PageSpinner, Spinner } from "@/components/ui/spinner";
import { useRegister, useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { passwordMinLength } from "@/lib/password-min-length";
import { isSettingOn, toSettingsLookup } from "@/lib/settings";
import { USERNAME_MAX_LENGTH } from "#src/core/credential-rules";
import { AuthCard } from "./-components/auth-card";
import { AuthForm, UsernameField } from "./-components/auth-form";
import { NewPasswordFields } from "./-components/new-password-fields";
import { useFieldErrors } from "./-components/use-field-errors";

// docs/product.md §2 route table: /register is reachable only while allow_registration is on, otherwise it
// redirects to /login. The screen itself still shows 'Registration Disabled' should the setting be
// switched off while it is open (docs/product.md §2 "Registration screen").
export const Route = createFileRoute("/register")({
  beforeLoad: async ({ context: { queryClient, trpc } }) => {
    // fetchQuery, not ensureQueryData: a stale cached "off" (or "on") must not decide the guard.
    // No retries: as in the root guard, a failing call must not hold the page behind the spinner.
    const settings = await queryClient.fetchQuery({ ...trpc.settings.list.queryOptions(), retry: false }).catch(() => null);
    if (!isSettingOn(toSettingsLookup(settings?.settings), "allow_registration")) {
      throw redirect({ to: "/login", replace: true });
    }
  },
  pendingComponent: () => <PageSpinner />,
  component: RegisterPage,
});

// A short pause so the "logging you in" message can be read before the landing page appears.
const REDIRECT_DELAY_MS = 800;

function RegisterPage() {
  const trpc = useTrpc();
  const settingsQuery = useQuery(trpc.settings.list.queryOptions());
  if (settingsQuery.isPending) return <PageSpinner />;

  const settings = toSettingsLookup(settingsQuery.data?.settings);
  if (!isSettingOn(settings, "allow_registration")) {
    return (
      <AuthCard title="Registration Disabled">
        <Alert variant="info">
          <AlertDescription>Public user registration is currently not allowed.</AlertDescription>
        </Alert>
        <Button asChild variant="outline" className="w-full">
          <Link to="/login">Go to Login</Link>
        </Button>
      </AuthCard>
    );
  }

  return <RegisterForm minLength={passwordMinLength(settings)} />;
}

function RegisterForm({ minLength }: { minLength: number }) {
  const register = useRegister();
  const navigate = useNavigate();
  const [username, setUsername] = React.useState("");
  const [email, setEmail] = React.useState("");
  const [password, setPassword] = React.useState("");
  const [confirmPassword, setConfirmPassword] = React.useState("");
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  const [outcome, setOutcome] = React.useState<"activation-required" | "signed-in" | null>(null);

  const fieldErrors = useFieldErrors(["username", "email"]);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    // docs/product.md §5 "Registration": checked before anything is sent; a missing username or a malformed e-mail
    // address under its field, in the page's language, not in the browser's bubble.
    const found = {
      ...(username.trim() === "" ? { username: "Please enter a username." } : {}),
      ...(email.trim() !== "" && !fieldErrors.input("email")?.validity.valid ? { email: "Please enter a valid email address." } : {}),
    };
    if (!fieldErrors.check(found)) return;
    if (password.length < minLength) {
      setFeedback(errorFeedback(`Password must be at least ${minLength} characters.`));
      return;
    }
    if (password !== confirmPassword) {
      setFeedback(errorFeedback("Passwords do not match."));
      return;
    }
    try {
      const trimmedEmail = email.trim();
      const result = await register.mutateAsync({
        username: username.trim(),
        password,
        ...(trimmedEmail ? { email: trimmedEmail } : {}),
      });
      if (result.activation_required) {
        setOutcome("activation-required");
        return;
      }
      setOutcome("signed-in");
      window.setTimeout(() => void navigate({ to: "/" }), REDIRECT_DELAY_MS);
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, "Registration failed", "Something went wrong")));
    }
  }

  // docs/product.md §2: on success a success message; it says the account must be activated before logging
  // in when registration_requires_activation is on, otherwise that it is logging in.
  if (outcome === "activation-required") {
    return (
      <AuthCard title="Register">
        <FormFeedback
          focusOnShow
          feedback={successFeedback("Your account has been created. An administrator must activate it before you can log in.")}
        />
        <Button asChild className="w-full">
          <Link to="/login">Go to Login</Link>
        </Button>
      </AuthCard>
    );
  }
  if (outcome === "signed-in") {
    return (
      <AuthCard title="Register">
        <FormFeedback focusOnShow feedback={successFeedback("Your account has been created. Logging you in...")} />
        <div className="flex justify-center">
          <Spinner className="size-6 text-primary" label="Logging you in" />
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Register"
      description="Create an account for the Kerstactie site."
      footer={
        <>
          Already have an account?{" "}
          <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
            Login
          </Link>
        </>
      }
    >
      <AuthForm
        label="Register"
        feedback={feedback}
        onSubmit={handleSubmit}
        pending={register.isPending}
        pendingLabel="Registering"
        submitText={register.isPending ? "Registering..." : "Register"}
      >
        <UsernameField
          maxLength={USERNAME_MAX_LENGTH}
          ref={fieldErrors.inputRef("username")}
          error={fieldErrors.errors.username}
          value={username}
          onChange={(event) => {
            setUsername(event.target.value);
            fieldErrors.clear("username");
          }}
        />
        <TextField
          label={
            <>
              Email <span className="font-normal text-muted-foreground">(optional)</span>
            </>
          }
          name="email"
          type="email"
          autoComplete="email"
          ref={fieldErrors.inputRef("email")}
          error={fieldErrors.errors.email}
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            fieldErrors.clear("email");
          }}
        />
        <NewPasswordFields
          label="Password"
          confirmLabel="Confirm Password"
          minLength={minLength}
          required
          password={password}
          confirmPassword={confirmPassword}
          onPasswordChange={setPassword}
          onConfirmPasswordChange={setConfirmPassword}
        />
      </AuthForm>
    </AuthCard>
  );
}
