import FileDownIcon from "lucide-react/icons/file-down";
import LoaderCircleIcon from "lucide-react/icons/loader-circle";
import LockKeyholeIcon from "lucide-react/icons/lock-keyhole";
import RotateCcwIcon from "lucide-react/icons/rotate-ccw";
import * as React from "react";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { NEEDS_JS } from "../needs-javascript";
import {
  checkoutUrl,
  formatEuros,
  invoicePdfUrl,
  ORDER_STATE_LABELS,
  type OrderState,
  type OrderStatus,
  orderState,
  orderStatusUrl,
  orderTokenFromPath,
  PAY_FAILED,
  paidOnText,
  parseOrderStatus,
  partialRefund,
  payFailureText,
  payUrl,
} from "./order-status";

// docs/architecture.md §6 "The order page and online payment"; where it lives: docs/decisions/067. The island of the
// prerendered /bestelling page: the build knows no token, so it renders the loading state, and the browser
// reads the token from the address and asks GET /api/order-status/<token>.

const LOAD_FAILED = "Je bestelling kon niet worden geladen. Controleer je internetverbinding en probeer het opnieuw.";

type Load = { kind: "loading" } | { kind: "found"; token: string; status: OrderStatus } | { kind: "not-found" } | { kind: "failed" };

async function fetchStatus(token: string, signal?: AbortSignal): Promise<Load> {
  try {
    const response = await fetch(orderStatusUrl(token), { headers: { Accept: "application/json" }, cache: "no-store", signal });
    if (response.status === 404) return { kind: "not-found" };
    if (!response.ok) return { kind: "failed" };
    const status = parseOrderStatus(await response.json());
    return status ? { kind: "found", token, status } : { kind: "failed" };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { kind: "failed" };
  }
}

export function OrderStatusView() {
  const [load, setLoad] = React.useState<Load>({ kind: "loading" });
  const [attempt, setAttempt] = React.useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt is the trigger of a retry
  React.useEffect(() => {
    const token = orderTokenFromPath(window.location.pathname);
    if (token === null) {
      setLoad({ kind: "not-found" });
      return;
    }
    const controller = new AbortController();
    fetchStatus(token, controller.signal).then(setLoad, () => undefined);
    return () => controller.abort();
  }, [attempt]);

  // Back from the checkout through the browser's back button, the page may come out of the back/forward
  // cache as it was left (busy): ask again, as a fresh load would.
  React.useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setAttempt((count) => count + 1);
    };
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, []);

  const retry = () => {
    setLoad({ kind: "loading" });
    setAttempt((count) => count + 1);
  };

  return (
    <div {...NEEDS_JS} data-slot="order-status" className="flex flex-col gap-6">
      {load.kind === "loading" && <LoadingOrder />}
      {load.kind === "not-found" && <OrderNotFound />}
      {load.kind === "failed" && <OrderLoadFailed onRetry={retry} />}
      {load.kind === "found" && (
        <OrderDetails
          // Back from the back/forward cache the pay part starts afresh (not busy).
          key={attempt}
          token={load.token}
          status={load.status}
          onStale={() => void fetchStatus(load.token).then((next) => next.kind === "found" && setLoad(next))}
        />
      )}
    </div>
  );
}

const CARD = "flex flex-col gap-5 rounded-xl border bg-card p-5 shadow-sm sm:p-8";

/** The height the card of an order takes, so the page does not jump when it arrives. */
const CARD_HEIGHT = "min-h-64";

function PageHeading({ children }: { children: React.ReactNode }) {
  return <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{children}</h1>;
}

function LoadingOrder() {
  return (
    <>
      <div className="flex flex-col gap-2">
        <PageHeading>Je bestelling</PageHeading>
        {/* As high as the line of the order's number (text-lg), so the card below does not move. */}
        <p aria-hidden="true" className="h-7 w-56 animate-pulse rounded bg-muted" />
      </div>
      <div aria-busy="true" className={`${CARD} ${CARD_HEIGHT}`}>
        <p role="status" className="flex items-center gap-2 text-muted-foreground">
          <LoaderCircleIcon aria-hidden="true" className="size-5 animate-spin" />
          Je bestelling wordt geladen...
        </p>
        <div aria-hidden="true" className="flex flex-col gap-3">
          <span className="h-5 w-3/4 animate-pulse rounded bg-muted" />
          <span className="h-5 w-1/2 animate-pulse rounded bg-muted" />
          <span className="h-5 w-2/3 animate-pulse rounded bg-muted" />
        </div>
      </div>
    </>
  );
}

function OrderNotFound() {
  return (
    <div className="flex flex-col gap-2">
      <PageHeading>Bestelling niet gevonden</PageHeading>
      <p className="text-foreground/80">Controleer de link in je e-mail.</p>
    </div>
  );
}

function OrderLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <>
      <PageHeading>Je bestelling</PageHeading>
      <div className={CARD}>
        <p role="alert" className="leading-relaxed">
          {LOAD_FAILED}
        </p>
        <Button type="button" variant="outline" size="lg" className="self-start" onClick={onRetry}>
          <RotateCcwIcon aria-hidden="true" />
          Opnieuw proberen
        </Button>
      </div>
    </>
  );
}

