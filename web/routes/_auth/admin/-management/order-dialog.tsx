import { useStore } from "@tanstack/react-form";
import { useMutation, useQuery } from "@tanstack/react-query";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { useTrpc } from "@/lib/auth";
import { useAppForm, useFormFeedback } from "@/lib/form";
import { liveCheck, schemaProblem } from "@/lib/form-errors";
import { dutchPostcode, ORDER_LABELS, parseQuantity, QUANTITY_WHOLE_MESSAGE, requiredMessage } from "#src/core/public-form-rules";
import { KVK_NUMBER_LABEL, VAT_ID_LABEL } from "#src/core/business-ids";
import { INVOICED_FIELDS, orderInputSchema } from "#src/features/orders/orders.schemas";
import type { OrderBooking } from "#src/features/payments/order-balance";
import { formatBookingDate, formatEuroNl } from "./charts-format";
import { mayOfferRefund, paymentMethodText } from "./online-payments-rules";
import { RefundDialog } from "./refund-dialog";
import { type Order, type Tabler, useOrdersCache } from "./shared";

// docs/product.md §5 Order (back-office): tabler, name and email are required to submit; the other fields are
// marked required in labels only. Amount is a number from 1 to 10 and falls back to 1 when invalid.
// docs/decisions/056: a number outside 1–10 is refused with the server's own text instead of being stored as 1
// without a word. docs/decisions/056: only an empty field falls back to 1 (shown as the field is left);
// whatever else is typed is refused, never read as another number ('2.5' is no 25, '-3' no 3), and the
// 1–10 applies to an amount the dialog changes: a 25-package order from the public form keeps its 25.

export const MIN_AMOUNT = 1;
export const MAX_AMOUNT = 10;
/** The text of BACK_OFFICE_AMOUNT_MESSAGE in src/features/orders/orders.service.ts (the server's refusal). */
export const AMOUNT_RANGE_MESSAGE = `Het aantal is ${MIN_AMOUNT} tot en met ${MAX_AMOUNT}.`;

/**
 * The amount to send, or an error text: for what is no whole number, and for a number outside 1–10 unless it
 * is the amount the order already has (`current`, null for a new order).
 */
export function parseAmount(
  value: string,
  current: number | null = null,
): { amount: number; error: null } | { amount: null; error: string } {
  if (value.trim() === "") return { amount: MIN_AMOUNT, error: null };
  const { quantity, error } = parseQuantity(value);
  if (quantity === null) return { amount: null, error: error === QUANTITY_WHOLE_MESSAGE ? error : AMOUNT_RANGE_MESSAGE };
  if (quantity !== current && quantity > MAX_AMOUNT) return { amount: null, error: AMOUNT_RANGE_MESSAGE };
  return { amount: quantity, error: null };
}

/** What the invoice printed, in the note of an invoiced order (INVOICED_FIELDS, which the server refuses to change). */
const PRINTED_FIELDS = "naam, e-mail, adres, postcode, plaats, aantal, KvK-nummer en btw-id";

export function OrderDialog({ order, tablers, onClose }: { order: Order | "new" | null; tablers: readonly Tabler[]; onClose: () => void }) {
  const isNew = order === "new";
  return (
    <Modal
      closeLabel="Sluiten"
      open={order !== null}
      onOpenChange={(open) => !open && onClose()}
      title={isNew ? "Nieuwe Bestelling" : "Bestelling Bewerken"}
      className="sm:max-w-lg"
    >
      {order !== null && <OrderForm key={isNew ? "new" : order.id} order={isNew ? null : order} tablers={tablers} onDone={onClose} />}
    </Modal>
  );
}

type OrderValues = {
  tabler_id: string;
  name: string;
  email: string;
  phone: string;
  address: string;
  postal_code: string;
  city: string;
  amount: string;
  notes: string;
  customer_kvk_number: string;
  customer_vat_id: string;
  paid: boolean;
  invoice_sent: boolean;
};

function orderValues(order: Order | null): OrderValues {
  return {
    tabler_id: order?.tabler_id ? String(order.tabler_id) : "",
    name: order?.name ?? "",
    email: order?.email ?? "",
    phone: order?.phone ?? "",
    address: order?.address ?? "",
    postal_code: order?.postal_code ?? "",
    city: order?.city ?? "",
    amount: String(order?.amount ?? 1),
    notes: order?.notes ?? "",
    customer_kvk_number: order?.customer_kvk_number ?? "",
    customer_vat_id: order?.customer_vat_id ?? "",
    paid: order?.paid ?? false,
    invoice_sent: order?.invoice_sent ?? false,
  };
}

