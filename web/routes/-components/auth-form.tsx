import type * as React from "react";

import { type Feedback, FormFeedback } from "@/components/form-feedback";
import { TextField, type TextFieldProps } from "@/components/text-field";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

/**
 * The form of the sign-in screens (login, its code step, registration, the password pages): the outcome on top,
 * the fields, one wide submit button that spins while the call runs, and what follows it. The browser's own
 * bubbles are off; each screen says what is missing under its fields.
 */
export function AuthForm({
  label,
  feedback,
  onSubmit,
  pending,
  pendingLabel,
  submitText,
  children,
  afterSubmit,
}: {
  label: string;
  feedback: Feedback | null;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
  pending: boolean;
  /** What the spinner says to a screen reader while the call runs. */
  pendingLabel: string;
  submitText: React.ReactNode;
  children: React.ReactNode;
  afterSubmit?: React.ReactNode;
}) {
  return (
    <form className="grid gap-4" noValidate onSubmit={onSubmit} aria-label={label}>
      <FormFeedback feedback={feedback} />
      {children}
      <Button type="submit" size="lg" className="w-full" disabled={pending} aria-busy={pending || undefined}>
        {pending && <Spinner label={pendingLabel} />}
        {submitText}
      </Button>
      {afterSubmit}
    </form>
  );
}

/** The username a person signs in or registers with: the first field, focused, never capitalised or spell-checked. */
export function UsernameField(props: Omit<TextFieldProps, "label" | "name">) {
  return (
    <TextField
      label="Username"
      name="username"
      autoComplete="username"
      autoCapitalize="none"
      spellCheck={false}
      required
      autoFocus
      {...props}
    />
  );
}
