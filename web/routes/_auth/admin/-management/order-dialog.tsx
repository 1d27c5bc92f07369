import { useMutation } from "@tanstack/react-query";
import * as React from "react";

import { FormActions } from "@/components/form-actions";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { Textarea } from "@/components/ui/textarea";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { type Order, type Tabler, useOrdersCache } from "./shared";

// docs/product.md §5 Order (back-office): tabler, name and email are required to submit; the other fields are
// marked required in labels only. Amount is a number from 1 to 10 and falls back to 1 when invalid.
// issue 13: "invalid" is read as unparseable (an empty or non-numeric field becomes 1); a number outside
// 1–10 is refused with the server's own text instead of being stored as 1 without a word.

export const MIN_AMOUNT = 1;
export const MAX_AMOUNT = 10;
/** The text of BACK_OFFICE_AMOUNT_MESSAGE in src/features/orders/orders.service.ts (the server's refusal). */
export const AMOUNT_RANGE_MESSAGE = `Het aantal is ${MIN_AMOUNT} tot en met ${MAX_AMOUNT}.`;

/** The amount to send, or an error text when the field holds a number outside 1–10 (or a fraction). */
export function parseAmount(value: string): { amount: number; error: null } | { amount: null; error: string } {
  const text = value.trim();
  const n = Number(text);
  if (text === "" || Number.isNaN(n)) return { amount: MIN_AMOUNT, error: null };
  if (!Number.isInteger(n) || n < MIN_AMOUNT || n > MAX_AMOUNT) return { amount: null, error: AMOUNT_RANGE_MESSAGE };
  return { amount: n, error: null };
}

/** What an issued invoice printed (server: INVOICED_FIELDS in orders.service.ts): fixed once invoiced. */
const INVOICE_FIXED = ["name", "email", "address", "postal_code", "city", "amount"] as const;

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

