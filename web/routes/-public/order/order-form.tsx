import ArrowLeftIcon from "lucide-react/icons/arrow-left";
import LoaderCircleIcon from "lucide-react/icons/loader-circle";
import UserRoundIcon from "lucide-react/icons/user-round";
import * as React from "react";

import { AddressSearch } from "@/components/address-search";
import { errorFeedback, type Feedback, FormFeedback } from "@/components/form-feedback";
import { FormField } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { type FieldErrors, firstErrorField, type OrderField, type OrderFormValues, validateOrder } from "@/lib/public-forms";
import type { OrderFields, OrderRequest, SendOutcome } from "@/lib/outbox";
import { formatEuro } from "@/lib/site";
import { dutchPostcode, ORDER_LABELS, ORDER_MAX_LENGTHS, parseQuantity } from "#src/core/public-form-rules";
import type { SelectedTabler } from "./order-storage";

// docs/product.md §2 "Order screen" step 2, §4 "Order flow", §5 "Order form", §8 order messages. The order goes out
// through the outbox (web/lib/outbox.ts, docs/decisions/069); this text is for an outbox that cannot even store it.
const SUBMIT_FAILED = "Er is een fout opgetreden bij het versturen van de bestelling. Probeer opnieuw.";

export const EMPTY_ORDER: OrderFormValues = {
  name: "",
  email: "",
  phone: "",
  address: "",
  postalCode: "",
  city: "",
  quantity: "1",
  notes: "",
};

const FIELD_ORDER: readonly OrderField[] = ["name", "email", "phone", "address", "postalCode", "city", "quantity", "notes"];

export type PlacedOrder = OrderFields & {
  /** The server's order reference; null when the order waits in the outbox (taken without a connection). */
  reference: string | null;
  tabler: SelectedTabler;
};

// Asked before 'Terug' throws typed data away. Loaded on first use, so the order page's first
// load does not carry the dialog's code.
const ConfirmDialog = React.lazy(() => import("@/components/ui/confirm-dialog").then((module) => ({ default: module.ConfirmDialog })));

/** Whether anything was typed: 'Terug' then asks before it clears the form. */
const hasInput = (values: OrderFormValues) => FIELD_ORDER.some((field) => values[field].trim() !== EMPTY_ORDER[field]);

/**
 * The customer's fields carry the autocomplete token 'none' (docs/decisions/056): the member's phone must not
 * offer the member's own name, e-mail, phone or address for a customer. Chromium ignores 'off' for its
 * address Autofill and leaves a field alone whose token it does not recognise; 'none' is such a token that
 * axe also accepts (a made-up one fails its autocomplete-valid rule). The form's 'off' keeps the
 * typed-history suggestions (earlier customers) away. On a seller's own page the customer types their own
 * details, so there the browser may fill them in (docs/decisions/070).
 */
const CUSTOMER_FIELD = "none";

