import { inArray } from 'drizzle-orm';
import * as z from 'zod';
import type { RequestCtx } from '../../context';
import { AppError, type ErrorCode } from '../../core/errors';
import { chunked } from '../../core/record-id';
import { orders } from '../../db/schema';
import { requireManagement } from '../auth/permissions';
import { setOrderDelivered } from '../delivery/delivery.service';
import { drainSoon } from '../mail/mail-delivery';
import { setOrderPaid } from '../orders/orders.service';
import { queueInvoice, queueReminderSend } from './invoices.service';
import { reminderOptionsSchema } from './invoices.schemas';

export const BULK_ACTIONS = ['mark_paid', 'mark_unpaid', 'send_invoice', 'send_reminder', 'mark_delivered', 'mark_undelivered'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
/** A page of the orders table at most, or all that match a filter of a club's campaign. */
export const MAX_BULK_ORDERS = 500;

export const bulkSchema = z
  .object({
    ids: z
      .array(z.number({ error: 'ids must be order ids' }).int().positive(), { error: 'ids must be a list of order ids' })
      .min(1, { error: 'Kies minstens één bestelling.' })
      .max(MAX_BULK_ORDERS, { error: `Kies hoogstens ${MAX_BULK_ORDERS} bestellingen tegelijk.` }),
    action: z.enum(BULK_ACTIONS, { error: `action must be one of ${BULK_ACTIONS.join(', ')}` }),
  })
  // `force` as for a single reminder: send_reminder also reaches orders still within their payment term.
  .extend(reminderOptionsSchema.shape);

export interface BulkResult {
  id: number;
  success: boolean;
  error?: string;
  /** The refusal's code (docs/decisions/062), beside its text. */
  code?: ErrorCode;
  /** With a reminder refused because the payment term still runs: its due day (YYYY-MM-DD), as the single refusal gives it. */
  due_date?: string;
}

type BulkInput = z.output<typeof bulkSchema>;

/**
 * What one order's action does. The sends only queue their mail (numbering, files, limits and audit as a
 * single send): the run delivers it once, after the answer (docs/decisions/053).
 */
const RUN: Record<BulkAction, (ctx: RequestCtx, id: number, input: BulkInput) => Promise<unknown>> = {
  mark_paid: (ctx, id) => setOrderPaid(ctx, id, true),
  mark_unpaid: (ctx, id) => setOrderPaid(ctx, id, false),
  send_invoice: (ctx, id) => queueInvoice(ctx, id),
  send_reminder: (ctx, id, input) => queueReminderSend(ctx, id, { force: input.force }),
  mark_delivered: (ctx, id) => setOrderDelivered(ctx, id, true),
  mark_undelivered: (ctx, id) => setOrderDelivered(ctx, id, false),
};

const QUEUES_MAIL: ReadonlySet<BulkAction> = new Set(['send_invoice', 'send_reminder']);

/**
 * The ids in the order their orders were placed, oldest first, whatever order the screen sent them in:
 * invoices sent in bulk are numbered as a treasurer reads the campaign, first order first
 * (docs/decisions/059). Ids of no order go last (each is answered as not found).
 */
async function oldestFirst(ctx: RequestCtx, ids: readonly number[]): Promise<number[]> {
  const placed = new Map<number, string>();
  for (const part of chunked(ids, 100)) {
    const rows = await ctx.db.select({ id: orders.id, createdAt: orders.createdAt }).from(orders).where(inArray(orders.id, part));
    for (const row of rows) placed.set(row.id, row.createdAt);
  }
  const known = ids.filter((id) => placed.has(id));
  known.sort((a, b) => placed.get(a)!.localeCompare(placed.get(b)!) || a - b);
  return [...known, ...ids.filter((id) => !placed.has(id))];
}

/**
 * docs/architecture.md §5 POST /orders/bulk: one action on many orders, each by the same service as a single one, so
 * every rule holds per order; a refusal of one (an expected AppError) is that order's result and the
 * rest go on. The orders are taken oldest first and answered in the order they were asked for. Anything
 * unexpected stops the run (and is answered as a server error). Mail the run queued — also before such a
 * stop — leaves in one drain after the answer (docs/decisions/053).
 */
export async function runBulk(ctx: RequestCtx, input: BulkInput): Promise<{ success: true; results: BulkResult[] }> {
  requireManagement(ctx);
  const asked = [...new Set(input.ids)];
  const results = new Map<number, BulkResult>();
  try {
    for (const id of await oldestFirst(ctx, asked)) {
      try {
        await RUN[input.action](ctx, id, input);
        results.set(id, { id, success: true });
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        const dueDate = error.extra?.due_date;
        results.set(id, { id, success: false, error: error.message, code: error.code, ...(typeof dueDate === 'string' ? { due_date: dueDate } : {}) });
      }
    }
  } finally {
    if (QUEUES_MAIL.has(input.action) && [...results.values()].some((result) => result.success)) drainSoon(ctx);
  }
  return { success: true, results: asked.map((id) => results.get(id)!) };
}
