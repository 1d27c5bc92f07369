import * as React from "react";

import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { cn } from "@/lib/utils";

export type TextFieldProps = React.ComponentProps<typeof Input> & {
  label: React.ReactNode;
  /** Helper text under the input, tied to it with aria-describedby. */
  hint?: React.ReactNode;
  /** Extra content on the right of the label row (a "show" toggle, a link). */
  labelAction?: React.ReactNode;
  /** A message under the input that marks it invalid (inline, in the form's language, instead of the browser's bubble). */
  error?: string | null;
  containerClassName?: string;
};

/** A labelled input with an optional hint and error: the label is always visible and always linked. */
export function TextField({ label, hint, labelAction, error, containerClassName, id, ...inputProps }: TextFieldProps) {
  const generatedId = React.useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [inputProps["aria-describedby"], errorId, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("grid gap-2", containerClassName)}>
      {labelAction ? (
        <div className="flex items-center justify-between gap-2">
          <Label htmlFor={inputId}>{label}</Label>
          {labelAction}
        </div>
      ) : (
        <Label htmlFor={inputId}>{label}</Label>
      )}
      <Input id={inputId} {...inputProps} aria-describedby={describedBy} aria-invalid={error ? true : inputProps["aria-invalid"]} />
      {hint && (
        <p id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} data-slot="field-error" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
