import ArrowRightIcon from "lucide-react/icons/arrow-right";
import EyeIcon from "lucide-react/icons/eye";
import EyeOffIcon from "lucide-react/icons/eye-off";
import LoaderCircleIcon from "lucide-react/icons/loader-circle";
import LockKeyholeIcon from "lucide-react/icons/lock-keyhole";
import * as React from "react";

import { FormField } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { refusalText } from "@/lib/server-refusal";
import { useMutate } from "@/lib/trpc-fetch";
import { useHydrated } from "@/lib/use-hydrated";
import { gateInputProblem } from "#src/features/tablers/tabler-gate";
import type { SelectedTabler } from "./order-storage";

// docs/product.md §8 'Tablers load': our form does not load the tablers (docs/architecture.md §3: the server matches the name), so
// the specification's text is shown when that check cannot be done (no network, a server fault).
export const CHECK_FAILED = "Kon tablers niet laden. Probeer de pagina te verversen.";

/**
 * docs/product.md §2 step 1 and §5 "Order password step": the client checks emptiness, length and letters in that
 * order, then the server matches the 'password' against the tablers (docs/architecture.md §3 POST /tablers/match).
 */
export function PasswordStep({
  onMatched,
  headingRef,
}: {
  onMatched: (tabler: SelectedTabler) => void;
  headingRef: React.Ref<HTMLHeadingElement>;
}) {
  const match = useMutate("tablers.match");
  // Prerendered: until the script has hydrated the page, a submit would reload it and lose the input.
  const hydrated = useHydrated();
  const [password, setPassword] = React.useState("");
  const [error, setError] = React.useState<string | null>(null);
  // The 'password' is a tabler's name, typed on a phone at the door: let the member see it.
  const [shown, setShown] = React.useState(false);
  const inputRef = React.useRef<HTMLInputElement>(null);
  const fieldId = React.useId();

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (match.isPending) return;
    const problem = gateInputProblem(password);
    if (problem) {
      setError(problem);
      inputRef.current?.focus();
      return;
    }
    setError(null);
    try {
      const answer = await match.mutateAsync({ password });
      onMatched({ id: answer.tabler.id, name: answer.tabler.name, gateToken: answer.gate_token });
    } catch (failure) {
      setError(refusalText(failure, CHECK_FAILED));
      inputRef.current?.select();
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-6">
      <div className="flex items-start gap-4">
        <span aria-hidden="true" className="flex size-11 shrink-0 items-center justify-center rounded-full bg-accent text-primary">
          <LockKeyholeIcon className="size-5" />
        </span>
        <div className="flex flex-col gap-1.5">
          <h2 ref={headingRef} tabIndex={-1} id={`${fieldId}-title`} className="text-xl font-bold tracking-tight outline-none">
            Wachtwoord
          </h2>
          <p className="leading-relaxed text-foreground/80">
            Dit bestelformulier is voor leden van de club. Voer het wachtwoord in dat je van de club hebt gekregen om verder te gaan.
          </p>
        </div>
      </div>
      <FormField id={fieldId} label="Wachtwoord" required error={error}>
        {(control) => (
          <div className="relative">
            <Input
              {...control}
              ref={inputRef}
              name="password"
              type={shown ? "text" : "password"}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              className="pr-11"
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
                if (error) setError(null);
              }}
            />
            <button
              type="button"
              aria-label="Wachtwoord tonen"
              aria-pressed={shown}
              aria-controls={control.id}
              onClick={() => setShown((now) => !now)}
              className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-md text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              {shown ? <EyeOffIcon aria-hidden="true" className="size-4" /> : <EyeIcon aria-hidden="true" className="size-4" />}
            </button>
          </div>
        )}
      </FormField>
      <Button type="submit" size="lg" className="self-end" disabled={!hydrated || match.isPending} aria-busy={match.isPending || undefined}>
        {match.isPending && <LoaderCircleIcon aria-hidden="true" className="animate-spin" />}
        Doorgaan
        {!match.isPending && <ArrowRightIcon aria-hidden="true" />}
      </Button>
    </form>
  );
}
