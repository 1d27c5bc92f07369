import { useMutation } from "@tanstack/react-query";
import BellIcon from "lucide-react/icons/bell";
import CircleCheckIcon from "lucide-react/icons/circle-check";
import CircleIcon from "lucide-react/icons/circle";
import PackageIcon from "lucide-react/icons/package";
import PackageCheckIcon from "lucide-react/icons/package-check";
import SendIcon from "lucide-react/icons/send";
import XIcon from "lucide-react/icons/x";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import type { RouterInputs } from "@/lib/trpc";
import { formatCount, ordersCountText, useOrdersCache } from "./shared";

// docs/decisions/022: one action on many orders. The server runs each order through the same rules as a single
// action and answers per order, so a refusal of one is shown next to its order and the rest go on.

export type BulkAction = RouterInputs["invoices"]["bulk"]["action"];

/** The server takes at most this many ids a call (MAX_BULK_ORDERS in src/features/invoices/bulk.service.ts). */
const BULK_BATCH = 500;

type ActionText = { button: string; icon: React.ReactNode; title: (n: number) => string; message: (n: number) => string; confirm: string };

const count = (n: number) => ordersCountText(n);

export const BULK_ACTIONS: Record<BulkAction, ActionText> = {
  mark_paid: {
    button: "Markeer betaald",
    icon: <CircleCheckIcon aria-hidden="true" />,
    title: (n) => `${count(n)} als betaald markeren?`,
    message: () => "De betaaldatum wordt vandaag. Bestellingen die al betaald zijn, blijven zoals ze zijn.",
    confirm: "Markeer betaald",
  },
  mark_unpaid: {
    button: "Markeer onbetaald",
    icon: <CircleIcon aria-hidden="true" />,
    title: (n) => `${count(n)} als onbetaald markeren?`,
    message: (n) => (n === 1 ? "De betaaldatum van deze bestelling vervalt." : "De betaaldatum van deze bestellingen vervalt."),
    confirm: "Markeer onbetaald",
  },
  send_invoice: {
    button: "Facturen versturen",
    icon: <SendIcon aria-hidden="true" />,
    title: (n) => `Facturen versturen voor ${count(n)}?`,
    message: () =>
      "Bestellingen zonder factuur krijgen een factuurnummer en hun factuur per e-mail; van bestellingen met een factuur wordt dezelfde factuur opnieuw verstuurd. Gecrediteerde bestellingen worden overgeslagen.",
    confirm: "Facturen versturen",
  },
  send_reminder: {
    button: "Herinneringen versturen",
    icon: <BellIcon aria-hidden="true" />,
    title: (n) => `Herinneringen versturen voor ${count(n)}?`,
    message: () =>
      "Alleen gefactureerde, onbetaalde en niet gecrediteerde bestellingen krijgen een herinnering met hun factuur; bij de andere staat in het resultaat waarom niet. Loopt de betaaltermijn van een factuur nog, dan kun je daar kiezen om toch een herinnering te sturen.",
    confirm: "Herinneringen versturen",
  },
  // docs/decisions/023: delivery day, when a tabler comes back with a list of ticked-off addresses.
  mark_delivered: {
    button: "Markeer als bezorgd",
    icon: <PackageCheckIcon aria-hidden="true" />,
    title: (n) => `${count(n)} als bezorgd markeren?`,
    message: () => "De bezorgdatum wordt vandaag. Bestellingen die al bezorgd zijn, blijven zoals ze zijn.",
    confirm: "Markeer als bezorgd",
  },
  mark_undelivered: {
    button: "Markeer als niet bezorgd",
    icon: <PackageIcon aria-hidden="true" />,
    title: (n) => `${count(n)} als niet bezorgd markeren?`,
    message: (n) =>
      n === 1
        ? "De bezorgdatum vervalt en de bestelling staat weer op de bezorglijst van haar tabler."
        : "De bezorgdatum vervalt en de bestellingen staan weer op de bezorglijst van hun tabler.",
    confirm: "Markeer als niet bezorgd",
  },
};