const BADGE_VARIANTS = {
  open: "outline",
  paid: "success",
  refunded: "secondary",
  cancelled: "destructive",
} as const satisfies Record<OrderState, string>;

function OrderDetails({ token, status, onStale }: { token: string; status: OrderStatus; onStale: () => void }) {
  // Kept here, not in the pay part: after a refusal the order is asked again, and when it can no longer be
  // paid the button goes but the reason stays.
  const [payError, setPayError] = React.useState<string | null>(null);
  const state = orderState(status);
  const paidOn = state === "paid" ? paidOnText(status.paid_at) : null;
  const refunded = partialRefund(status);

  return (
    <>
      <div className="flex flex-col gap-2">
        <PageHeading>Je bestelling</PageHeading>
        <p className="text-lg text-foreground/80">
          {/* leading-none: the monospace font's taller line would make this line a pixel higher than its placeholder. */}
          Bestelnummer <span className="font-mono leading-none font-semibold text-foreground">{status.reference}</span>
        </p>
      </div>
      <section aria-label={`Bestelling ${status.reference}`} className={`${CARD} ${CARD_HEIGHT}`}>
        <div className="flex flex-col gap-2">
          <p className="text-xl font-bold tracking-tight [overflow-wrap:anywhere]">{status.name}</p>
          <p data-slot="order-state" className="flex flex-wrap items-center gap-2">
            <span className="sr-only">Status: </span>
            <Badge variant={BADGE_VARIANTS[state]} className="px-2.5 py-1 text-sm">
              {ORDER_STATE_LABELS[state]}
            </Badge>
            {paidOn && (
              <>
                {" "}
                <span className="text-sm text-foreground/80">{paidOn}</span>
              </>
            )}
          </p>
        </div>
        <ul className="flex flex-col divide-y rounded-lg border bg-muted/40">
          <OrderLine label="Aantal kerstpakketten:" value={status.amount} />
          <OrderLine label="Totaal inclusief btw:" value={formatEuros(status.amount_incl)} />
          {refunded !== null && <OrderLine label="Terugbetaald:" value={formatEuros(refunded)} />}
          {status.invoice_number !== null && <OrderLine label="Factuurnummer" value={status.invoice_number} />}
        </ul>
        {(status.invoice_number !== null || status.can_pay || payError !== null) && (
          <div className="flex flex-col gap-4">
            {status.can_pay && <PayOnline token={token} onFailed={setPayError} onRefused={onStale} />}
            {payError !== null && (
              <p role="alert" className="rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm text-destructive-text">
                {payError}
              </p>
            )}
            {status.invoice_number !== null && (
              <Button asChild variant="outline" size="lg" className="self-stretch sm:self-start">
                <a href={invoicePdfUrl(token)} type="application/pdf">
                  <FileDownIcon aria-hidden="true" />
                  Factuur downloaden (PDF)
                </a>
              </Button>
            )}
          </div>
        )}
      </section>
    </>
  );
}

function OrderLine({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <li className="flex flex-wrap justify-between gap-x-4 gap-y-1 px-4 py-3">
      <span className="text-foreground/80">{label}</span> <span className="font-semibold tabular-nums">{value}</span>
    </li>
  );
}

/** "Betalen met iDEAL": POST …/pay, then on to the hosted checkout, which comes back to this page. */
function PayOnline({ token, onFailed, onRefused }: { token: string; onFailed: (text: string | null) => void; onRefused: () => void }) {
  const [paying, setPaying] = React.useState(false);
  const buttonRef = React.useRef<HTMLButtonElement>(null);
  const noteId = React.useId();
  // Set when a payment could not start: the button, disabled while busy, lost the focus and gets it back once
  // it is enabled again (after React's render, which a slow phone may finish after the next frame).
  const refocus = React.useRef(false);
  React.useEffect(() => {
    if (paying || !refocus.current) return;
    refocus.current = false;
    buttonRef.current?.focus();
  }, [paying]);

  async function pay() {
    if (paying) return;
    setPaying(true);
    onFailed(null);
    let failure = PAY_FAILED;
    try {
      const response = await fetch(payUrl(token), { method: "POST", credentials: "same-origin", headers: { Accept: "application/json" } });
      const body: unknown = await response.json().catch(() => null);
      const url = response.ok ? checkoutUrl(body) : null;
      if (url) {
        // Busy until the browser has left for the checkout.
        window.location.assign(url);
        return;
      }
      failure = payFailureText(response.status, body);
      // Paid, cancelled or switched off meanwhile: show the order as it now is.
      if (response.status === 409) onRefused();
    } catch {
      // No answer at all: the general text.
    }
    onFailed(failure);
    refocus.current = true;
    setPaying(false);
  }

  return (
    <div className="flex flex-col gap-2">
      <Button
        ref={buttonRef}
        type="button"
        size="lg"
        className="self-stretch sm:self-start"
        disabled={paying}
        aria-busy={paying || undefined}
        aria-describedby={noteId}
        onClick={() => void pay()}
      >
        {paying ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <LockKeyholeIcon aria-hidden="true" />}
        {paying ? "Betaling wordt gestart..." : "Betalen met iDEAL"}
      </Button>
      <p id={noteId} className="text-sm text-muted-foreground">
        Je betaalt veilig via Mollie (iDEAL, Wero of een andere methode die de club aanbiedt).
      </p>
    </div>
  );
}
