import { useMutation } from "@tanstack/react-query";
import BellIcon from "lucide-react/icons/bell";
import FileMinusIcon from "lucide-react/icons/file-minus";
import FileTextIcon from "lucide-react/icons/file-text";
import PencilIcon from "lucide-react/icons/pencil";
import SendIcon from "lucide-react/icons/send";
import Trash2Icon from "lucide-react/icons/trash-2";
import * as React from "react";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useSnackbar } from "@/components/ui/snackbar";
import { Switch } from "@/components/ui/switch";
import { TableCell, TableRow } from "@/components/ui/table";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { cn } from "@/lib/utils";
import { formatEuroNl } from "./charts-format";
import { DeliveredToggle } from "./delivery";
import { EmailText } from "./email-text";
import { ReminderConfirmDialog } from "./reminder-confirm";
import {
  canCredit,
  canRemind,
  formatNlDate,
  formatNlDay,
  formatNlNumericDay,
  type Order,
  remindersText,
  UNKNOWN_TABLER,
  useOrdersCache,
} from "./shared";

// docs/product.md §2 tab Bestellingen, §4 paid and invoice states; docs/decisions/020–022: credited orders, reminders, the
// credit note and the reminder as row actions, and a checkbox per row for the bulk actions; docs/decisions/023:
// the delivered mark.

type Confirming = "delete" | "invoice" | "credit" | "reminder" | null;

const pdfLinkClass = "inline-flex h-7 items-center gap-1 rounded-md px-2 text-xs text-primary hover:underline";

