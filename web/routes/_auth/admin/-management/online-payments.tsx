import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as React from "react";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { LoadError, LoadingState } from "../-components/admin-page";
import { formatEuroNl } from "./charts-format";
import { canRefundDouble, leftToRefund, type OnlinePayment, onlineStatusText, refundDoneText } from "./online-payments-rules";
import { Pager } from "./orders-pager";
import { formatCount, formatNlDate } from "./shared";

// docs/decisions/066: every payment made through Mollie, newest first, with its state as Mollie last reported
// it; a payment that came in for an order already paid otherwise is marked for a refund.

const PER_PAGE = 50;

const STATUS_STYLES: Record<string, string> = {
  paid: "border-success/40 text-success",
  failed: "border-destructive/40 text-destructive",
};

/** After a refund the orders (paid state, refunded amount) and this list read differently. */
export function useRefundRefresh() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.onlinePayments.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.orders.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.payments.order.pathKey() }),
    ]);
}

export function OnlinePaymentsSection() {
  const trpc = useTrpc();
  const [page, setPage] = React.useState(1);
  const query = useQuery({
    ...trpc.onlinePayments.list.queryOptions({ page: String(page), per_page: String(PER_PAGE) }),
    placeholderData: keepPreviousData,
  });
  const [refunding, setRefunding] = React.useState<OnlinePayment | null>(null);
  const headingId = React.useId();
  const data = query.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.per_page)) : 1;

  let body: React.ReactNode;
  if (query.isPending) body = <LoadingState label="Online betalingen laden" />;
  else if (query.isError && !data)
    body = (
      <LoadError
        title="Online betalingen laden mislukt"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  else if (data!.total === 0)
    body = (
      <p className="rounded-xl border bg-card p-4 text-sm text-muted-foreground" data-slot="online-payments-empty">
        Nog geen online betalingen.
      </p>
    );
  else
    body = (
      <>
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-sm text-muted-foreground">
          <span data-slot="online-payments-count">
            {formatCount(data!.total)} {data!.total === 1 ? "betaling" : "betalingen"}
            {query.isFetching && <Spinner className="ml-2 inline size-3" label="Bijwerken" />}
          </span>
          {pageCount > 1 && (
            <Pager
              label="Paginering online betalingen"
              page={Math.min(data!.page, pageCount)}
              pageCount={pageCount}
              urlPage={page}
              onPage={(next) => setPage(Math.max(1, Math.min(next, pageCount)))}
            />
          )}
        </div>
        {/* Phones: a card each, the state and the refund in view instead of beyond a wide table's edge. */}
        <ul className="grid gap-2 md:hidden" aria-label="Online betalingen">
          {data!.payments.map((payment) => (
            <PaymentCard key={payment.id} payment={payment} onRefund={() => setRefunding(payment)} />
          ))}
        </ul>
        <div className="hidden rounded-xl border bg-card md:block">
          <Table scrollLabel="Tabel met online betalingen" aria-labelledby={headingId} aria-busy={query.isPlaceholderData || undefined}>
            <TableHeader>
              <TableRow>
                <TableHead>Datum</TableHead>
                <TableHead>Bestelling</TableHead>
                <TableHead className="text-right">Bedrag</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="text-right">Terugbetaald</TableHead>
                <TableHead className="text-right">Teruggeboekt</TableHead>
                <TableHead>
                  <span className="sr-only">Acties</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data!.payments.map((payment) => (
                <PaymentRow key={payment.id} payment={payment} onRefund={() => setRefunding(payment)} />
              ))}
            </TableBody>
          </Table>
        </div>
      </>
    );

  return (
    <section aria-labelledby={headingId} className="grid gap-3 *:min-w-0" data-slot="online-payments">
      <div className="grid gap-1">
        <h2 id={headingId} className="text-base font-semibold">
          Online betalingen
        </h2>
        <p className="text-sm text-muted-foreground">
          Betalingen via Mollie (iDEAL en andere) vanaf de bestelpagina van de klant, nieuwste eerst. Een betaling voor een bestelling die
          al op een andere manier betaald was, staat als Dubbel betaald: betaal die terug.
        </p>
      </div>
      {body}
      <RefundDoubleDialog payment={refunding} onClose={() => setRefunding(null)} />
    </section>
  );
}

