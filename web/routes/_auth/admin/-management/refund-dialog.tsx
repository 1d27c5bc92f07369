import { useMutation } from "@tanstack/react-query";
import { useStore } from "@tanstack/react-form";
import * as React from "react";

import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { useTrpc } from "@/lib/auth";
import { useAppForm, useFormFeedback } from "@/lib/form";
import { useRefundRefresh } from "./online-payments";
import { parseRefundAmount, refundDoneText } from "./online-payments-rules";
import type { Order } from "./shared";

// docs/decisions/066: a refund of an order's online payment through Mollie, whole or in part. What is left to
// refund is the server's to know (its payments, their refunds and chargebacks), so an amount too large is
// its refusal, shown here as it answers it.

export function RefundDialog({
  order,
  refundedBefore,
  open,
  onClose,
  onRefunded,
}: {
  order: Pick<Order, "id" | "reference">;
  /** The order's refunded total as this screen last saw it, for the snackbar's amount. */
  refundedBefore: number;
  open: boolean;
  onClose: () => void;
  /** The order's refunded total after the refund, as the server answered it. */
  onRefunded: (refunded: number) => void;
}) {
  return (
    <Modal
      closeLabel="Sluiten"
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={`Terugbetalen: ${order.reference}`}
      description="Het bedrag gaat via Mollie terug naar de rekening waarmee de klant online betaalde."
      className="sm:max-w-md"
    >
      {open && <RefundForm order={order} refundedBefore={refundedBefore} onDone={onClose} onRefunded={onRefunded} />}
    </Modal>
  );
}

function RefundForm({
  order,
  refundedBefore,
  onDone,
  onRefunded,
}: {
  order: Pick<Order, "id" | "reference">;
  refundedBefore: number;
  onDone: () => void;
  onRefunded: (refunded: number) => void;
}) {
  const trpc = useTrpc();
  const refresh = useRefundRefresh();
  const { showSnackbar } = useSnackbar();
  const refund = useMutation(trpc.onlinePayments.refund.mutationOptions());
  const { feedback, onSubmitInvalid, attempt } = useFormFeedback({ asSent: true });
  const form = useAppForm({
    defaultValues: { amount: "" },
    validators: { onSubmit: ({ value }) => parseRefundAmount(value.amount).error ?? undefined },
    onSubmitInvalid,
    onSubmit: async ({ value }) => {
      const { amount } = parseRefundAmount(value.amount);
      if (amount === null) return;
      await attempt(async () => {
        const result = await refund.mutateAsync(amount === undefined ? { id: order.id } : { id: order.id, amount });
        showSnackbar(refundDoneText(amount, refundedBefore, result.refunded_amount), "success");
        onRefunded(result.refunded_amount);
        void refresh();
        onDone();
        return null;
      }, "Terugbetalen mislukt");
    },
  });
  const invalid = useStore(form.store, (state) => state.submissionAttempts > 0 && parseRefundAmount(state.values.amount).error !== null);
  const errorId = React.useId();

  return (
    <form.AppForm>
      <form.Form className="grid gap-4" aria-label={`Terugbetalen: ${order.reference}`} noValidate>
        <form.AppField name="amount">
          {(field) => (
            <field.TextField
              label="Bedrag (€)"
              hint="Leeg laten: alles wat er nog over is van de online betaling."
              placeholder="Alles"
              inputMode="decimal"
              autoComplete="off"
              aria-invalid={invalid || undefined}
              aria-describedby={feedback ? errorId : undefined}
            />
          )}
        </form.AppField>
        {feedback && (
          <p id={errorId} role="alert" className="text-sm text-destructive" data-slot="refund-error">
            {feedback.text}
          </p>
        )}
        <form.Actions onCancel={onDone} submitLabel="Terugbetalen" busyLabel="Terugbetalen" cancelLabel="Annuleren" />
      </form.Form>
    </form.AppForm>
  );
}
