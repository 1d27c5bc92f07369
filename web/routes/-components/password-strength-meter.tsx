import { useMessages } from "@/i18n/use-messages";
import { scorePassword, type StrengthLabel, strengthLabel } from "@/lib/password-strength";
import { cn } from "@/lib/utils";

const barColour: Record<StrengthLabel, string> = {
  Weak: "bg-destructive",
  Moderate: "bg-amber-500",
  Strong: "bg-success",
};

// The label's word in the catalogue; the English label itself stays the data-strength value.
const labelKey: Record<StrengthLabel, "weak" | "moderate" | "strong"> = {
  Weak: "weak",
  Moderate: "moderate",
  Strong: "strong",
};

const textColour: Record<StrengthLabel, string> = {
  Weak: "text-destructive",
  Moderate: "text-amber-700",
  Strong: "text-success",
};

/** docs/product.md §4/§5: the live password strength, 0 to 100, with its label. */
export function PasswordStrengthMeter({ password, id }: { password: string; id?: string }) {
  const score = scorePassword(password);
  const label = strengthLabel(score);
  const t = useMessages();
  const labelText = t.account.strength[labelKey[label]];
  return (
    <div id={id} data-slot="password-strength" data-strength={label} className="grid gap-1.5">
      {/* biome-ignore lint/a11y/useSemanticElements: a native <meter> cannot be styled as this coloured bar in every browser */}
      <div
        role="meter"
        aria-label={t.account.strength.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={score}
        aria-valuetext={t.account.strength.valueText(labelText, score)}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn("h-full rounded-full transition-[width] duration-200", barColour[label])}
          style={{ width: `${Math.max(score, 4)}%` }}
        />
      </div>
      <p className="text-xs text-muted-foreground">
        {t.account.strength.caption} <span className={cn("font-semibold", textColour[label])}>{labelText}</span>
      </p>
    </div>
  );
}