function StatusBadges({ payment }: { payment: OnlinePayment }) {
  return (
    <span className="flex flex-wrap items-center gap-1.5">
      <Badge variant="outline" className={STATUS_STYLES[payment.status]} data-slot="online-payment-status">
        {onlineStatusText(payment.status)}
      </Badge>
      {payment.double_payment && (
        <Badge variant="outline" className="border-amber-300 bg-amber-50 text-amber-900" data-slot="double-payment">
          Dubbel betaald
        </Badge>
      )}
    </span>
  );
}

function RefundButton({ payment, onRefund }: { payment: OnlinePayment; onRefund: () => void }) {
  if (!canRefundDouble(payment)) return null;
  return (
    <Button
      variant="outline"
      size="sm"
      className="h-7 px-2 text-xs"
      onClick={onRefund}
      aria-label={`Terugbetalen: dubbele betaling van ${payment.reference}`}
    >
      Terugbetalen
    </Button>
  );
}

function PaymentCard({ payment, onRefund }: { payment: OnlinePayment; onRefund: () => void }) {
  return (
    <li className="grid gap-1 rounded-xl border bg-card p-3 text-sm" data-slot="online-payment-card" data-payment={payment.provider_id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold tabular-nums">{formatEuroNl(payment.amount)}</span>
        <span className="text-muted-foreground">{formatNlDate(payment.created_at)}</span>
      </div>
      <span className="font-mono text-xs">{payment.reference}</span>
      <StatusBadges payment={payment} />
      {payment.refunded_amount > 0 && <span className="tabular-nums">Terugbetaald: {formatEuroNl(payment.refunded_amount)}</span>}
      {payment.charged_back_amount > 0 && <span className="tabular-nums">Teruggeboekt: {formatEuroNl(payment.charged_back_amount)}</span>}
      <div className="flex justify-end empty:hidden">
        <RefundButton payment={payment} onRefund={onRefund} />
      </div>
    </li>
  );
}

function PaymentRow({ payment, onRefund }: { payment: OnlinePayment; onRefund: () => void }) {
  return (
    <TableRow data-slot="online-payment" data-payment={payment.provider_id} data-status={payment.status} className="align-top">
      <TableCell className="whitespace-nowrap">{formatNlDate(payment.created_at)}</TableCell>
      <TableCell className="font-mono text-xs whitespace-nowrap">{payment.reference}</TableCell>
      <TableCell className="text-right whitespace-nowrap tabular-nums">{formatEuroNl(payment.amount)}</TableCell>
      <TableCell className="whitespace-nowrap">
        <StatusBadges payment={payment} />
      </TableCell>
      <TableCell className="text-right whitespace-nowrap tabular-nums" data-slot="online-payment-refunded">
        {payment.refunded_amount > 0 ? formatEuroNl(payment.refunded_amount) : "–"}
      </TableCell>
      <TableCell className="text-right whitespace-nowrap tabular-nums" data-slot="online-payment-charged-back">
        {payment.charged_back_amount > 0 ? formatEuroNl(payment.charged_back_amount) : "–"}
      </TableCell>
      <TableCell className="text-right">
        <RefundButton payment={payment} onRefund={onRefund} />
      </TableCell>
    </TableRow>
  );
}

/**
 * Sends back what is left of a double payment. The amount is that payment's own rest, not the order's: the
 * server takes it from the double payment first, so an order paid online once stays paid.
 */
function RefundDoubleDialog({ payment, onClose }: { payment: OnlinePayment | null; onClose: () => void }) {
  const trpc = useTrpc();
  const refresh = useRefundRefresh();
  const { showSnackbar } = useSnackbar();
  const refund = useMutation(trpc.onlinePayments.refund.mutationOptions());
  // Kept while the dialog closes, so its text does not change under the closing animation.
  const [shown, setShown] = React.useState(payment);
  if (payment !== null && payment !== shown) setShown(payment);

  async function confirm() {
    if (!payment || payment.order_id === null) return;
    const amount = leftToRefund(payment);
    try {
      const result = await refund.mutateAsync({ id: payment.order_id, amount });
      showSnackbar(refundDoneText(amount, 0, result.refunded_amount), "success");
    } catch (error) {
      showSnackbar(errorText(error, "Terugbetalen mislukt"), "error");
    }
    void refresh();
  }

  return (
    <ConfirmDialog
      busyLabel="Bezig"
      open={payment !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Dubbele betaling terugbetalen?"
      message={shown ? `Het hele bedrag van ${shown.reference} terugbetalen via Mollie?` : undefined}
      confirmText="Terugbetalen"
      cancelText="Annuleren"
      onConfirm={confirm}
    />
  );
}