/** What is sent for the form's values, or null while the amount is refused. */
function orderBody(values: OrderValues, current: number | null) {
  const { amount } = parseAmount(values.amount, current);
  if (amount === null) return null;
  return {
    tabler_id: Number(values.tabler_id),
    name: values.name.trim(),
    email: values.email.trim(),
    phone: values.phone.trim(),
    address: values.address.trim(),
    // Stored as 1234 AB when it is a Dutch postcode (the server does the same); a foreign one as typed.
    postal_code: dutchPostcode(values.postal_code) ?? values.postal_code.trim(),
    city: values.city.trim(),
    amount,
    notes: values.notes.trim() || null,
    // Empty: a private customer (docs/decisions/078); the server stores a number compacted, as it does here.
    customer_kvk_number: values.customer_kvk_number.trim() || null,
    customer_vat_id: values.customer_vat_id.trim() || null,
    paid: values.paid,
    invoice_sent: values.invoice_sent,
  };
}

/** Opslaan stays disabled without a tabler, a name and an e-mail address, and while the amount is refused. */
function missingForSave(values: OrderValues, current: number | null): string | undefined {
  if (values.tabler_id === "") return requiredMessage("Tabler");
  if (values.name.trim() === "") return requiredMessage(ORDER_LABELS.name);
  if (values.email.trim() === "") return requiredMessage(ORDER_LABELS.email);
  return parseAmount(values.amount, current).error ?? undefined;
}

const TEXT_FIELDS = [
  ["name", "Naam", "text"],
  ["email", "Email", "email"],
  ["phone", "Telefoon", "tel"],
  ["address", "Adres", "text"],
  ["postal_code", "Postcode", "text"],
  ["city", "Plaats", "text"],
] as const;