export const OrderRow = React.memo(function OrderRow({
  order,
  selected,
  onSelectedChange,
  onEdit,
  onError,
  variant,
}: {
  order: Order;
  selected: boolean;
  onSelectedChange: (order: Pick<Order, "id" | "reference">, selected: boolean) => void;
  onEdit: (order: Order) => void;
  onError: (message: string) => void;
  /** A table row (tablet and desktop) or a card (phones). */
  variant: "row" | "card";
}) {
  const trpc = useTrpc();
  const cache = useOrdersCache();
  const { showSnackbar } = useSnackbar();
  const [confirming, setConfirming] = React.useState<Confirming>(null);
  const setPaid = useMutation(trpc.orders.setPaid.mutationOptions());
  const deleteOrder = useMutation(trpc.orders.delete.mutationOptions());
  const sendInvoice = useMutation(trpc.invoices.send.mutationOptions());
  const credit = useMutation(trpc.invoices.credit.mutationOptions());
  const remind = useMutation(trpc.invoices.remind.mutationOptions());

  async function togglePaid(paid: boolean) {
    await cache.cancel();
    const snapshot = cache.snapshot();
    const paidAt = paid ? new Date().toISOString() : null;
    cache.update((orders) => orders.map((o) => (o.id === order.id ? { ...o, paid, paid_at: paidAt } : o)));
    try {
      await setPaid.mutateAsync({ id: order.id, paid });
      // The totals may come from the server's own sums, which the cache edit above does not reach; a page
      // filtered on 'paid' that still holds this order must come from the server when next shown.
      void cache.invalidateTotals();
      void cache.markStale();
    } catch (error) {
      cache.restore(snapshot);
      onError(errorText(error, "Failed to update order"));
    }
  }

  async function handleDelete() {
    try {
      await deleteOrder.mutateAsync({ id: order.id });
      cache.update((orders) => orders.filter((o) => o.id !== order.id));
      // Out of the selection too, and the page fills up again from the next one.
      onSelectedChange(order, false);
      void cache.invalidate();
      showSnackbar(`Bestelling ${order.reference} verwijderd`, "success");
    } catch (error) {
      onError(errorText(error, "Failed to delete order"));
    }
  }

  async function handleSendInvoice() {
    try {
      const result = await sendInvoice.mutateAsync({ id: order.id });
      cache.update((orders) =>
        orders.map((o) =>
          o.id === order.id ? { ...o, invoice_number: result.invoice_number, invoice_sent: o.invoice_sent || !result.queued } : o,
        ),
      );
      showSnackbar(result.message, result.queued ? "info" : "success");
      // The invoice date and the totals' invoice count come from the server.
      void cache.invalidate();
    } catch (error) {
      onError(errorText(error, "Failed to send invoice"));
    }
  }

  // The credit note and the reminder answer in the snackbar, where the success would have shown: the
  // banner at the top of the page is out of sight when the row is far down the table.
  async function handleCredit() {
    try {
      const result = await credit.mutateAsync({ id: order.id });
      cache.update((orders) =>
        orders.map((o) => (o.id === order.id ? { ...o, cancelled: true, credit_note_number: result.credit_note_number } : o)),
      );
      showSnackbar(result.message, result.queued ? "info" : "success");
      // A credited order leaves the totals, and may leave the filtered list.
      void cache.invalidate();
    } catch (error) {
      showSnackbar(errorText(error, "Creditnota maken mislukt"), "error");
    }
  }

  async function handleRemind(force: boolean) {
    try {
      const result = await remind.mutateAsync({ id: order.id, force });
      const now = new Date().toISOString();
      cache.update((orders) =>
        orders.map((o) => (o.id === order.id ? { ...o, reminders_sent: o.reminders_sent + 1, last_reminder_at: now } : o)),
      );
      showSnackbar(result.message, result.queued ? "info" : "success");
      void cache.invalidate();
    } catch (error) {
      showSnackbar(errorText(error, "Herinnering versturen mislukt"), "error");
    }
  }

  const credited = order.credit_note_number !== null;
  // docs/decisions/057: what part-payments brought in, while the rest is still open.
  const partPaid = !order.paid && !order.cancelled && !credited && order.part_paid > 0;
  const resend = order.invoice_number !== null;
  const reminders = remindersText(order);
  const select = (
    <Checkbox
      checked={selected}
      onCheckedChange={(checked) => onSelectedChange(order, checked === true)}
      aria-label={`Selecteer ${order.reference}`}
    />
  );
  const paid = (
    <div className="flex flex-col items-start gap-1">
      <Switch checked={order.paid} onCheckedChange={(next) => void togglePaid(next)} aria-label={`Betaald ${order.reference}`} />
      {order.paid && order.paid_at && (
        <span data-slot="paid-at" className="text-xs text-muted-foreground">
          op {formatNlNumericDay(order.paid_at)}
        </span>
      )}
      {partPaid && (
        <span data-slot="part-paid" className="text-xs font-medium tabular-nums">
          Deels betaald: {formatEuroNl(order.part_paid)}
        </span>
      )}
      {/* docs/decisions/066: what went back to the customer through Mollie. */}
      {order.refunded_amount > 0 && (
        <span data-slot="refunded" className="text-xs font-medium tabular-nums">
          Terugbetaald: {formatEuroNl(order.refunded_amount)}
        </span>
      )}
    </div>
  );
  const delivered = <DeliveredToggle order={order} onError={onError} />;
  const invoice = (
    <div className="flex flex-col items-start gap-1">
      <span className="flex flex-wrap items-center gap-1.5">
        <InvoiceStatus order={order} credited={credited} />
        {credited && (
          <Badge variant="outline" data-slot="credited" className="border-destructive/40 text-destructive">
            Gecrediteerd
          </Badge>
        )}
      </span>
      {credited && (
        <span className="text-xs">
          Creditnota <span className="font-mono">{order.credit_note_number}</span>
          {order.credit_note_date && ` van ${formatNlNumericDay(order.credit_note_date)}`}
        </span>
      )}
      {reminders && (
        <span data-slot="reminders" className="text-xs">
          {reminders}
        </span>
      )}
      <span className="flex flex-wrap items-center gap-1">
        {!credited && (
          <Button variant="outline" size="sm" className="h-7 px-2 text-xs" onClick={() => setConfirming("invoice")}>
            <SendIcon aria-hidden="true" />
            {resend ? "Opnieuw versturen" : "Factuur versturen"}
          </Button>
        )}
        {canRemind(order) && (
          <Button variant="outline" size="sm" className="h-7 px-2 text-xs" onClick={() => setConfirming("reminder")}>
            <BellIcon aria-hidden="true" />
            Herinnering versturen
          </Button>
        )}
        {/* The visible word starts the accessible name (WCAG 2.5.3); the number and file type are for screen readers. */}
        {order.invoice_number && (
          <a href={`/orders/invoice.pdf?id=${order.id}`} target="_blank" rel="noopener" className={pdfLinkClass}>
            <FileTextIcon aria-hidden="true" className="size-3.5" />
            Factuur<span className="sr-only"> {order.invoice_number} (PDF)</span>
          </a>
        )}
        {/* The same invoice for an accounting package (docs/decisions/077). */}
        {order.invoice_number && (
          <a href={`/orders/invoice.xml?id=${order.id}`} download className={pdfLinkClass}>
            UBL<span className="sr-only"> van factuur {order.invoice_number} (XML)</span>
          </a>
        )}
        {credited && (
          <a href={`/orders/credit-note.pdf?id=${order.id}`} target="_blank" rel="noopener" className={pdfLinkClass}>
            <FileMinusIcon aria-hidden="true" className="size-3.5" />
            Creditnota<span className="sr-only"> {order.credit_note_number} (PDF)</span>
          </a>
        )}
        {credited && (
          <a href={`/orders/credit-note.xml?id=${order.id}`} download className={pdfLinkClass}>
            UBL<span className="sr-only"> van creditnota {order.credit_note_number} (XML)</span>
          </a>
        )}
      </span>
    </div>
  );
  const actions = (
    <>
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        aria-label={`Bestelling ${order.reference} bewerken`}
        onClick={() => onEdit(order)}
      >
        <PencilIcon aria-hidden="true" />
      </Button>
      {canCredit(order) && (
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={`Creditnota maken voor ${order.reference}`}
          title="Creditnota maken"
          onClick={() => setConfirming("credit")}
        >
          <FileMinusIcon aria-hidden="true" />
        </Button>
      )}
      <Button
        variant="ghost"
        size="icon"
        className="size-8 text-destructive hover:bg-destructive/10 hover:text-destructive"
        aria-label={`Bestelling ${order.reference} verwijderen`}
        onClick={() => setConfirming("delete")}
      >
        <Trash2Icon aria-hidden="true" />
      </Button>
      <ConfirmDialog
        busyLabel="Bezig"
        open={confirming === "delete"}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Bestelling verwijderen?"
        message={`Weet je zeker dat je bestelling ${order.reference} van ${order.name} wilt verwijderen? Dit kan niet ongedaan worden gemaakt.`}
        confirmText="Verwijderen"
        cancelText="Annuleren"
        destructive
        onConfirm={handleDelete}
      />
      <ConfirmDialog
        busyLabel="Bezig"
        open={confirming === "invoice"}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={resend ? "Factuur opnieuw versturen?" : "Factuur versturen?"}
        message={
          resend
            ? `Weet je zeker dat je factuur ${order.invoice_number} opnieuw wilt versturen naar ${order.email}?`
            : `Weet je zeker dat je de factuur voor bestelling ${order.reference} wilt versturen naar ${order.email}?`
        }
        confirmText={resend ? "Opnieuw versturen" : "Versturen"}
        cancelText="Annuleren"
        onConfirm={handleSendInvoice}
      />
      <ConfirmDialog
        busyLabel="Bezig"
        open={confirming === "credit"}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Creditnota maken?"
        message={`Weet je zeker dat je een creditnota wilt maken voor factuur ${order.invoice_number} (bestelling ${order.reference} van ${order.name})? De bestelling wordt daarmee geannuleerd en telt niet meer mee in de totalen. De creditnota wordt naar ${order.email} gestuurd. Dit kan niet ongedaan worden gemaakt.`}
        confirmText="Creditnota maken"
        cancelText="Annuleren"
        destructive
        onConfirm={handleCredit}
      />
      <ReminderConfirmDialog
        order={order}
        reminders={reminders}
        open={confirming === "reminder"}
        onOpenChange={(open) => !open && setConfirming(null)}
        onConfirm={handleRemind}
      />
    </>
  );
  const tablerName = order.tabler_name ?? UNKNOWN_TABLER;

  if (variant === "card") {
    return (
      <article
        data-order-card={order.reference}
        data-credited={credited || undefined}
        className={cn("grid gap-2 rounded-xl border bg-card p-4 text-sm", credited && "bg-muted/60 text-muted-foreground")}
      >
        <div className="flex items-start justify-between gap-2">
          <div className="flex min-w-0 items-start gap-3">
            <span className="pt-1">{select}</span>
            <div className="min-w-0">
              <div className={cn("font-medium wrap-anywhere", credited && "line-through")}>{order.name}</div>
              <div className="font-mono text-xs text-muted-foreground">{order.reference}</div>
            </div>
          </div>
          <div className="flex shrink-0">{actions}</div>
        </div>
        <div className="grid gap-0.5 text-muted-foreground">
          <EmailText address={order.email} />
          <span className="wrap-anywhere">{order.phone}</span>
          <span className="wrap-anywhere">
            {order.address}, {order.postal_code} {order.city}
          </span>
          {order.notes && <OrderNotes notes={order.notes} />}
        </div>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <span>
            Tabler: <span className={order.tabler_name ? "font-medium" : "italic"}>{tablerName}</span>
          </span>
          <span>
            Aantal: <span className="font-medium tabular-nums">{order.amount}</span>
          </span>
          <span className="flex items-start gap-2">Betaald {paid}</span>
          {delivered}
        </div>
        <div className="flex flex-wrap items-end justify-between gap-2">
          {invoice}
          <span className="text-xs text-muted-foreground">Besteld op {formatNlDate(order.created_at)}</span>
        </div>
      </article>
    );
  }

  return (
    <TableRow
      data-order={order.reference}
      data-credited={credited || undefined}
      data-state={selected ? "selected" : undefined}
      // Selected rows get a bar at the left instead of the table's bg-muted: muted text on any tint drops
      // below 4.5:1 (WCAG 1.4.3), and the ticked checkbox already says it.
      className={cn(
        "align-top data-[state=selected]:bg-transparent data-[state=selected]:shadow-[inset_3px_0_0_var(--color-primary)]",
        credited && "bg-muted/60 text-muted-foreground data-[state=selected]:bg-muted/60",
      )}
    >
      <TableCell className="w-8 align-top">{select}</TableCell>
      <TableCell className="align-top whitespace-nowrap">
        <div className="font-mono text-xs">{order.reference}</div>
        <div className="text-xs text-muted-foreground" title={formatNlDate(order.created_at)}>
          {formatNlDay(order.created_at)}
        </div>
      </TableCell>
      <TableCell className={cn("min-w-20 align-top whitespace-normal wrap-anywhere", !order.tabler_name && "text-muted-foreground italic")}>
        {tablerName}
      </TableCell>
      {/* Free text wraps anywhere (docs/decisions/056): one unbroken 2,000-character note or name must not
          widen the table, let alone the page. */}
      <TableCell className="max-w-52 min-w-40 align-top whitespace-normal wrap-anywhere">
        <div className={cn("font-medium", credited && "line-through")}>{order.name}</div>
        <div className="text-xs">
          <EmailText address={order.email} />
        </div>
        <div className="text-xs">{order.phone}</div>
      </TableCell>
      <TableCell className="max-w-60 min-w-28 align-top whitespace-normal wrap-anywhere">
        <div>{order.address}</div>
        <div>
          <span className="whitespace-nowrap">{order.postal_code}</span> {order.city}
        </div>
        {order.notes && <OrderNotes notes={order.notes} className="text-muted-foreground" />}
      </TableCell>
      <TableCell data-slot="amount" className="text-right align-top tabular-nums">
        {order.amount}
      </TableCell>
      <TableCell className="align-top">{paid}</TableCell>
      <TableCell className="align-top">{delivered}</TableCell>
      <TableCell className="min-w-44 align-top whitespace-normal">{invoice}</TableCell>
      {/* Stacked, so every column fits the page column at 1280 px instead of the last one
          sliding out of sight. */}
      <TableCell className="align-top">
        <div className="flex flex-col items-end gap-1">{actions}</div>
      </TableCell>
    </TableRow>
  );
});

