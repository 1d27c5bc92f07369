import * as React from "react";

import { useSiteIdentity } from "@/lib/site";
import { NEEDS_JS } from "../needs-javascript";
import { OrderConfirmation } from "./order-confirmation";
import { OrderForm, type PlacedOrder } from "./order-form";
import { clearStoredTabler, type SelectedTabler, storeTabler, useStoredTabler } from "./order-storage";
import { OrderStepper } from "./order-stepper";
import { OutboxPanel } from "./outbox-panel";
import { PasswordStep } from "./password-step";
import { installMemberApp } from "./service-worker";
import { useOutbox } from "./use-outbox";

// docs/product.md §4 "Order flow": step 0 (password) → step 1 (order form) → the confirmation. The chosen tabler
// lives in browser storage, so a reload goes straight to the form; 'Terug' and 'Nieuwe Bestelling' clear
// it, 'Nog een bestelling' keeps it and opens an empty form. The island of the order page (island.tsx). Orders go out
// through the outbox, whose waiting orders show above every step (docs/decisions/069).
type Stage =
  | { step: "password" }
  | { step: "order"; tabler: SelectedTabler }
  | { step: "done"; tabler: SelectedTabler; order: PlacedOrder };

export function OrderFlow() {
  const site = useSiteIdentity();
  // Until the visitor acts, the step follows the stored tabler. The prerendered HTML (and hydration)
  // know no storage and show the password step; the form follows right after hydration.
  const storedTabler = useStoredTabler();
  const [chosen, setStage] = React.useState<Stage | null>(null);
  const stage: Stage = chosen ?? (storedTabler ? { step: "order", tabler: storedTabler } : { step: "password" });
  const headingRef = React.useRef<HTMLHeadingElement>(null);
  const moved = React.useRef(false);
  const outbox = useOutbox();

  // After the gate the page is the installable member app that works offline (docs/decisions/069).
  const member = stage.step !== "password";
  React.useEffect(() => (member ? installMemberApp() : undefined), [member]);

  // After a step change (not on the first render) focus goes to the new step's heading, so keyboard and
  // screen-reader users land on what changed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: stage.step is the trigger, each step has its own heading
  React.useEffect(() => {
    if (!moved.current) return;
    headingRef.current?.focus();
  }, [stage.step]);

  function go(next: Stage) {
    moved.current = true;
    setStage(next);
  }

  // 'Terug' and 'Nieuwe Bestelling' both forget the tabler and start at the password step (docs/product.md §4).
  function startOver() {
    clearStoredTabler();
    go({ step: "password" });
  }

  const current = stage.step === "password" ? 0 : stage.step === "order" ? 1 : 2;

  return (
    <div {...NEEDS_JS} className="flex flex-col gap-6">
      <OrderStepper current={current} />
      <OutboxPanel outbox={outbox} />
      <div className="rounded-xl border bg-card p-5 shadow-sm sm:p-8">
        {stage.step === "password" && (
          <PasswordStep
            headingRef={headingRef}
            onMatched={(tabler) => {
              storeTabler(tabler);
              go({ step: "order", tabler });
            }}
          />
        )}
        {stage.step === "order" && (
          <OrderForm
            tabler={stage.tabler}
            packagePrice={site.packagePrice}
            headingRef={headingRef}
            onBack={startOver}
            onSubmitOrder={(request) => outbox.submit(request, stage.tabler.name)}
            onPlaced={(order) => go({ step: "done", tabler: stage.tabler, order })}
          />
        )}
        {stage.step === "done" && (
          <OrderConfirmation
            order={stage.order}
            packagePrice={site.packagePrice}
            headingRef={headingRef}
            onNewOrder={startOver}
            onAnotherOrder={() => go({ step: "order", tabler: stage.tabler })}
          />
        )}
      </div>
    </div>
  );
}
