import { useMutation } from "@tanstack/react-query";
import ClipboardListIcon from "lucide-react/icons/clipboard-list";
import SquareIcon from "lucide-react/icons/square";
import SquareCheckBigIcon from "lucide-react/icons/square-check-big";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { useTrpc } from "@/lib/auth";
import { downloadFile } from "@/lib/download";
import { errorText } from "@/lib/errors";
import { cn } from "@/lib/utils";
import { formatNlNumericDay, type Order, useOrdersCache } from "./shared";

// docs/decisions/023, delivery day: the delivered mark of an order and a tabler's delivery list (a PDF to print).

/**
 * A toggle button (aria-pressed) rather than a switch: the row's switch is the paid one, and its
 * word stays "Bezorgd" in both states so the name a screen reader hears never changes with it.
 */
export function DeliveredToggle({ order, onError }: { order: Order; onError: (message: string) => void }) {
  const trpc = useTrpc();
  const cache = useOrdersCache();
  const setDelivered = useMutation(trpc.delivery.setDelivered.mutationOptions());

  async function toggle() {
    const delivered = !order.delivered;
    await cache.cancel();
    const snapshot = cache.snapshot();
    const deliveredAt = delivered ? new Date().toISOString() : null;
    // The row stays where it is, even under the "Niet bezorgd" filter, so a slip of the finger can be undone.
    cache.update((orders) => orders.map((o) => (o.id === order.id ? { ...o, delivered, delivered_at: deliveredAt } : o)));
    try {
      await setDelivered.mutateAsync({ id: order.id, delivered });
      void cache.markStale();
    } catch (error) {
      cache.restore(snapshot);
      onError(errorText(error, "Bezorgd bijwerken mislukt"));
    }
  }

  // An empty box or a ticked one, as on the printed list: the word alone would read as "delivered" either way.
  const Icon = order.delivered ? SquareCheckBigIcon : SquareIcon;
  return (
    <div className="flex flex-col items-start gap-1">
      <button
        type="button"
        aria-pressed={order.delivered}
        // The visible word starts the name (WCAG 2.5.3); the customer tells the rows apart.
        aria-label={`Bezorgd: ${order.name}`}
        onClick={() => void toggle()}
        className={cn(
          "inline-flex h-7 items-center gap-1.5 rounded-md border px-2 text-xs font-medium whitespace-nowrap shadow-xs transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50",
          order.delivered
            ? "border-success bg-success text-success-foreground hover:bg-success/90"
            : "bg-background text-muted-foreground hover:bg-accent hover:text-accent-foreground",
        )}
      >
        <Icon aria-hidden="true" className="size-3.5" />
        Bezorgd
      </button>
      {order.delivered && order.delivered_at && (
        <span data-slot="delivered-at" className="text-xs text-muted-foreground">
          op {formatNlNumericDay(order.delivered_at)}
        </span>
      )}
    </div>
  );
}

/** Whose list: a tabler, or `none` for the orders without one (GET /orders' spelling). */
export type DeliveryListOf = { id: number | "none"; name: string };

/**
 * Downloads the delivery list of a tabler: the PDF of their orders still to deliver, in driving order.
 * Fetched rather than linked, so a refusal shows in the snackbar instead of as a JSON page.
 */
export function DeliveryListButton({ of, className }: { of: DeliveryListOf; className?: string }) {
  const { showSnackbar } = useSnackbar();
  const [busy, setBusy] = React.useState(false);

  async function download() {
    setBusy(true);
    try {
      await downloadFile(`/orders/delivery-list.pdf?tabler_id=${encodeURIComponent(String(of.id))}`, "bezorglijst.pdf");
    } catch {
      showSnackbar(`Bezorglijst van ${of.name} downloaden mislukt`, "error");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button variant="outline" size="sm" className={className} disabled={busy} onClick={() => void download()}>
      {busy ? <Spinner label="Bezorglijst maken" /> : <ClipboardListIcon aria-hidden="true" />}
      Bezorglijst<span className="sr-only"> {of.name} (PDF)</span>
    </Button>
  );
}