type BulkFailure = {
  id: number;
  reference: string;
  error: string;
  /** A reminder refused because the payment term still runs: its due day (docs/decisions/059). */
  dueDate?: string;
};
type BulkOutcome = { action: BulkAction; succeeded: number; failures: BulkFailure[] };

/**
 * '3 geselecteerd', or '3 geselecteerd, waarvan 1 op een andere pagina': docs/decisions/034, the table shows one
 * page at a time, so the bar says when the actions reach orders out of sight.
 */
export function selectedText(n: number, offPage: number): string {
  if (offPage <= 0) return `${formatCount(n)} geselecteerd`;
  return `${formatCount(n)} geselecteerd, waarvan ${formatCount(offPage)} op ${offPage === 1 ? "een andere pagina" : "andere pagina's"}`;
}

/**
 * The height of the site's sticky header (components/layout/site-header.tsx), where the bar sticks: it
 * wraps to another height on a phone, so it is measured rather than assumed.
 */
function useStickyTop(): number {
  const [top, setTop] = React.useState(0);
  React.useEffect(() => {
    const header = document.querySelector<HTMLElement>("[data-slot=site-header]");
    if (!header) return;
    const measure = () => setTop(header.getBoundingClientRect().height);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(header);
    return () => observer.disconnect();
  }, []);
  return top;
}

/** '2 gelukt, 1 mislukt'. */
export function outcomeSummary(outcome: { succeeded: number; failures: readonly unknown[] }): string {
  return `${formatCount(outcome.succeeded)} gelukt, ${formatCount(outcome.failures.length)} mislukt`;
}

/** The bar over the table while orders are selected, with its confirmation and result dialogs (kept
 * mounted after the selection is cleared, so the result stays on screen). */
