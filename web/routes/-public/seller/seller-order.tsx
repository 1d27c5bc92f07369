import LoaderCircleIcon from "lucide-react/icons/loader-circle";
import RotateCcwIcon from "lucide-react/icons/rotate-ccw";
import UserRoundIcon from "lucide-react/icons/user-round";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { useSiteIdentity } from "@/lib/site";
import { NEEDS_JS } from "../needs-javascript";
import { OrderConfirmation } from "../order/order-confirmation";
import { OrderForm, type PlacedOrder } from "../order/order-form";
import { parseSeller, type Seller, sellerOrderSender, sellerTokenFromPath, sellerUrl } from "./seller";

// DESIGN §6 "The door" (docs/decisions/070): the island of the prerendered /bestellen page. The build knows no
// token, so it renders the loading state; the browser reads the token from the address, asks whose link it
// is, and shows the public order form for that seller, without the gate.

export const LINK_GONE = "Deze bestellink werkt niet (meer).";
const LOAD_FAILED = "De bestelpagina kon niet worden geladen. Controleer je internetverbinding en probeer het opnieuw.";

type Load = { kind: "loading" } | { kind: "found"; token: string; seller: Seller } | { kind: "not-found" } | { kind: "failed" };

async function fetchSeller(token: string, signal: AbortSignal): Promise<Load> {
  try {
    const response = await fetch(sellerUrl(token), { headers: { Accept: "application/json" }, cache: "no-store", signal });
    if (response.status === 404) return { kind: "not-found" };
    if (!response.ok) return { kind: "failed" };
    const seller = parseSeller(await response.json());
    return seller ? { kind: "found", token, seller } : { kind: "failed" };
  } catch (error) {
    if (signal.aborted) throw error;
    return { kind: "failed" };
  }
}

const CARD = "rounded-xl border bg-card p-5 shadow-sm sm:p-8";

export function SellerOrder() {
  const [load, setLoad] = React.useState<Load>({ kind: "loading" });
  const [attempt, setAttempt] = React.useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt is the trigger of a retry
  React.useEffect(() => {
    const token = sellerTokenFromPath(window.location.pathname);
    if (token === null) {
      setLoad({ kind: "not-found" });
      return;
    }
    const controller = new AbortController();
    fetchSeller(token, controller.signal).then(setLoad, () => undefined);
    return () => controller.abort();
  }, [attempt]);

  return (
    <div {...NEEDS_JS} data-slot="seller-order" className="flex flex-col gap-6">
      {load.kind === "loading" && (
        <div aria-busy="true" className={`${CARD} min-h-64`}>
          <p role="status" className="flex items-center gap-2 text-muted-foreground">
            <LoaderCircleIcon aria-hidden="true" className="size-5 animate-spin" />
            Het bestelformulier wordt geladen...
          </p>
        </div>
      )}
      {load.kind === "not-found" && <LinkGone />}
      {load.kind === "failed" && (
        <div className={`${CARD} flex flex-col gap-5`}>
          <p role="alert" className="leading-relaxed">
            {LOAD_FAILED}
          </p>
          <Button
            type="button"
            variant="outline"
            size="lg"
            className="self-start"
            onClick={() => {
              setLoad({ kind: "loading" });
              setAttempt((count) => count + 1);
            }}
          >
            <RotateCcwIcon aria-hidden="true" />
            Opnieuw proberen
          </Button>
        </div>
      )}
      {load.kind === "found" && <SellerForm token={load.token} seller={load.seller} />}
    </div>
  );
}

function LinkGone() {
  const site = useSiteIdentity();
  return (
    <div className={`${CARD} flex flex-col gap-3`}>
      <h2 className="text-xl font-bold tracking-tight">{LINK_GONE}</h2>
      <p className="leading-relaxed text-foreground/80">
        Vraag het lid van wie je de link kreeg om een nieuwe link. Je kunt ook een bericht sturen via de{" "}
        <a className="font-medium underline underline-offset-4" href="/contact">
          contactpagina
        </a>
        {site.email ? (
          <>
            {" "}
            of mailen naar{" "}
            <a className="font-medium [overflow-wrap:anywhere] underline underline-offset-4" href={`mailto:${site.email}`}>
              {site.email}
            </a>
          </>
        ) : null}
        .
      </p>
    </div>
  );
}

function SellerForm({ token, seller }: { token: string; seller: Seller }) {
  const site = useSiteIdentity();
  const tabler = { id: seller.tabler_id, name: seller.tabler_name, gateToken: null };
  const [placed, setPlaced] = React.useState<PlacedOrder | null>(null);
  // One sender for the page: the same order sent twice keeps its Idempotency-Key.
  const send = React.useMemo(() => sellerOrderSender(token), [token]);
  const headingRef = React.useRef<HTMLHeadingElement>(null);
  const moved = React.useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: placed is the trigger; focus goes to the new step's heading
  React.useEffect(() => {
    if (moved.current) headingRef.current?.focus();
  }, [placed]);

  const go = (next: PlacedOrder | null) => {
    moved.current = true;
    setPlaced(next);
  };

  return (
    <>
      <h2 data-slot="seller" className="flex items-center gap-2 self-start rounded-full bg-accent px-4 py-2 text-lg text-accent-foreground">
        <UserRoundIcon aria-hidden="true" className="size-5 shrink-0" />
        <span>
          Je bestelt via <strong className="font-semibold">{seller.tabler_name}</strong>
        </span>
      </h2>
      <div className={CARD}>
        {placed ? (
          <OrderConfirmation order={placed} packagePrice={site.packagePrice} headingRef={headingRef} onAnotherOrder={() => go(null)} />
        ) : (
          <OrderForm tabler={tabler} packagePrice={site.packagePrice} headingRef={headingRef} customer onSubmitOrder={send} onPlaced={go} />
        )}
      </div>
    </>
  );
}