function OrderForm({ order, tablers, onDone }: { order: Order | null; tablers: readonly Tabler[]; onDone: () => void }) {
  const trpc = useTrpc();
  const ordersCache = useOrdersCache();
  const { showSnackbar } = useSnackbar();
  const create = useMutation(trpc.orders.create.mutationOptions());
  const update = useMutation(trpc.orders.update.mutationOptions());
  // Shown in the dialog, beside the form it is about; the page's banner is hidden behind the dialog.
  const { feedback, onSubmitInvalid, attempt } = useFormFeedback({ asSent: true });
  // The order as the dialog opened on it; a refreshed list does not overwrite what is typed.
  const [defaultValues] = React.useState(() => orderValues(order));
  // The amount the order has, which may stay whatever it is (above 10 from the public form).
  const currentAmount = order?.amount ?? null;
  const form = useAppForm({
    defaultValues,
    validators: {
      ...liveCheck(({ value }: { value: OrderValues }) => missingForSave(value, currentAmount)),
      // The rest of the server's rules for an order, with its texts.
      onSubmit: ({ value }) => {
        const body = orderBody(value, currentAmount);
        return body ? schemaProblem(orderInputSchema, body) : undefined;
      },
    },
    onSubmitInvalid,
    onSubmit: async ({ value }) => {
      const body = orderBody(value, currentAmount);
      if (!body) return;
      const saved = await attempt(
        async () => {
          if (order) {
            await update.mutateAsync({ id: order.id, order: body });
            const tabler = tablers.find((t) => t.id === body.tabler_id);
            ordersCache.update((orders) =>
              orders.map((o) => (o.id === order.id ? { ...o, ...body, tabler_id: body.tabler_id, tabler_name: tabler?.name ?? null } : o)),
            );
            showSnackbar("Bestelling bijgewerkt", "success");
            // Filters may no longer match: refresh the lists on screen in the background.
            void ordersCache.invalidate();
          } else {
            const result = await create.mutateAsync(body);
            showSnackbar(`Bestelling ${result.order_reference} toegevoegd`, "success");
            await ordersCache.invalidate();
          }
          onDone();
          return null;
        },
        order ? "Failed to update order" : "Failed to create order",
      );
      // A refusal may come from a change made elsewhere in the meantime (an invoice sent): show it in the list.
      if (!saved) void ordersCache.invalidate();
    },
  });
  const amountError = useStore(form.store, (state) => parseAmount(state.values.amount, currentAmount).error);
  // The fields the invoice printed stay as they are; the server refuses a change to them anyway (409).
  const invoiceNumber = order?.invoice_number ?? null;
  const locked = (key: string) => invoiceNumber !== null && (INVOICED_FIELDS as readonly string[]).includes(key);
  // What was refunded through Mollie: the row's, then what a refund made here answered (the row is a snapshot).
  const [refunded, setRefunded] = React.useState(order?.refunded_amount ?? 0);
  const [refunding, setRefunding] = React.useState(false);

  return (
    <form.AppForm>
      <form.Form className="grid gap-3" noValidate>
        {invoiceNumber && (
          <p id="order-invoice-note" data-slot="invoice-note" className="rounded-md border bg-muted/50 p-3 text-sm text-muted-foreground">
            {order?.credit_note_number
              ? `Gecrediteerd met creditnota ${order.credit_note_number}. Wat op factuur ${invoiceNumber} staat (${PRINTED_FIELDS}) blijft zoals het is.`
              : `Gefactureerd (${invoiceNumber}): ${PRINTED_FIELDS} staan op de factuur en zijn niet meer te wijzigen. Klopt er iets niet? Maak een creditnota en voer de bestelling opnieuw in.`}
          </p>
        )}
        <div className="grid gap-1.5">
          <Label htmlFor="order-tabler">Tabler *</Label>
          <form.AppField name="tabler_id">
            {(field) => (
              <select
                id="order-tabler"
                value={field.state.value}
                onChange={(e) => field.handleChange(e.target.value)}
                required
                className="h-9 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50"
              >
                <option value="">Kies een tabler</option>
                {tablers.map((t) => (
                  <option key={t.id} value={String(t.id)}>
                    {t.name}
                  </option>
                ))}
              </select>
            )}
          </form.AppField>
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          {TEXT_FIELDS.map(([key, label, type]) => (
            <div key={key} className="grid gap-1.5">
              <Label htmlFor={`order-${key}`}>{label} *</Label>
              <form.AppField name={key}>
                {(field) => (
                  <field.Input
                    id={`order-${key}`}
                    type={type}
                    required
                    disabled={locked(key)}
                    aria-describedby={locked(key) ? "order-invoice-note" : undefined}
                  />
                )}
              </form.AppField>
            </div>
          ))}
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="order-amount">Aantal kerstpakketten *</Label>
          <form.AppField
            name="amount"
            // Only an empty field falls back to 1; anything else typed stays as it is, with its error.
            listeners={{
              onBlur: ({ value }) => {
                if (value.trim() === "") form.setFieldValue("amount", String(MIN_AMOUNT));
              },
            }}
          >
            {(field) => (
              // Text with the digit keyboard: a number input drops a '.' or ',' it cannot read, and an
              // unreadable field would then fall back to 1 (docs/decisions/056).
              <field.Input
                id="order-amount"
                type="text"
                inputMode="numeric"
                pattern="[0-9]*"
                disabled={locked("amount")}
                aria-invalid={amountError !== null || undefined}
                aria-describedby={
                  [amountError ? "order-amount-error" : null, locked("amount") ? "order-invoice-note" : null].filter(Boolean).join(" ") ||
                  undefined
                }
              />
            )}
          </form.AppField>
          {amountError && (
            <p id="order-amount-error" data-slot="amount-error" aria-live="polite" className="text-sm text-destructive">
              {amountError}
            </p>
          )}
        </div>
        <fieldset className="grid gap-3 sm:grid-cols-2" aria-describedby="order-business-note">
          <legend className="mb-1 text-sm font-medium">Zakelijke klant</legend>
          {(
            [
              ["customer_kvk_number", KVK_NUMBER_LABEL, "12345678"],
              ["customer_vat_id", VAT_ID_LABEL, "NL123456789B01"],
            ] as const
          ).map(([key, label, example]) => (
            <div key={key} className="grid gap-1.5">
              <Label htmlFor={`order-${key}`}>{label}</Label>
              <form.AppField name={key}>
                {(field) => (
                  <field.Input
                    id={`order-${key}`}
                    type="text"
                    autoComplete="off"
                    placeholder={example}
                    disabled={locked(key)}
                    aria-describedby={locked(key) ? "order-invoice-note" : undefined}
                  />
                )}
              </form.AppField>
            </div>
          ))}
          <p id="order-business-note" className="-mt-1 text-xs text-muted-foreground sm:col-span-2">
            Met een KvK-nummer of btw-id staan die op de factuur, en krijgt de klant de factuur ook als UBL-bestand voor de boekhouding.
          </p>
        </fieldset>
        <div className="grid gap-1.5">
          <Label htmlFor="order-notes">Opmerkingen</Label>
          <form.AppField name="notes">
            {(field) => <field.Textarea id="order-notes" rows={2} className="max-h-48 wrap-anywhere" />}
          </form.AppField>
        </div>
        {order && <OrderPayments order={order} refunded={refunded} onRefund={() => setRefunding(true)} />}
        <div className="flex flex-wrap gap-6">
          {(
            [
              ["paid", "Betaald"],
              ["invoice_sent", "Factuur verstuurd"],
            ] as const
          ).map(([key, label]) => (
            <form.AppField key={key} name={key}>
              {(field) => (
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-primary"
                    checked={field.state.value}
                    // docs/decisions/056: once there is an invoice, its mail's delivery says whether it was sent.
                    disabled={key === "invoice_sent" && invoiceNumber !== null}
                    aria-describedby={key === "invoice_sent" ? "order-invoice-sent-note" : undefined}
                    onChange={(e) => field.handleChange(e.target.checked)}
                  />
                  {label}
                </label>
              )}
            </form.AppField>
          ))}
        </div>
        <p id="order-invoice-sent-note" className="-mt-1 text-xs text-muted-foreground">
          {invoiceNumber
            ? `Of factuur ${invoiceNumber} verstuurd is, volgt uit de e-mail: dat vink je niet zelf aan.`
            : "Aanvinken als de factuur buiten dit systeem is verstuurd; de bestelling telt dan mee als verstuurd."}
        </p>
        {feedback && (
          <p role="alert" className="text-sm text-destructive">
            {feedback.text}
          </p>
        )}
        <form.Actions onCancel={onDone} submitLabel="Opslaan" busyLabel="Opslaan" cancelLabel="Annuleren" />
      </form.Form>
      {/* Outside the order's <form>: React passes a submit up through the portal, and it must not save the order. */}
      {order && (
        <RefundDialog
          order={order}
          refundedBefore={refunded}
          open={refunding}
          onClose={() => setRefunding(false)}
          onRefunded={setRefunded}
        />
      )}
    </form.AppForm>
  );
}

