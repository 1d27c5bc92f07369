import { useStore } from "@tanstack/react-form";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as React from "react";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { useAppForm, useFormFeedback } from "@/lib/form";
import { liveCheck } from "@/lib/form-errors";
import { cn } from "@/lib/utils";
import { LoadError, LoadingState } from "../-components/admin-page";
import { formatBookingDate, formatEuroNl } from "./charts-format";
import {
  balanceAfter,
  balanceText,
  FOLLOW_UP_STATUS_LABELS,
  type FollowUpAction,
  type FollowUpView,
  type OrderBalance,
  resolvedText,
} from "./payments-import";

// docs/decisions/057: the credits 'Verwerken' could not book stay here, across sessions, until the treasurer
// books them on an order (part-payment or full payment) or dismisses them with a reason.

const STATUS_STYLES: Record<FollowUpView["status"], string> = {
  amount_mismatch: "border-amber-300 bg-amber-50 text-amber-900",
  unmatched: "border-border bg-muted text-foreground",
  matched: "border-border bg-muted text-foreground",
  already_imported: "border-border bg-background text-muted-foreground",
};

/** The payments' queries, the orders and the totals read differently once a payment is booked. */
export function usePaymentsRefresh() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.payments.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.orders.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.invoices.totals.queryKey() }),
    ]);
}

