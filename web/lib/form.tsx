import { createFormHook, createFormHookContexts, useStore } from "@tanstack/react-form";
import * as React from "react";

import { FormActions } from "@/components/form-actions";
import { errorFeedback, type Feedback } from "@/components/form-feedback";
import { TextField as LabelledInput, type TextFieldProps } from "@/components/text-field";
import { Button } from "@/components/ui/button";
import { Checkbox as CheckboxControl } from "@/components/ui/checkbox";
import { Input as InputControl } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { Textarea as TextareaControl } from "@/components/ui/textarea";
import { useErrorText, useLocale } from "@/i18n/use-messages";
import { errorText as errorTextAsSent } from "@/lib/errors";
import { failsLiveCheck, firstErrorText } from "@/lib/form-errors";

// docs/decisions/048: the one way a back-office form is built. TanStack Form holds the values, runs the checks and
// knows when a call is running; the fields below bind it to our own inputs, so a form reads
//
//   const form = useAppForm({ defaultValues, validators, onSubmitInvalid, onSubmit });
//   <form.AppForm>
//     <form.Form aria-label="…" noValidate>
//       <form.AppField name="name">{(field) => <field.TextField label="Name" />}</form.AppField>
//       <form.Actions … />
//     </form.Form>
//   </form.AppForm>
//
// Checks (web/lib/form-errors.ts): a live check (liveCheck: onMount + onChange) keeps the submit button
// disabled while it fails and shows nothing; a check on submit (`validators.onSubmit`) stops the call and
// its text is shown above the form (useFormFeedback). Where the server has a zod schema for the call, the
// form checks with that schema, so it says what the server would say, in the user's language.
// `defaultValues` follow their source while nothing is typed; a form that must keep the values it
// opened with takes them once (React.useState).

const { fieldContext, formContext, useFieldContext, useFormContext } = createFormHookContexts();

/** What a text control needs from the text field it is bound to: its value, and its changes and blur. */
function useTextBinding() {
  const field = useFieldContext<string>();
  return {
    name: field.name,
    value: field.state.value,
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => field.handleChange(event.target.value),
    onBlur: field.handleBlur,
  };
}

type Bound<P> = Omit<P, "value" | "defaultValue" | "onChange" | "onBlur">;

/** A labelled text input (web/components/text-field.tsx) bound to a text field; its `name` is the field's. */
function TextField(props: Bound<TextFieldProps>) {
  const { name, ...binding } = useTextBinding();
  return <LabelledInput name={name} {...props} {...binding} />;
}

/** A bare input bound to a text field, for a form that lays out its own label. */
function Input(props: Bound<React.ComponentProps<typeof InputControl>>) {
  const { name: _name, ...binding } = useTextBinding();
  return <InputControl {...props} {...binding} />;
}

/** A textarea bound to a text field. */
function Textarea(props: Bound<React.ComponentProps<typeof TextareaControl>>) {
  const { name: _name, ...binding } = useTextBinding();
  return <TextareaControl {...props} {...binding} />;
}

type CheckboxProps = Omit<React.ComponentProps<typeof CheckboxControl>, "checked" | "defaultChecked" | "onCheckedChange">;

/** A checkbox bound to a yes/no field. */
function Checkbox(props: CheckboxProps) {
  const field = useFieldContext<boolean>();
  return <CheckboxControl {...props} checked={field.state.value} onCheckedChange={(checked) => field.handleChange(checked === true)} />;
}

/** One checkbox of a list field of ids (a group's permissions, a user's groups): ticked while `member` is in it. */
function MemberCheckbox({ member, ...props }: CheckboxProps & { member: number }) {
  const field = useFieldContext<readonly number[]>();
  const ids = field.state.value;
  return (
    <CheckboxControl
      {...props}
      checked={ids.includes(member)}
      onCheckedChange={(checked) =>
        field.handleChange(checked === true ? (ids.includes(member) ? ids : [...ids, member]) : ids.filter((id) => id !== member))
      }
    />
  );
}

