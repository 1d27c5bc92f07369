import * as React from "react";

import { PageContainer } from "@/components/layout/site-layout";
import { usePageMeta } from "@/lib/page-meta";
import { useSiteIdentity } from "@/lib/site";
import { OrderConfirmation } from "../order/order-confirmation";
import { OrderForm, type PlacedOrder } from "../order/order-form";
import { clearStoredTabler, type SelectedTabler, storeTabler, useStoredTabler } from "../order/order-storage";
import { OrderStepper } from "../order/order-stepper";
import { PasswordStep } from "../order/password-step";
import { NEEDS_JS, NeedsJavaScript } from "../needs-javascript";
import { pageMeta } from "../page-meta";

// spec §2 "Order screen" ('Kerstpakket Bestellen'), §4 "Order flow": step 0 (password) → step 1 (order
// form) → the confirmation. The chosen tabler lives in browser storage, so a reload goes straight to
// the form; 'Terug' and 'Nieuwe Bestelling' clear it. Router-free: prerendered like the info pages.
type Stage =
  | { step: "password" }
  | { step: "order"; tabler: SelectedTabler }
  | { step: "done"; tabler: SelectedTabler; order: PlacedOrder };

export function OrderPage() {
  const site = useSiteIdentity();
  usePageMeta(pageMeta.order(site));
  // Until the visitor acts, the step follows the stored tabler. The prerendered HTML (and hydration)
  // know no storage and show the password step; the form follows right after hydration.
  const storedTabler = useStoredTabler();
  const [chosen, setStage] = React.useState<Stage | null>(null);
  const stage: Stage = chosen ?? (storedTabler ? { step: "order", tabler: storedTabler } : { step: "password" });
  const headingRef = React.useRef<HTMLHeadingElement>(null);
  const moved = React.useRef(false);

  // After a step change (not on the first render) focus goes to the new step's heading, so keyboard and
  // screen-reader users land on what changed.
  React.useEffect(() => {
    if (!moved.current) return;
    headingRef.current?.focus();
  }, [stage.step]);

  function go(next: Stage) {
    moved.current = true;
    setStage(next);
  }

  // 'Terug' and 'Nieuwe Bestelling' both forget the tabler and start at the password step (spec §4).
  function startOver() {
    clearStoredTabler();
    go({ step: "password" });
  }

  const current = stage.step === "password" ? 0 : stage.step === "order" ? 1 : 2;

  return (
    <div className="bg-linear-to-b from-accent to-background">
      <PageContainer className="flex max-w-2xl flex-col gap-6">
        <div className="flex flex-col gap-2">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">Kerstpakket Bestellen</h1>
          <p className="text-foreground/80">
            Kerstpakketten van {site.clubName}: € {site.packagePrice} per pakket, exclusief btw.
          </p>
        </div>
        <NeedsJavaScript>
          <p className="font-semibold">Het bestelformulier werkt alleen met JavaScript.</p>
          <p>
            Zet JavaScript aan in je browser om een bestelling door te geven. Je kunt ook bestellen via een van onze leden,
            of ons een bericht sturen via{" "}
            <a className="font-medium [overflow-wrap:anywhere] underline underline-offset-4" href={`mailto:${site.email}`}>
              {site.email}
            </a>
            .
          </p>
        </NeedsJavaScript>
        <div {...NEEDS_JS} className="flex flex-col gap-6">
          <OrderStepper current={current} />
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
                onPlaced={(order) => go({ step: "done", tabler: stage.tabler, order })}
              />
            )}
            {stage.step === "done" && (
              <OrderConfirmation
                order={stage.order}
                packagePrice={site.packagePrice}
                headingRef={headingRef}
                onNewOrder={startOver}
              />
            )}
          </div>
        </div>
      </PageContainer>
    </div>
  );
}
