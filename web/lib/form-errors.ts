import type { StandardSchemaV1, StandardSchemaV1Issue } from "@tanstack/react-form";
import type * as z from "zod";

import { issueRefusal } from "#src/core/input-issues";
import type { Locale } from "#src/core/locales";
import { translateRefusal } from "../i18n/server-errors";

// docs/decisions/048: the rules of the back-office forms (web/lib/form.tsx) that need no React. A form's check
// returns a text, or, for a server zod schema handed to TanStack Form as a Standard Schema, the schema's
// issues, which TanStack Form files under their field paths.

/** What a form's check found: its own text (already in the user's language), or a server schema's issue. */
export type FormProblem = string | StandardSchemaV1Issue;

/** The first problem among a form's errors (`form.state.errors`). */
export function firstProblem(errors: readonly unknown[]): FormProblem | null {
  for (const error of errors) {
    const problem = problemOf(error);
    if (problem !== null) return problem;
  }
  return null;
}

function problemOf(error: unknown): FormProblem | null {
  if (typeof error === "string") return error === "" ? null : error;
  if (Array.isArray(error)) return firstProblem(error);
  if (error !== null && typeof error === "object") {
    if ("message" in error && typeof error.message === "string") return error as StandardSchemaV1Issue;
    // A schema's issues by field path ({ name: [issue] }), in the order the schema found them.
    return firstProblem(Object.values(error));
  }
  return null;
}

/**
 * A problem's text: a check's own as it is; a schema issue's by the code the server would answer with
 * (src/core/input-issues.ts) in `locale`, or as the schema wrote it when `locale` is null (docs/decisions/062).
 */
export function problemText(problem: FormProblem, locale: Locale | null): string {
  if (typeof problem === "string") return problem;
  if (locale === null) return problem.message;
  const refusal = issueRefusal(problem as z.core.$ZodIssue);
  return translateRefusal({ code: refusal.code, message: refusal.message, values: refusal.extra }, locale);
}

/** The first problem's text (see problemText), or null when the form has none. */
export function firstErrorText(errors: readonly unknown[], locale: Locale | null = null): string | null {
  const problem = firstProblem(errors);
  return problem === null ? null : problemText(problem, locale);
}

/**
 * The first issue `schema` has for `input`, or undefined when it passes: for a check on what a form
 * sends (trimmed, converted) rather than on its fields as typed. A server schema answers as the server
 * would: the same issue, in the same order.
 */
export function schemaProblem(schema: StandardSchemaV1, input: unknown): StandardSchemaV1Issue | undefined {
  const result = schema["~standard"].validate(input);
  if (result instanceof Promise) throw new Error("A form's schema must check synchronously");
  return result.issues?.[0];
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