export function FollowUpsSection() {
  const trpc = useTrpc();
  const query = useQuery(trpc.payments.followUps.queryOptions());
  const [resolving, setResolving] = React.useState<FollowUpView | null>(null);
  const headingId = React.useId();

  let body: React.ReactNode;
  if (query.isPending) body = <LoadingState label="Af te handelen betalingen laden" />;
  else if (query.isError)
    body = (
      <LoadError
        title="Af te handelen betalingen laden mislukt"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  else if (query.data.follow_ups.length === 0)
    body = (
      <p className="rounded-xl border bg-card p-4 text-sm text-muted-foreground" data-slot="follow-ups-empty">
        Niets af te handelen: elke verwerkte betaling is geboekt of afgehandeld.
      </p>
    );
  else
    body = (
      <ul className="grid gap-3 lg:grid-cols-2" aria-labelledby={headingId}>
        {query.data.follow_ups.map((followUp) => (
          <FollowUpCard key={followUp.id} followUp={followUp} onResolve={() => setResolving(followUp)} />
        ))}
      </ul>
    );

  const total = query.data?.total ?? 0;
  return (
    <section aria-labelledby={headingId} className="grid gap-3 *:min-w-0" data-slot="payments-follow-ups">
      <div className="grid gap-1">
        <h2 id={headingId} className="text-base font-semibold">
          Af te handelen{query.data ? ` (${total})` : ""}
        </h2>
        <p className="text-sm text-muted-foreground">
          Betalingen die bij Verwerken niet geboekt konden worden: het bedrag wijkt af, of er hoort geen bestelling bij. Boek ze als
          (deel)betaling op een bestelling of negeer ze met een reden.
        </p>
        {query.data && total > query.data.follow_ups.length && (
          <p className="text-sm text-muted-foreground">De oudste {query.data.follow_ups.length} staan hieronder.</p>
        )}
      </div>
      {body}
      <ResolveDialog followUp={resolving} onClose={() => setResolving(null)} />
    </section>
  );
}

function FollowUpCard({ followUp, onResolve }: { followUp: FollowUpView; onResolve: () => void }) {
  return (
    <li
      className="grid gap-2 rounded-xl border bg-card p-4 text-sm"
      data-slot="follow-up"
      data-entry={followUp.entry_ref}
      data-status={followUp.status}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <span className="text-base font-semibold tabular-nums" data-slot="follow-up-amount">
            {formatEuroNl(followUp.amount)}
          </span>
          <span className="text-muted-foreground">{formatBookingDate(followUp.booked_at)}</span>
        </div>
        <Badge variant="outline" className={STATUS_STYLES[followUp.status]} data-slot="payment-status">
          {FOLLOW_UP_STATUS_LABELS[followUp.status]}
        </Badge>
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5">
        <dt className="text-muted-foreground">Van</dt>
        <dd className="wrap-anywhere">{followUp.counterparty || "–"}</dd>
        <dt className="text-muted-foreground">Omschrijving</dt>
        <dd className="wrap-anywhere">{followUp.remittance || "–"}</dd>
        <dt className="text-muted-foreground">Bestelling</dt>
        <dd data-slot="follow-up-order">{followUp.order ? <OrderLine order={followUp.order} /> : "Niet gevonden"}</dd>
      </dl>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-xs text-muted-foreground wrap-anywhere">Uit {followUp.filename}</span>
        <Button
          size="sm"
          onClick={onResolve}
          aria-label={`Afhandelen: ${formatEuroNl(followUp.amount)} van ${formatBookingDate(followUp.booked_at)}`}
        >
          Afhandelen
        </Button>
      </div>
    </li>
  );
}

function OrderLine({ order }: { order: OrderBalance }) {
  return (
    <span className="grid">
      <span>
        <span className="font-mono text-xs">{order.reference}</span>
        {order.invoice_number && <span className="font-mono text-xs"> · {order.invoice_number}</span>} · {order.name}
      </span>
      <span className="text-muted-foreground" data-slot="order-balance">
        {balanceText(order)}
      </span>
    </span>
  );
}

const ACTIONS: { value: FollowUpAction; label: string; hint: string }[] = [
  {
    value: "part_payment",
    label: "Boeken als deelbetaling",
    hint: "Het bedrag telt op bij wat al betaald is; de bestelling is betaald zodra het totaal incl. btw binnen is.",
  },
  {
    value: "full_payment",
    label: "Boeken als volledige betaling",
    hint: "De bestelling wordt betaald, ook al wijkt het bedrag af (bijvoorbeeld een paar cent te weinig).",
  },
  { value: "dismiss", label: "Negeren", hint: "Hoort bij geen bestelling, zoals een gift of een terugbetaalde overboeking." },
];

type ResolveValues = { action: FollowUpAction; reference: string; reason: string };

/** A text that names one order the way the server reads it (KP-2026-0001, f2026 0001): worth looking up. */
const LOOKS_LIKE_REFERENCE = /^\s*(?:kp|f)[\s-]?\d{4}[\s-]?\d{4}\s*$/i;

function missingForResolve(values: ResolveValues): string | undefined {
  if (values.action === "dismiss") return values.reason.trim() ? undefined : "Geef een reden op om deze betaling te negeren.";
  return values.reference.trim() ? undefined : "Kies de bestelling waar deze betaling bij hoort.";
}

function ResolveDialog({ followUp, onClose }: { followUp: FollowUpView | null; onClose: () => void }) {
  return (
    <Modal
      closeLabel="Sluiten"
      open={followUp !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Betaling afhandelen"
      className="sm:max-w-lg"
    >
      {followUp && <ResolveForm key={followUp.id} followUp={followUp} onDone={onClose} />}
    </Modal>
  );
}

function ResolveForm({ followUp, onDone }: { followUp: FollowUpView; onDone: () => void }) {
  const trpc = useTrpc();
  const refresh = usePaymentsRefresh();
  const { showSnackbar } = useSnackbar();
  const resolve = useMutation(trpc.payments.resolve.mutationOptions());
  const { feedback, onSubmitInvalid, attempt } = useFormFeedback({ asSent: true });
  const id = React.useId();
  const [defaultValues] = React.useState<ResolveValues>(() => ({
    // A named order suggests booking on it; a credit naming none is most often not an order's.
    action: followUp.order ? "part_payment" : "dismiss",
    reference: followUp.order?.reference ?? "",
    reason: "",
  }));
  const form = useAppForm({
    defaultValues,
    validators: liveCheck(({ value }: { value: ResolveValues }) => missingForResolve(value)),
    onSubmitInvalid,
    onSubmit: async ({ value }) => {
      await attempt(async () => {
        const result = await resolve.mutateAsync(
          value.action === "dismiss"
            ? { entry_id: followUp.id, action: "dismiss", reason: value.reason.trim() }
            : { entry_id: followUp.id, action: value.action, reference: value.reference.trim() },
        );
        showSnackbar(resolvedText(result, followUp.amount), "success");
        void refresh();
        onDone();
        return null;
      }, "Afhandelen mislukt");
    },
  });
  const action = useStore(form.store, (state) => state.values.action);
  const reference = useStore(form.store, (state) => state.values.reference);
  const lookupText = React.useDeferredValue(reference.trim());
  const lookup = useQuery({
    ...trpc.payments.order.queryOptions({ reference: lookupText }),
    enabled: action !== "dismiss" && LOOKS_LIKE_REFERENCE.test(lookupText),
    retry: false,
  });

  return (
    <form.AppForm>
      <form.Form className="grid gap-4" aria-label="Betaling afhandelen" noValidate>
        <div className="grid gap-1 rounded-lg border bg-muted/40 p-3 text-sm" data-slot="resolve-payment">
          <span className="font-semibold tabular-nums">
            {formatEuroNl(followUp.amount)} op {formatBookingDate(followUp.booked_at)}
          </span>
          <span className="wrap-anywhere">{followUp.counterparty || "Onbekende betaler"}</span>
          <span className="text-muted-foreground wrap-anywhere">{followUp.remittance || "Geen omschrijving"}</span>
        </div>
        <form.AppField name="action">
          {(field) => (
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">Wat gebeurt er met deze betaling?</legend>
              {ACTIONS.map((choice) => (
                <label
                  key={choice.value}
                  className={cn(
                    "flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm",
                    field.state.value === choice.value && "border-primary ring-1 ring-primary",
                  )}
                >
                  <input
                    type="radio"
                    name={`${id}-action`}
                    value={choice.value}
                    checked={field.state.value === choice.value}
                    onChange={() => field.handleChange(choice.value)}
                    className="mt-0.5 size-4 accent-primary"
                    aria-describedby={`${id}-${choice.value}-hint`}
                  />
                  <span className="grid gap-0.5">
                    <span className="font-medium">{choice.label}</span>
                    <span id={`${id}-${choice.value}-hint`} className="text-muted-foreground">
                      {choice.hint}
                    </span>
                  </span>
                </label>
              ))}
            </fieldset>
          )}
        </form.AppField>
        {action === "dismiss" ? (
          <div className="grid gap-2">
            <Label htmlFor={`${id}-reason`}>Reden</Label>
            <form.AppField name="reason">
              {(field) => <field.Textarea id={`${id}-reason`} maxLength={500} placeholder="Bijvoorbeeld: gift voor het goede doel" />}
            </form.AppField>
          </div>
        ) : (
          <div className="grid gap-2">
            <form.AppField name="reference">
              {(field) => (
                <field.TextField
                  label="Bestelling"
                  hint="Bestelkenmerk (KP-2026-0001) of factuurnummer (F2026-0001)."
                  autoComplete="off"
                  spellCheck={false}
                  className="font-mono"
                />
              )}
            </form.AppField>
            <LookupResult lookup={lookup} enabled={LOOKS_LIKE_REFERENCE.test(lookupText)} amount={followUp.amount} action={action} />
          </div>
        )}
        {feedback && (
          <p role="alert" className="text-sm text-destructive" data-slot="resolve-error">
            {feedback.text}
          </p>
        )}
        <form.Actions
          onCancel={onDone}
          submitLabel={action === "dismiss" ? "Negeren" : "Boeken"}
          busyLabel={action === "dismiss" ? "Negeren" : "Boeken"}
          cancelLabel="Annuleren"
        />
      </form.Form>
    </form.AppForm>
  );
}

function LookupResult({
  lookup,
  enabled,
  amount,
  action,
}: {
  lookup: { data?: { order: OrderBalance }; error: unknown; isFetching: boolean };
  enabled: boolean;
  amount: number;
  action: Exclude<FollowUpAction, "dismiss">;
}) {
  if (!enabled) return null;
  if (lookup.error) {
    return (
      <p className="text-sm text-destructive" data-slot="order-lookup">
        {errorText(lookup.error, "Bestelling niet gevonden.")}
      </p>
    );
  }
  const order = lookup.data?.order;
  if (!order) return <p className="text-sm text-muted-foreground">{lookup.isFetching ? "Bestelling zoeken…" : null}</p>;
  const after = balanceAfter(order, amount, action);
  return (
    <div className="grid gap-0.5 rounded-lg border p-3 text-sm" data-slot="order-lookup">
      <span>
        <span className="font-mono text-xs">{order.reference}</span> · {order.name}
      </span>
      <span className="text-muted-foreground">Nu: {balanceText(order)}</span>
      {!order.paid && !order.cancelled && (
        <span data-slot="order-after">
          Daarna: betaald {formatEuroNl(after.paid_amount)} · nog open {formatEuroNl(after.open_amount)}
          {after.paid ? " · de bestelling is betaald" : ""}
        </span>
      )}
    </div>
  );
}
