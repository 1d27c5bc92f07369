import CheckIcon from "lucide-react/icons/check";

import { cn } from "@/lib/utils";

const STEPS = ["Wachtwoord", "Bestelling"] as const;

/** docs/product.md §2 "Order screen": the two steps 'Wachtwoord' and 'Bestelling'. `current` 2 means both are done. */
export function OrderStepper({ current }: { current: 0 | 1 | 2 }) {
  return (
    <ol aria-label="Stappen" data-slot="order-stepper" className="flex items-center gap-3">
      {STEPS.map((label, index) => {
        const done = index < current;
        const active = index === current;
        return (
          <li key={label} aria-current={active ? "step" : undefined} className="flex flex-1 items-center gap-3 last:flex-none">
            <span className="flex items-center gap-2.5">
              <span
                aria-hidden="true"
                className={cn(
                  "flex size-8 shrink-0 items-center justify-center rounded-full border-2 text-sm font-bold",
                  done && "border-success bg-success text-success-foreground",
                  active && "border-primary bg-primary text-primary-foreground",
                  !done && !active && "border-input bg-background text-foreground/70",
                )}
              >
                {done ? <CheckIcon className="size-4" /> : index + 1}
              </span>
              <span className={cn("text-sm font-semibold", !done && !active && "text-foreground/70")}>
                {label}
                {done && <span className="sr-only"> (voltooid)</span>}
              </span>
            </span>
            {index < STEPS.length - 1 && (
              <span aria-hidden="true" className={cn("h-0.5 min-w-6 flex-1 rounded-full", done ? "bg-success" : "bg-border")} />
            )}
          </li>
        );
      })}
    </ol>
  );
}
