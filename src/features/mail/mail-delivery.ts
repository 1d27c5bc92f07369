import type { AppDeps } from '../../context';
import { deliverDueMail, type DeliveryReport } from '../../platform/mail';
import { markInvoiceDelivered } from '../invoices/invoice-delivered';

export type DeliveryCtx = Pick<AppDeps, 'db' | 'files' | 'clock' | 'mailTransport' | 'config' | 'log'>;

/**
 * Works through the due part of the outbox with the app's transport and marks what a delivery
 * confirms (an invoice → `invoice_sent`). The one way the Node timer, the Worker cron, a send of an
 * invoice and an admin's retry deliver mail. Without a transport (no SMTP_URL) nothing moves.
 */
export function deliverOutbox(deps: DeliveryCtx, limit?: number): Promise<DeliveryReport> {
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
  );
}