export function OrderForm({
  tabler,
  packagePrice,
  headingRef,
  customer,
  onBack,
  onSubmitOrder,
  onPlaced,
}: {
  tabler: SelectedTabler;
  packagePrice: number;
  headingRef: React.Ref<HTMLHeadingElement>;
  /** Puts the order in the outbox and sends it at once (use-outbox.ts). */
  onSubmitOrder: (request: OrderRequest) => Promise<SendOutcome>;
  onPlaced: (order: PlacedOrder) => void;
} & (
  | { customer?: false; onBack: () => void }
  // A seller's own page (docs/decisions/070): the customer types their own details, and there is no gate to go back to.
  | { customer: true; onBack?: undefined }
)) {
  const [isPending, setPending] = React.useState(false);
  const formId = React.useId();
  const formRef = React.useRef<HTMLFormElement>(null);
  const [values, setValues] = React.useState<OrderFormValues>(EMPTY_ORDER);
  const [errors, setErrors] = React.useState<FieldErrors<OrderField>>({});
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  const [confirmingBack, setConfirmingBack] = React.useState(false);

  const fieldId = (field: OrderField) => `${formId}-${field}`;

  function update(changes: Partial<OrderFormValues>) {
    setValues((current) => ({ ...current, ...changes }));
    const cleared = Object.keys(changes).filter((field) => errors[field as OrderField]);
    if (cleared.length > 0) {
      setErrors((current) => {
        const next = { ...current };
        for (const field of cleared) delete next[field as OrderField];
        return next;
      });
    }
  }

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    setFeedback(null);
    const found = validateOrder(values);
    setErrors(found);
    const first = firstErrorField(found, FIELD_ORDER);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(fieldId(first))}`)?.focus();
      return;
    }
    const quantity = parseQuantity(values.quantity).quantity;
    if (quantity === null) return;
    const order = {
      name: values.name.trim(),
      email: values.email.trim(),
      phone: values.phone.trim(),
      address: values.address.trim(),
      // As the server stores it (1234 AB), so the confirmation shows what was saved.
      postalCode: dutchPostcode(values.postalCode) ?? values.postalCode.trim(),
      city: values.city.trim(),
      quantity,
      notes: values.notes.trim(),
    };
    setPending(true);
    try {
      const outcome = await onSubmitOrder({
        tabler_id: tabler.id,
        ...order,
        ...(tabler.gateToken ? { gate_token: tabler.gateToken } : {}),
      });
      // A refusal (400: the server's own text) is shown on the form, as before the outbox; an order the server
      // could not be reached for waits in the outbox, and the member goes on as after a sent one.
      if (outcome.kind === "refused") setFeedback(errorFeedback(outcome.reason));
      else onPlaced({ reference: outcome.kind === "sent" ? outcome.reference : null, tabler, ...order });
    } catch (failure) {
      console.error("The order could not be stored or sent", failure);
      setFeedback(errorFeedback(SUBMIT_FAILED));
    } finally {
      setPending(false);
    }
  }

  const quantity = parseQuantity(values.quantity).quantity;

  return (
    <form ref={formRef} noValidate autoComplete={customer ? "on" : "off"} onSubmit={handleSubmit} className="flex flex-col gap-6">
      <div className="flex flex-col gap-3">
        <h2 ref={headingRef} tabIndex={-1} id={`${formId}-title`} className="text-xl font-bold tracking-tight outline-none">
          Bestelling
        </h2>
        {customer ? (
          <p className="leading-relaxed text-foreground/80">
            Vul je gegevens in. Je ontvangt een bevestiging per e-mail, de factuur volgt later.
          </p>
        ) : (
          <>
            <p
              data-slot="order-tabler"
              className="flex items-center gap-2 self-start rounded-full bg-accent px-3 py-1.5 text-sm text-accent-foreground"
            >
              <UserRoundIcon aria-hidden="true" className="size-4 shrink-0" />
              <span>
                Bestelling voor tabler <strong className="font-semibold">{tabler.name}</strong>
              </span>
            </p>
            <p className="leading-relaxed text-foreground/80">
              Vul de gegevens van de klant in. De klant ontvangt een bevestiging per e-mail, de factuur volgt later.
            </p>
          </>
        )}
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id={fieldId("name")} label={ORDER_LABELS.name} required error={errors.name} className="sm:col-span-2">
          {(control) => (
            <Input
              {...control}
              name="name"
              autoComplete={customer ? "name" : CUSTOMER_FIELD}
              value={values.name}
              onChange={(e) => update({ name: e.target.value })}
            />
          )}
        </FormField>
        <FormField id={fieldId("email")} label={ORDER_LABELS.email} required error={errors.email}>
          {(control) => (
            <Input
              {...control}
              name="email"
              type="email"
              inputMode="email"
              autoComplete={customer ? "email" : CUSTOMER_FIELD}
              value={values.email}
              onChange={(e) => update({ email: e.target.value })}
            />
          )}
        </FormField>
        <FormField id={fieldId("phone")} label={ORDER_LABELS.phone} required error={errors.phone}>
          {(control) => (
            <Input
              {...control}
              name="phone"
              type="tel"
              inputMode="tel"
              autoComplete={customer ? "tel" : CUSTOMER_FIELD}
              value={values.phone}
              onChange={(e) => update({ phone: e.target.value })}
            />
          )}
        </FormField>
        <FormField id={fieldId("address")} label={ORDER_LABELS.address} required error={errors.address} className="sm:col-span-2">
          {(control) => (
            <AddressSearch
              {...control}
              name="address"
              autoComplete={customer ? "address-line1" : CUSTOMER_FIELD}
              placeholder="Straat en huisnummer"
              value={values.address}
              onValueChange={(address) => update({ address })}
              onPick={(picked) => update({ address: picked.address, postalCode: picked.postalCode, city: picked.city })}
            />
          )}
        </FormField>
        <FormField id={fieldId("postalCode")} label={ORDER_LABELS.postalCode} required error={errors.postalCode}>
          {(control) => (
            <Input
              {...control}
              name="postalCode"
              autoComplete={customer ? "postal-code" : CUSTOMER_FIELD}
              autoCapitalize="characters"
              value={values.postalCode}
              onChange={(e) => update({ postalCode: e.target.value })}
            />
          )}
        </FormField>
        <FormField id={fieldId("city")} label={ORDER_LABELS.city} required error={errors.city}>
          {(control) => (
            <Input
              {...control}
              name="city"
              autoComplete={customer ? "address-level2" : CUSTOMER_FIELD}
              value={values.city}
              onChange={(e) => update({ city: e.target.value })}
            />
          )}
        </FormField>
        <FormField
          id={fieldId("quantity")}
          label={ORDER_LABELS.quantity}
          required
          error={errors.quantity}
          hint={
            quantity !== null
              ? `${quantity} × € ${formatEuro(packagePrice)} = € ${formatEuro(quantity * packagePrice)}, exclusief btw`
              : `€ ${formatEuro(packagePrice)} per pakket, exclusief btw`
          }
        >
          {(control) => (
            // Text with the digit keyboard, kept as typed: a number input drops or swallows a '.', ',' or '-'
            // and would send another number than the one on screen (docs/decisions/056).
            <Input
              {...control}
              name="quantity"
              type="text"
              inputMode="numeric"
              pattern="[0-9]*"
              className="max-w-32"
              value={values.quantity}
              onChange={(e) => update({ quantity: e.target.value })}
            />
          )}
        </FormField>
        <FormField id={fieldId("notes")} label={ORDER_LABELS.notes} optional className="sm:col-span-2">
          {(control) => (
            <Textarea
              {...control}
              name="notes"
              rows={3}
              maxLength={ORDER_MAX_LENGTHS.notes}
              placeholder="Bijvoorbeeld een gewenst bezorgmoment of een ander afleveradres"
              value={values.notes}
              onChange={(e) => update({ notes: e.target.value })}
            />
          )}
        </FormField>
      </div>

      <FormFeedback feedback={feedback} focusOnShow />

      <div className={`flex flex-col-reverse gap-3 border-t pt-5 sm:flex-row ${onBack ? "sm:justify-between" : "sm:justify-end"}`}>
        {onBack && (
          <Button
            type="button"
            variant="outline"
            size="lg"
            onClick={() => (hasInput(values) ? setConfirmingBack(true) : onBack())}
            disabled={isPending}
          >
            <ArrowLeftIcon aria-hidden="true" />
            Terug
          </Button>
        )}
        <Button type="submit" size="lg" disabled={isPending} aria-busy={isPending || undefined}>
          {isPending && <LoaderCircleIcon aria-hidden="true" className="animate-spin" />}
          {isPending ? "Bestelling wordt verzonden..." : "Bestelling Plaatsen"}
        </Button>
      </div>
      {confirmingBack && onBack && (
        <React.Suspense fallback={null}>
          <ConfirmDialog
            open
            onOpenChange={setConfirmingBack}
            title="Terug naar het wachtwoord?"
            message="De gegevens die je hebt ingevuld worden gewist."
            confirmText="Gegevens wissen"
            cancelText="Verder invullen"
            destructive
            onConfirm={onBack}
          />
        </React.Suspense>
      )}
    </form>
  );
}
