import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import * as React from "react";

import { errorFeedback, type Feedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { Button } from "@/components/ui/button";
import { PageSpinner } from "@/components/ui/spinner";
import { isTwoFactorRequired, pathAfterSignIn, useCompleteTwoFactorLogin, useLogin, useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { requireAnonymous } from "@/lib/guards";
import { isSettingOn, toSettingsLookup } from "@/lib/settings";
import { AuthCard } from "./-components/auth-card";
import { AuthForm, UsernameField } from "./-components/auth-form";
import { useFieldErrors } from "./-components/use-field-errors";

// docs/product.md §2 "Sign-in screen", §4 "Sign-in modes", §5 "Sign-in", §8 "Sign-in".
export const Route = createFileRoute("/login")({
  beforeLoad: ({ context }) => requireAnonymous(context),
  pendingComponent: () => <PageSpinner />,
  component: LoginPage,
});

type Step = "credentials" | "code";

const USERNAME_REQUIRED = "Please enter your username.";
const PASSWORD_REQUIRED = "Please enter your password.";
const CODE_REQUIRED = "Please enter the code.";

function LoginPage() {
  const [step, setStep] = React.useState<Step>("credentials");
  return step === "credentials" ? (
    <CredentialsStep onTwoFactorRequired={() => setStep("code")} />
  ) : (
    <CodeStep onBack={() => setStep("credentials")} />
  );
}

function CredentialsStep({ onTwoFactorRequired }: { onTwoFactorRequired: () => void }) {
  const login = useLogin();
  const navigate = useNavigate();
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.settings.list.queryOptions());
  const registrationOpen = isSettingOn(toSettingsLookup(settings.data?.settings), "allow_registration");
  const [username, setUsername] = React.useState("");
  const [password, setPassword] = React.useState("");
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  const missing = useFieldErrors(["username", "password"]);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    // docs/product.md §5: both are required. Said under the fields, as on every other form, not in the
    // browser's own bubble.
    const found = {
      ...(username.trim() === "" ? { username: USERNAME_REQUIRED } : {}),
      ...(password === "" ? { password: PASSWORD_REQUIRED } : {}),
    };
    if (!missing.check(found)) return;
    try {
      await login.mutateAsync({ username: username.trim(), password });
      await navigate({ to: pathAfterSignIn(queryClient, trpc) });
    } catch (error) {
      // The 'two-factor' answer is a step, not an error (docs/product.md §8).
      if (isTwoFactorRequired(error)) {
        onTwoFactorRequired();
        return;
      }
      setFeedback(errorFeedback(errorText(error, "Login failed", "Unexpected error during login")));
    }
  }

  return (
    <AuthCard
      title="Login"
      description="Sign in with your username and password."
      footer={
        registrationOpen && (
          <>
            No account yet?{" "}
            <Link to="/register" className="font-medium text-primary underline-offset-4 hover:underline">
              Register
            </Link>
          </>
        )
      }
    >
      <AuthForm
        label="Login"
        feedback={feedback}
        onSubmit={handleSubmit}
        pending={login.isPending}
        pendingLabel="Signing in"
        submitText="Login"
      >
        <UsernameField
          ref={missing.inputRef("username")}
          error={missing.errors.username}
          value={username}
          onChange={(event) => {
            setUsername(event.target.value);
            missing.clear("username");
          }}
        />
        <div className="grid gap-1.5">
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            ref={missing.inputRef("password")}
            error={missing.errors.password}
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              missing.clear("password");
            }}
          />
          <Link to="/forgot-password" className="justify-self-end text-sm font-medium text-primary underline-offset-4 hover:underline">
            Forgot password?
          </Link>
        </div>
      </AuthForm>
    </AuthCard>
  );
}

// docs/product.md §5: the code is required and at most 6 characters. A recovery code (docs/architecture.md §3, 'ABCD-EFGH')
// is 9 characters, so it has its own switch that lifts the limit.
const CODE_LENGTH = 6;
const RECOVERY_CODE_LENGTH = 9;

function CodeStep({ onBack }: { onBack: () => void }) {
  const completeLogin = useCompleteTwoFactorLogin();
  const navigate = useNavigate();
  const [useRecoveryCode, setUseRecoveryCode] = React.useState(false);
  const [code, setCode] = React.useState("");
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  const inputRef = React.useRef<HTMLInputElement>(null);

  function switchKind() {
    setUseRecoveryCode((current) => !current);
    setCode("");
    setFeedback(null);
    inputRef.current?.focus();
  }

  const [codeMissing, setCodeMissing] = React.useState(false);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    // docs/product.md §5: the code is required; said under the field, as on every other form.
    if (code.trim() === "") {
      setCodeMissing(true);
      inputRef.current?.focus();
      return;
    }
    try {
      await completeLogin.mutateAsync({ code: code.trim() });
      await navigate({ to: "/" });
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, "Invalid 2FA code", "Unexpected error during 2FA verification")));
      inputRef.current?.select();
    }
  }

  return (
    <AuthCard
      title="Login"
      description={
        useRecoveryCode
          ? "Enter one of the recovery codes you saved when you set up two-factor authentication."
          : "Two-factor authentication is on for this account. Enter the 6-digit code from your authenticator app."
      }
    >
      <AuthForm
        label="Two-factor authentication"
        feedback={feedback}
        onSubmit={handleSubmit}
        pending={completeLogin.isPending}
        pendingLabel="Verifying"
        submitText="Verify"
        afterSubmit={
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Button type="button" variant="link" className="h-auto px-0" onClick={switchKind}>
              {useRecoveryCode ? "Use an authentication code" : "Use a recovery code"}
            </Button>
            <Button type="button" variant="link" className="h-auto px-0 text-muted-foreground" onClick={onBack}>
              Back to login
            </Button>
          </div>
        }
      >
        <TextField
          ref={inputRef}
          key={useRecoveryCode ? "recovery" : "code"}
          label={useRecoveryCode ? "Recovery code" : "Authentication code"}
          name="code"
          required
          autoFocus
          autoComplete={useRecoveryCode ? "off" : "one-time-code"}
          autoCapitalize={useRecoveryCode ? "characters" : "none"}
          inputMode={useRecoveryCode ? "text" : "numeric"}
          spellCheck={false}
          maxLength={useRecoveryCode ? RECOVERY_CODE_LENGTH : CODE_LENGTH}
          placeholder={useRecoveryCode ? "ABCD-EFGH" : "123456"}
          className="font-mono tracking-widest"
          error={codeMissing ? CODE_REQUIRED : null}
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
            setCodeMissing(false);
          }}
        />
      </AuthForm>
    </AuthCard>
  );
}