export function BulkActions({
  ids,
  references,
  offPage,
  onClear,
}: {
  /** The selected orders: those on the page in table order, then those ticked on other pages. */
  ids: readonly number[];
  /** Order id → reference, to name the orders in the result. */
  references: ReadonlyMap<number, string>;
  /** How many of them are on other pages than the one on screen. */
  offPage: number;
  onClear: () => void;
}) {
  const trpc = useTrpc();
  const cache = useOrdersCache();
  const { showSnackbar } = useSnackbar();
  const bulk = useMutation(trpc.invoices.bulk.mutationOptions());
  const [confirming, setConfirming] = React.useState<BulkAction | null>(null);
  // The count the confirmation named, kept while the dialog closes (the selection may change under it).
  const [confirmIds, setConfirmIds] = React.useState<readonly number[]>([]);
  const [outcome, setOutcome] = React.useState<BulkOutcome | null>(null);

  function ask(action: BulkAction) {
    setConfirmIds(ids);
    setConfirming(action);
  }

  /** `force`: reminders also to orders still within their payment term, after the result asked (docs/decisions/059). */
  async function run(action: BulkAction, runIds: readonly number[], force = false) {
    const results: { id: number; success: boolean; error?: string; due_date?: string }[] = [];
    try {
      for (let i = 0; i < runIds.length; i += BULK_BATCH) {
        const answer = await bulk.mutateAsync({ ids: runIds.slice(i, i + BULK_BATCH), action, ...(force ? { force } : {}) });
        results.push(...answer.results);
      }
    } catch (error) {
      showSnackbar(errorText(error, "De bulkactie is mislukt"), "error");
      // Part of the orders may have changed before the failure.
      void cache.invalidate();
      throw error;
    }
    const failures = results
      .filter((r) => !r.success)
      .map((r) => ({
        id: r.id,
        reference: references.get(r.id) ?? outcome?.failures.find((f) => f.id === r.id)?.reference ?? `#${r.id}`,
        error: r.error ?? "Mislukt",
        ...(r.due_date ? { dueDate: r.due_date } : {}),
      }));
    setOutcome({ action, succeeded: results.length - failures.length, failures });
    onClear();
    await cache.invalidate();
  }

  const n = ids.length;
  const text = confirming ? BULK_ACTIONS[confirming] : null;
  const notYetDue = outcome?.action === "send_reminder" ? outcome.failures.filter((f) => f.dueDate !== undefined) : [];
  const stickyTop = useStickyTop();
  return (
    <>
      {n > 0 && (
        // Sticky under the site's sticky header, so the actions stay at hand while the list scrolls; opaque,
        // with the tint on top of the page colour. On a phone the actions scroll sideways in one row instead
        // of wrapping into a bar that would cover half the screen.
        <section
          aria-label="Bulkacties"
          data-slot="bulk-bar"
          style={{ top: stickyTop }}
          className="sticky z-30 rounded-xl bg-background shadow-sm"
        >
          <div className="grid gap-1.5 rounded-xl border border-primary/30 bg-primary/5 px-3 py-2 text-sm sm:flex sm:flex-wrap sm:items-center sm:gap-2">
            <div className="flex items-center justify-between gap-2">
              <span className="font-medium" data-slot="bulk-count" aria-live="polite">
                {selectedText(n, offPage)}
              </span>
              <Button variant="ghost" size="sm" className="h-7 px-2" onClick={onClear}>
                <XIcon aria-hidden="true" />
                Selectie wissen
              </Button>
            </div>
            <div
              data-slot="bulk-buttons"
              className="-mx-3 flex gap-2 overflow-x-auto px-3 pb-1 [mask-image:linear-gradient(to_right,black_calc(100%-2rem),transparent)] sm:mx-0 sm:ml-auto sm:flex-wrap sm:overflow-visible sm:px-0 sm:pb-0 sm:[mask-image:none]"
            >
              {(Object.keys(BULK_ACTIONS) as BulkAction[]).map((action) => (
                <Button key={action} variant="outline" size="sm" className="h-8 shrink-0" onClick={() => ask(action)}>
                  {BULK_ACTIONS[action].icon}
                  {BULK_ACTIONS[action].button}
                </Button>
              ))}
            </div>
          </div>
        </section>
      )}
      <ConfirmDialog
        busyLabel="Bezig"
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={text?.title(confirmIds.length)}
        message={text?.message(confirmIds.length)}
        confirmText={text?.confirm}
        cancelText="Annuleren"
        onConfirm={() => (confirming ? run(confirming, confirmIds) : undefined)}
      />
      <Modal
        closeLabel="Sluiten"
        open={outcome !== null}
        onOpenChange={(open) => !open && setOutcome(null)}
        title={outcome ? `${BULK_ACTIONS[outcome.action].button}: resultaat` : "Resultaat"}
        className="sm:max-w-lg"
        footer={<Button onClick={() => setOutcome(null)}>Sluiten</Button>}
      >
        {outcome && (
          <div className="grid gap-3 text-sm">
            <p data-slot="bulk-summary" className="font-medium">
              {outcomeSummary(outcome)}
            </p>
            {outcome.failures.length > 0 && (
              <ul data-slot="bulk-failures" className="grid max-h-72 gap-1 overflow-y-auto rounded-md border p-3">
                {outcome.failures.map((f) => (
                  <li key={f.reference}>
                    <span className="font-mono text-xs">{f.reference}</span>: {f.error}
                  </li>
                ))}
              </ul>
            )}
            {notYetDue.length > 0 && (
              <div data-slot="bulk-not-due" className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
                <p>
                  {notYetDue.length === 1
                    ? "Bij 1 bestelling loopt de betaaltermijn nog. Wil je die toch nu al een herinnering sturen?"
                    : `Bij ${formatCount(notYetDue.length)} bestellingen loopt de betaaltermijn nog. Wil je die toch nu al een herinnering sturen?`}
                </p>
                <Button
                  variant="outline"
                  size="sm"
                  className="justify-self-start"
                  disabled={bulk.isPending}
                  aria-busy={bulk.isPending || undefined}
                  onClick={() =>
                    void run(
                      "send_reminder",
                      notYetDue.map((f) => f.id),
                      true,
                    ).catch(() => undefined)
                  }
                >
                  {bulk.isPending ? <Spinner label="Bezig" /> : <BellIcon aria-hidden="true" />}
                  Toch versturen ({formatCount(notYetDue.length)})
                </Button>
              </div>
            )}
          </div>
        )}
      </Modal>
    </>
  );
}