/**
 * The invoice state as the totals count it (docs/decisions/056): `invoice_sent` decides "sent", also when it
 * was ticked by hand for an invoice made outside this system, which has no number here.
 */
function InvoiceStatus({ order, credited }: { order: Order; credited: boolean }) {
  if (order.invoice_number) {
    return (
      <span data-slot="invoice-status" className="font-mono text-xs">
        {order.invoice_number}
        {!order.invoice_sent && !credited && <span className="ml-1 font-sans text-muted-foreground">(in wachtrij)</span>}
      </span>
    );
  }
  if (order.invoice_sent) {
    return (
      <span data-slot="invoice-status" title="Als verstuurd aangevinkt; er is geen factuur uit dit systeem">
        Verstuurd (handmatig)
      </span>
    );
  }
  return (
    <span data-slot="invoice-status" className="text-muted-foreground">
      Niet verstuurd
    </span>
  );
}

/** Notes longer than three lines fold, with a button to read them whole. */
const FOLDED_NOTE_LENGTH = 140;

function OrderNotes({ notes, className }: { notes: string; className?: string }) {
  const [open, setOpen] = React.useState(false);
  const long = notes.length > FOLDED_NOTE_LENGTH || notes.split("\n").length > 3;
  return (
    <div data-slot="order-notes" className={cn("text-xs wrap-anywhere whitespace-pre-line", className)}>
      <span className={cn(long && !open && "line-clamp-3")}>{notes}</span>
      {long && (
        <button
          type="button"
          className="block text-left text-primary underline-offset-4 hover:underline"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {open ? "Minder tonen" : "Hele opmerking tonen"}
        </button>
      )}
    </div>
  );
}