const BOOKING_KINDS: Record<OrderBooking["kind"], string> = {
  payment: "Betaling",
  part_payment: "Deelbetaling",
  full_payment: "Als volledige betaling geboekt",
};

/**
 * docs/decisions/057: what the order has been paid so far and what is still open, with the bank bookings that
 * brought it in; only once something was paid or booked. Read from payments.order, which prices the order as
 * its invoice does (the row has no total incl. VAT). docs/decisions/066: how it was paid, what went back
 * through Mollie, and a refund while there is an online payment to refund from.
 */
function OrderPayments({ order, refunded, onRefund }: { order: Order; refunded: number; onRefund: () => void }) {
  const trpc = useTrpc();
  // Read fresh each time the dialog opens: the Betaald switch or a booking may have changed it since.
  const { data } = useQuery({ ...trpc.payments.order.queryOptions({ order_id: order.id }), retry: false, staleTime: 0, gcTime: 0 });
  const balance = data && (data.order.paid_amount > 0 || data.bookings.length > 0) ? data.order : null;
  const bookings = data?.bookings ?? [];
  const method = paymentMethodText(order);
  const offerRefund = mayOfferRefund(order, refunded, data?.order.amount_incl ?? null);
  if (!balance && !method && refunded <= 0 && !offerRefund) return null;
  return (
    <section aria-label="Betalingen" data-slot="order-payments" className="grid gap-1 rounded-md border bg-muted/50 p-3 text-sm">
      {balance && (
        <p data-slot="order-balance" className="font-medium tabular-nums">
          Betaald tot nu: {formatEuroNl(balance.paid_amount)} · Nog open: {formatEuroNl(balance.open_amount)}
        </p>
      )}
      {method && <p data-slot="payment-method">{method}</p>}
      {refunded > 0 && (
        <p data-slot="order-refunded" className="tabular-nums">
          Terugbetaald: {formatEuroNl(refunded)}
        </p>
      )}
      {bookings.length > 0 && (
        <ul className="grid gap-0.5 text-xs text-muted-foreground">
          {bookings.map((booking) => (
            <li key={booking.entry_id} data-slot="order-booking" className="wrap-anywhere">
              <span className="tabular-nums">
                {formatBookingDate(booking.booked_at)} · {formatEuroNl(booking.amount)}
              </span>{" "}
              · {BOOKING_KINDS[booking.kind]}
              {booking.counterparty && ` · ${booking.counterparty}`}
            </li>
          ))}
        </ul>
      )}
      {offerRefund && (
        <div>
          <Button type="button" variant="outline" size="sm" className="mt-1" onClick={onRefund}>
            Terugbetalen…
          </Button>
        </div>
      )}
    </section>
  );
}
