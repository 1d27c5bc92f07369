import * as z from 'zod';
import type { RequestCtx } from '../../context';
import { AppError } from '../../core/errors';
import { requireManagement } from '../auth/permissions';
import { setOrderDelivered } from '../delivery/delivery.service';
import { drainSoon } from '../mail/mail-delivery';
import { setOrderPaid } from '../orders/orders.service';
import { queueInvoice, queueReminderSend } from './invoices.service';

export const BULK_ACTIONS = ['mark_paid', 'mark_unpaid', 'send_invoice', 'send_reminder', 'mark_delivered', 'mark_undelivered'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
/** A page of the orders table at most, or all that match a filter of a club's campaign. */
export const MAX_BULK_ORDERS = 500;

export const bulkSchema = z.object({
  ids: z
    .array(z.number({ error: 'ids must be order ids' }).int().positive(), { error: 'ids must be a list of order ids' })
    .min(1, { error: 'Kies minstens één bestelling.' })
    .max(MAX_BULK_ORDERS, { error: `Kies hoogstens ${MAX_BULK_ORDERS} bestellingen tegelijk.` }),
  action: z.enum(BULK_ACTIONS, { error: `action must be one of ${BULK_ACTIONS.join(', ')}` }),
});

export interface BulkResult {
  id: number;
  success: boolean;
  error?: string;
}

/**
 * What one order's action does. The sends only queue their mail (numbering, files, limits and audit as a
 * single send): the run delivers it once, after the answer (docs/decisions/053).
 */
const RUN: Record<BulkAction, (ctx: RequestCtx, id: number) => Promise<unknown>> = {
  mark_paid: (ctx, id) => setOrderPaid(ctx, id, true),
  mark_unpaid: (ctx, id) => setOrderPaid(ctx, id, false),
  send_invoice: queueInvoice,
  send_reminder: queueReminderSend,
  mark_delivered: (ctx, id) => setOrderDelivered(ctx, id, true),
  mark_undelivered: (ctx, id) => setOrderDelivered(ctx, id, false),
};

const QUEUES_MAIL: ReadonlySet<BulkAction> = new Set(['send_invoice', 'send_reminder']);

/**
 * docs/architecture.md §5 POST /orders/bulk: one action on many orders, each by the same service as a single one, so
 * every rule holds per order; a refusal of one (an expected AppError) is that order's result and the
 * rest go on. Anything unexpected stops the run (and is answered as a server error). Mail the run
 * queued — also before such a stop — leaves in one drain after the answer (docs/decisions/053).
 */
export async function runBulk(ctx: RequestCtx, input: z.output<typeof bulkSchema>): Promise<{ success: true; results: BulkResult[] }> {
  requireManagement(ctx);
  const results: BulkResult[] = [];
  try {
    for (const id of new Set(input.ids)) {
      try {
        await RUN[input.action](ctx, id);
        results.push({ id, success: true });
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        results.push({ id, success: false, error: error.message });
      }
    }
  } finally {
    if (QUEUES_MAIL.has(input.action) && results.some((result) => result.success)) drainSoon(ctx);
  }
  return { success: true, results };
}
