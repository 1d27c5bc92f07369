import { useQuery } from "@tanstack/react-query";

import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useTrpc } from "@/lib/auth";
import { formatDateLong } from "#src/core/nl-format";
import { isPastDue, paymentDueDate } from "#src/features/invoices/payment-term";
import type { Order } from "./shared";

// docs/decisions/059: a reminder before the invoice's payment term has run out is refused by the server
// unless confirmed. The confirmation of a single reminder says so beforehand, with the due date, by the
// same rule the server applies (the 'Achterstallig' filter's), so the confirmed send goes with `force`.

type ReminderOrder = Pick<Order, "invoice_number" | "invoice_date" | "email">;

/**
 * The warning for a reminder before the due date, or null when the term has run out (or the order or
 * term is not known: the server then decides, and its refusal names the date).
 */
export function reminderDueWarning(order: ReminderOrder, paymentTermDays: number | undefined, now: Date): string | null {
  if (!order.invoice_number || !order.invoice_date || paymentTermDays === undefined) return null;
  if (isPastDue(order.invoice_date, paymentTermDays, now)) return null;
  const due = formatDateLong(paymentDueDate(new Date(order.invoice_date), paymentTermDays));
  return `De betaaltermijn van factuur ${order.invoice_number} loopt nog tot ${due}.`;
}

/** The question before one order's reminder; `onConfirm(force)` sends it, forced when the warning was shown. */
export function ReminderConfirmDialog({
  order,
  reminders,
  open,
  onOpenChange,
  onConfirm,
}: {
  order: ReminderOrder;
  /** remindersText(order): the reminders sent before, if any. */
  reminders: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: (force: boolean) => unknown;
}) {
  const trpc = useTrpc();
  const readiness = useQuery({ ...trpc.invoices.readiness.queryOptions(), enabled: open });
  const warning = open ? reminderDueWarning(order, readiness.data?.payment_term_days, new Date()) : null;
  const earlier = reminders ? ` Eerder verstuurd: ${reminders}.` : "";
  return (
    <ConfirmDialog
      busyLabel="Bezig"
      open={open}
      onOpenChange={onOpenChange}
      title={warning ? "Herinnering nu al versturen?" : "Herinnering versturen?"}
      message={
        warning
          ? `${warning} Weet je zeker dat je nu al een herinnering wilt versturen naar ${order.email}?${earlier}`
          : `Weet je zeker dat je een herinnering voor factuur ${order.invoice_number} wilt versturen naar ${order.email}?${earlier}`
      }
      confirmText={warning ? "Toch versturen" : "Versturen"}
      cancelText="Annuleren"
      onConfirm={() => onConfirm(warning !== null)}
    />
  );
}
