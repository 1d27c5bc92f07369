import { and, eq } from 'drizzle-orm';
import type { ClubDb } from '../../db/client';
import { orders } from '../../db/schema';
import type { Clock } from '../../platform/clock';

/** The outbox's kind of an invoice mail; app.ts registers markInvoiceDelivered for it. */
export const INVOICE_MAIL_KIND = 'invoice';

/** The outbox's relatedRef of an invoice mail: which order to mark once the SMTP server accepted it. */
export function invoiceMailRef(orderId: number): string {
  return `order:${orderId}`;
}

/**
 * docs/architecture.md §3: `invoice_sent` becomes true only when the SMTP server accepted the invoice. Called by the
 * outbox (the mail delivery hook of INVOICE_MAIL_KIND) with the message's relatedRef; other refs are not ours.
 */
export async function markInvoiceDelivered(deps: { db: ClubDb; clock: Clock }, relatedRef: string): Promise<void> {
  const match = /^order:(\d{1,16})$/.exec(relatedRef);
  if (!match) return;
  await deps.db
    .update(orders)
    .set({ invoiceSent: true, updatedAt: deps.clock.now().toISOString() })
    .where(and(eq(orders.id, Number(match[1])), eq(orders.invoiceSent, false)));
}
