import type { AppDeps, RequestCtx } from '../../context';
import { deliverDueMail, type DeliveryReport } from '../../platform/mail';
import { markInvoiceDelivered } from '../invoices/invoice-delivered';

export type DeliveryCtx = Pick<AppDeps, 'db' | 'files' | 'clock' | 'mailTransport' | 'config' | 'log'>;

/**
 * Works through the due part of the outbox — or only the messages `ids` names — with the app's transport
 * and marks what a delivery confirms (an invoice → `invoice_sent`). The one way the Node timer, the Worker
 * cron, a request's own mail and an admin's retry deliver mail. Without a transport (no SMTP_URL) nothing
 * moves.
 */
export function deliverOutbox(deps: DeliveryCtx, limit?: number, ids?: readonly number[]): Promise<DeliveryReport> {
  return deliverDueMail(
    {
      db: deps.db,
      files: deps.files,
      clock: deps.clock,
      transport: deps.mailTransport,
      from: deps.config.mailFrom,
      log: deps.log,
      onDelivered: (relatedRef) => markInvoiceDelivered(deps.db, deps.clock, relatedRef),
    },
    limit,
    ids,
  );
}

/**
 * Delivers the mail a request just queued (issue 14): started at once, after the answer on the Worker
 * (waitUntil) and as a background promise on Node, so the visitor never waits for SMTP. A failure
 * leaves the message queued with its back-off; the timer or cron retries it.
 */
export function deliverSoon(ctx: Pick<RequestCtx, 'background' | 'requestId'> & DeliveryCtx, ids: readonly number[]): void {
  if (!ctx.mailTransport) return;
  ctx.background(
    deliverOutbox(ctx, ids.length, ids).catch((error: unknown) => {
      ctx.log.error('Delivering just-queued mail failed', { requestId: ctx.requestId, error: String(error) });
    }),
  );
}

/** Delivers only the messages `ids` names and waits for the outcome (an admin's send shows whether it left). */
export async function deliverNowOnly(ctx: DeliveryCtx & { requestId?: string }, ids: readonly number[]): Promise<void> {
  if (!ctx.mailTransport) return;
  try {
    await deliverOutbox(ctx, ids.length, ids);
  } catch (error) {
    // The mail is safe in the outbox; the timer or cron delivers it later.
    ctx.log.error('Delivering the outbox failed', { requestId: ctx.requestId, error: String(error) });
  }
}
