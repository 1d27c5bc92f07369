import * as React from "react";

import { TextField } from "@/components/text-field";
import { useMessages } from "@/i18n/use-messages";
import { PasswordStrengthMeter } from "./password-strength-meter";

/**
 * A new password with its live strength (docs/product.md §4/§5) and the field that repeats it: registration and the
 * reset-password page. The caller checks length and equality before sending.
 */
export function NewPasswordFields({
  label,
  confirmLabel,
  minLength,
  password,
  confirmPassword,
  onPasswordChange,
  onConfirmPasswordChange,
  required = false,
  autoFocus = false,
}: {
  label: string;
  confirmLabel: string;
  minLength: number;
  password: string;
  confirmPassword: string;
  onPasswordChange: (value: string) => void;
  onConfirmPasswordChange: (value: string) => void;
  required?: boolean;
  autoFocus?: boolean;
}) {
  const strengthId = React.useId();
  const t = useMessages();
  return (
    <>
      <div className="grid gap-2">
        <TextField
          label={label}
          name="password"
          type="password"
          autoComplete="new-password"
          required={required}
          autoFocus={autoFocus}
          hint={t.account.password.minimum(minLength)}
          aria-describedby={password ? strengthId : undefined}
          value={password}
          onChange={(event) => onPasswordChange(event.target.value)}
        />
        {password && <PasswordStrengthMeter id={strengthId} password={password} />}
      </div>
      <TextField
        label={confirmLabel}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        required={required}
        value={confirmPassword}
        onChange={(event) => onConfirmPasswordChange(event.target.value)}
      />
    </>
  );
}