/** Sends the form, unless it is being sent: for a form that is no <form> element (a row, a popover). */
export function submitForm(form: { state: { isSubmitting: boolean }; handleSubmit: () => Promise<unknown> }): void {
  if (!form.state.isSubmitting) void form.handleSubmit();
}

/** The <form> element: submitting it runs the form's checks and then its onSubmit. */
function Form(props: Omit<React.ComponentProps<"form">, "onSubmit">) {
  const form = useFormContext();
  return (
    <form
      {...props}
      onSubmit={(event) => {
        event.preventDefault();
        submitForm(form);
      }}
    />
  );
}

/** Whether the form is being sent, and whether a live check keeps it from being sent. */
function useSubmitState(): { busy: boolean; blocked: boolean } {
  const form = useFormContext();
  const busy = useStore(form.store, (state) => state.isSubmitting);
  const blocked = useStore(form.store, (state) => failsLiveCheck(state.errorMap));
  return { busy, blocked };
}

/** A dialog form's cancel and submit buttons (web/components/form-actions.tsx), busy while the form is sent. */
function Actions({ canSubmit = true, ...props }: Omit<React.ComponentProps<typeof FormActions>, "busy">) {
  const { busy, blocked } = useSubmitState();
  return <FormActions {...props} busy={busy} canSubmit={canSubmit && !blocked} />;
}

/**
 * A form's submit button: disabled and showing a spinner (named `busyLabel`) while the form is sent,
 * `icon` otherwise; `form` names a form the button is outside of (a dialog's footer).
 */
function SubmitButton({
  busyLabel,
  icon,
  canSubmit = true,
  children,
  ...props
}: Omit<React.ComponentProps<typeof Button>, "type" | "disabled"> & { busyLabel: string; icon?: React.ReactNode; canSubmit?: boolean }) {
  const { busy, blocked } = useSubmitState();
  return (
    <Button type="submit" {...props} disabled={busy || blocked || !canSubmit} aria-busy={busy || undefined}>
      {busy ? <Spinner label={busyLabel} /> : icon}
      {children}
    </Button>
  );
}

/** A button that leaves the form without sending it; disabled while the form is sent. */
function CancelButton(props: Omit<React.ComponentProps<typeof Button>, "type" | "disabled">) {
  const { busy } = useSubmitState();
  return <Button type="button" variant="outline" {...props} disabled={busy} />;
}

export const { useAppForm, withForm } = createFormHook({
  fieldContext,
  formContext,
  fieldComponents: { TextField, Input, Textarea, Checkbox, MemberCheckbox },
  formComponents: { Form, Actions, SubmitButton, CancelButton },
});

/**
 * The message above a form (web/components/form-feedback.tsx): the first problem a refused submission's
 * checks found, or how the form's call went. Server texts (a schema's, a failed call's) are shown in the
 * user's language (web/i18n/server-errors.ts); the Dutch-only Management screens pass `asSent` and show
 * them as the server sent them.
 */
export function useFormFeedback({ asSent = false }: { asSent?: boolean } = {}) {
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  const locale = useLocale();
  const translatedErrorText = useErrorText();
  const errorText = asSent ? errorTextAsSent : translatedErrorText;

  /** For useAppForm's `onSubmitInvalid`. */
  function onSubmitInvalid({ formApi }: { formApi: { state: { errors: readonly unknown[] } } }) {
    const text = firstErrorText(formApi.state.errors, asSent ? null : locale);
    setFeedback(text === null ? null : errorFeedback(text));
  }

  /**
   * Runs the form's call: clears the message, then shows what `call` resolves to (a success, or null for
   * nothing), or, when it fails, the server's text or `fallback`. Resolves to whether the call succeeded.
   */
  async function attempt(call: () => Promise<Feedback | null>, fallback: string): Promise<boolean> {
    setFeedback(null);
    try {
      setFeedback(await call());
      return true;
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, fallback)));
      return false;
    }
  }

  return { feedback, setFeedback, onSubmitInvalid, attempt };
}
