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
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import type { RouterInputs } from "@/lib/trpc";
import { formatCount, ordersCountText, useOrdersCache } from "./shared";

// issue 13: one action on many orders. The server runs each order through the same rules as a single
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
      "Alleen gefactureerde, onbetaalde en niet gecrediteerde bestellingen krijgen een herinnering met hun factuur; bij de andere staat in het resultaat waarom niet.",
    confirm: "Herinneringen versturen",
  },
  // issue 16: delivery day, when a tabler comes back with a list of ticked-off addresses.
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

type BulkOutcome = { action: BulkAction; succeeded: number; failures: { reference: string; error: string }[] };

/**
 * '3 geselecteerd', or '3 geselecteerd, waarvan 1 op een andere pagina': issue 15, the table shows one
 * page at a time, so the bar says when the actions reach orders out of sight.
 */
export function selectedText(n: number, offPage: number): string {
  if (offPage <= 0) return `${formatCount(n)} geselecteerd`;
  return `${formatCount(n)} geselecteerd, waarvan ${formatCount(offPage)} op ${offPage === 1 ? "een andere pagina" : "andere pagina's"}`;
}

/** '2 gelukt, 1 mislukt'. */
export function outcomeSummary(outcome: Pick<BulkOutcome, "succeeded" | "failures">): string {
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

  async function run(action: BulkAction) {
    const results: { id: number; success: boolean; error?: string }[] = [];
    try {
      for (let i = 0; i < confirmIds.length; i += BULK_BATCH) {
        const answer = await bulk.mutateAsync({ ids: confirmIds.slice(i, i + BULK_BATCH), action });
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
      .map((r) => ({ reference: references.get(r.id) ?? `#${r.id}`, error: r.error ?? "Mislukt" }));
    setOutcome({ action, succeeded: results.length - failures.length, failures });
    onClear();
    await cache.invalidate();
  }

  const n = ids.length;
  const text = confirming ? BULK_ACTIONS[confirming] : null;
  return (
    <>
      {n > 0 && (
        <section
          aria-label="Bulkacties"
          data-slot="bulk-bar"
          className="flex flex-wrap items-center gap-2 rounded-xl border border-primary/30 bg-primary/5 px-3 py-2 text-sm"
        >
          <span className="font-medium" data-slot="bulk-count" aria-live="polite">
            {selectedText(n, offPage)}
          </span>
          <Button variant="ghost" size="sm" className="h-7 px-2" onClick={onClear}>
            <XIcon aria-hidden="true" />
            Selectie wissen
          </Button>
          <span className="flex flex-wrap gap-2 sm:ml-auto">
            {(Object.keys(BULK_ACTIONS) as BulkAction[]).map((action) => (
              <Button key={action} variant="outline" size="sm" className="h-8" onClick={() => ask(action)}>
                {BULK_ACTIONS[action].icon}
                {BULK_ACTIONS[action].button}
              </Button>
            ))}
          </span>
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
        onConfirm={() => (confirming ? run(confirming) : undefined)}
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
          </div>
        )}
      </Modal>
    </>
  );
}
