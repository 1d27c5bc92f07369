import type { StandardSchemaV1 } from "@tanstack/react-form";

// docs/decisions/048: the rules of the back-office forms (web/lib/form.tsx) that need no React. A form's check
// returns a text, or, for a server zod schema handed to TanStack Form as a Standard Schema, the schema's
// issues, which TanStack Form files under their field paths.

/** The first text among a form's errors (`form.state.errors`): a check's own text or a schema issue's message. */
export function firstErrorText(errors: readonly unknown[]): string | null {
  for (const error of errors) {
    const text = messageOf(error);
    if (text !== null) return text;
  }
  return null;
}

function messageOf(error: unknown): string | null {
  if (typeof error === "string") return error === "" ? null : error;
  if (Array.isArray(error)) return firstErrorText(error);
  if (error !== null && typeof error === "object") {
    if ("message" in error && typeof error.message === "string") return error.message;
    // A schema's issues by field path ({ name: [issue] }), in the order the schema found them.
    return firstErrorText(Object.values(error));
  }
  return null;
}

/**
 * The first message `schema` has for `input`, or undefined when it passes: for a check on what a form
 * sends (trimmed, converted) rather than on its fields as typed. A server schema answers as the server
 * would: the same text, in the same order.
 */
export function schemaProblem(schema: StandardSchemaV1, input: unknown): string | undefined {
  const result = schema["~standard"].validate(input);
  if (result instanceof Promise) throw new Error("A form's schema must check synchronously");
  return result.issues?.[0]?.message;
}

/**
 * A check run as the form is filled in: on mount and on every change. While it fails the form cannot be
 * sent (its submit button is disabled); the text is not shown.
 */
export function liveCheck<T>(check: T): { onMount: T; onChange: T } {
  return { onMount: check, onChange: check };
}

/**
 * Whether a live check (liveCheck) fails. A check made on submit (`validators.onSubmit`) is left out: it
 * explains why nothing was sent, and the button stays as it was, as it does after a refusal by the server.
 */
export function failsLiveCheck(errorMap: { onMount?: unknown; onChange?: unknown }): boolean {
  return Boolean(errorMap.onMount || errorMap.onChange);
}