function OrderForm({ order, tablers, onDone }: { order: Order | null; tablers: readonly Tabler[]; onDone: () => void }) {
  const trpc = useTrpc();
  const ordersCache = useOrdersCache();
  const { showSnackbar } = useSnackbar();
  const [form, setForm] = React.useState({
    tabler_id: order?.tabler_id ? String(order.tabler_id) : "",
    name: order?.name ?? "",
    email: order?.email ?? "",
    phone: order?.phone ?? "",
    address: order?.address ?? "",
    postal_code: order?.postal_code ?? "",
    city: order?.city ?? "",
    amount: String(order?.amount ?? 1),
    notes: order?.notes ?? "",
    paid: order?.paid ?? false,
    invoice_sent: order?.invoice_sent ?? false,
  });
  const [formError, setFormError] = React.useState<string | null>(null);
  const create = useMutation(trpc.orders.create.mutationOptions());
  const update = useMutation(trpc.orders.update.mutationOptions());
  const busy = create.isPending || update.isPending;
  const parsedAmount = parseAmount(form.amount);
  const canSubmit = form.tabler_id !== "" && form.name.trim() !== "" && form.email.trim() !== "" && parsedAmount.error === null;
  // The fields the invoice printed stay as they are; the server refuses a change to them anyway (409).
  const invoiceNumber = order?.invoice_number ?? null;
  const locked = (key: string) => invoiceNumber !== null && (INVOICE_FIXED as readonly string[]).includes(key);

  function set<K extends keyof typeof form>(key: K, value: (typeof form)[K]) {
    setForm((old) => ({ ...old, [key]: value }));
  }

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    setFormError(null);
    const amount = parsedAmount.amount;
    if (amount === null) {
      document.getElementById("order-amount")?.focus();
      return;
    }
    const body = {
      tabler_id: Number(form.tabler_id),
      name: form.name.trim(),
      email: form.email.trim(),
      phone: form.phone.trim(),
      address: form.address.trim(),
      postal_code: form.postal_code.trim(),
      city: form.city.trim(),
      amount,
      notes: form.notes.trim() || null,
      paid: form.paid,
      invoice_sent: form.invoice_sent,
    };
    try {
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
    } catch (error) {
      // Shown in the dialog, beside the form it is about; the page's banner is hidden behind the dialog.
      setFormError(errorText(error, order ? "Failed to update order" : "Failed to create order"));
      // A refusal may come from a change made elsewhere in the meantime (an invoice sent): show it in the list.
      void ordersCache.invalidate();
    }
  }

  const field = (key: "name" | "email" | "phone" | "address" | "postal_code" | "city", label: string, type = "text") => (
    <div className="grid gap-1.5">
      <Label htmlFor={`order-${key}`}>{label} *</Label>
      <Input
        id={`order-${key}`}
        type={type}
        value={form[key]}
        onChange={(e) => set(key, e.target.value)}
        required
        disabled={locked(key)}
        aria-describedby={locked(key) ? "order-invoice-note" : undefined}
      />
    </div>
  );

  return (
    <form onSubmit={handleSubmit} className="grid gap-3" noValidate>
      {invoiceNumber && (
        <p id="order-invoice-note" data-slot="invoice-note" className="rounded-md border bg-muted/50 p-3 text-sm text-muted-foreground">
          {order?.credit_note_number
            ? `Gecrediteerd met creditnota ${order.credit_note_number}. Naam, e-mail, adres, postcode, plaats en aantal staan op factuur ${invoiceNumber} en blijven zoals ze zijn.`
            : `Gefactureerd (${invoiceNumber}): naam, e-mail, adres, postcode, plaats en aantal staan op de factuur en zijn niet meer te wijzigen. Klopt er iets niet? Maak een creditnota en voer de bestelling opnieuw in.`}
        </p>
      )}
      <div className="grid gap-1.5">
        <Label htmlFor="order-tabler">Tabler *</Label>
        <select
          id="order-tabler"
          value={form.tabler_id}
          onChange={(e) => set("tabler_id", e.target.value)}
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
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {field("name", "Naam")}
        {field("email", "Email", "email")}
        {field("phone", "Telefoon", "tel")}
        {field("address", "Adres")}
        {field("postal_code", "Postcode")}
        {field("city", "Plaats")}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="order-amount">Aantal kerstpakketten *</Label>
        <Input
          id="order-amount"
          type="number"
          inputMode="numeric"
          min={MIN_AMOUNT}
          max={MAX_AMOUNT}
          step={1}
          value={form.amount}
          onChange={(e) => set("amount", e.target.value)}
          // Only an unparseable field falls back to 1; a number outside 1–10 stays, with its error.
          onBlur={() => parsedAmount.error === null && set("amount", String(parsedAmount.amount))}
          disabled={locked("amount")}
          aria-invalid={parsedAmount.error !== null || undefined}
          aria-describedby={
            [parsedAmount.error ? "order-amount-error" : null, locked("amount") ? "order-invoice-note" : null].filter(Boolean).join(" ") ||
            undefined
          }
        />
        {parsedAmount.error && (
          <p id="order-amount-error" data-slot="amount-error" aria-live="polite" className="text-sm text-destructive">
            {parsedAmount.error}
          </p>
        )}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="order-notes">Opmerkingen</Label>
        <Textarea id="order-notes" value={form.notes} onChange={(e) => set("notes", e.target.value)} rows={2} />
      </div>
      <div className="flex flex-wrap gap-6">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="size-4 accent-primary" checked={form.paid} onChange={(e) => set("paid", e.target.checked)} />
          Betaald
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={form.invoice_sent}
            onChange={(e) => set("invoice_sent", e.target.checked)}
          />
          Factuur verstuurd
        </label>
      </div>
      {formError && (
        <p role="alert" className="text-sm text-destructive">
          {formError}
        </p>
      )}
      <FormActions onCancel={onDone} busy={busy} canSubmit={canSubmit} submitLabel="Opslaan" busyLabel="Opslaan" cancelLabel="Annuleren" />
    </form>
  );
}
