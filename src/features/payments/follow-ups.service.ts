import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { AppError } from '../../core/errors';
import type { ClubDb } from '../../db/client';
import { bankEntries, orders, paymentImports } from '../../db/schema';
import { auditIfChanged } from '../audit/audit';
import { requireManagement } from '../auth/permissions';
import { orderTotalCents, todaysPricing } from '../invoices/order-pricing';
import { ORDER_NOT_FOUND } from '../orders/orders.service';
import { bankLineColumns, bankLineView } from './bank-line';
import { type BalanceRow, balanceRow, balancesOf, balanceView, type OrderBalance, orderIdByReference } from './order-balance';
import type { BankLineView, EntryStatus } from './payment-matching';
import type { ResolveFollowUpInput } from './payments.schemas';
import { euros } from '../../core/money';

// docs/decisions/057: what 'Verwerken' could not book stays as a follow-up until the treasurer resolves it.

export const ENTRY_NOT_FOUND = 'Deze bankboeking bestaat niet.';
export const NOT_A_FOLLOW_UP = 'Deze bankboeking is geen post om af te handelen: verwerk eerst het bankafschrift.';
export const ALREADY_RESOLVED = 'Deze post is al afgehandeld.';
export const ALREADY_BOOKED = 'Deze banktransactie is al geboekt.';
export const REASON_REQUIRED = 'Geef een reden op om deze betaling te negeren.';
export const ORDER_REQUIRED = 'Kies de bestelling waar deze betaling bij hoort.';
export const ORDER_CREDITED = 'Deze bestelling is gecrediteerd: boek er geen betaling op.';
export const ORDER_ALREADY_PAID = 'Deze bestelling is al betaald: een deelbetaling kan er niet meer bij.';
export const ORDER_PAID_BY_BANK = 'Deze bestelling is al met een andere bankboeking betaald. Negeer deze betaling met een reden (bijvoorbeeld: terugbetaald).';
export const CHANGED_MEANWHILE = 'De post of de bestelling is intussen gewijzigd. Laad de pagina opnieuw en probeer het nog eens.';

/** An open follow-up as the payments tab lists it. Money in euros. */
export interface FollowUpView extends BankLineView {
  /** The bank entry's id: what POST /api/payments/follow-ups/resolve takes as entry_id. */
  id: number;
  import_id: number;
  filename: string;
  /** Why it was left: the amount differs, no order was found, or (matched) the order could no longer take it. */
  status: EntryStatus;
  /** When 'Verwerken' left it open. */
  opened_at: string;
  /** The order the remittance named, with what it has been paid so far; null when it named none. */
  order: OrderBalance | null;
}

const FOLLOW_UPS_SHOWN = 200;

/** GET /api/payments/follow-ups (tRPC payments.followUps): the open follow-ups, oldest booking first, at most 200. */
export async function listFollowUps(ctx: RequestCtx): Promise<{ follow_ups: FollowUpView[]; total: number }> {
  requireManagement(ctx);
  const open = and(isNotNull(bankEntries.followUpAt), isNull(bankEntries.resolution));
  const [rows, [counted]] = await Promise.all([
    ctx.db
      .select({
        id: bankEntries.id,
        importId: bankEntries.importId,
        filename: paymentImports.filename,
        ...bankLineColumns,
        status: bankEntries.status,
        followUpAt: bankEntries.followUpAt,
        orderId: bankEntries.orderId,
      })
      .from(bankEntries)
      .innerJoin(paymentImports, eq(paymentImports.id, bankEntries.importId))
      .where(open)
      .orderBy(asc(bankEntries.bookedAt), asc(bankEntries.id))
      .limit(FOLLOW_UPS_SHOWN),
    ctx.db.select({ total: sql<number>`count(*)` }).from(bankEntries).where(open),
  ]);
  const balances = await balancesOf(
    ctx,
    rows.flatMap((row) => (row.orderId === null ? [] : [row.orderId])),
  );
  return {
    follow_ups: rows.map((row) => ({
      id: row.id,
      import_id: row.importId,
      filename: row.filename,
      ...bankLineView(row),
      status: row.status,
      opened_at: row.followUpAt!,
      order: row.orderId === null ? null : (balances.get(row.orderId) ?? null),
    })),
    total: counted?.total ?? 0,
  };
}

export interface ResolveResult {
  success: true;
  resolution: 'part_payment' | 'full_payment' | 'dismissed';
  /** The order it was booked on, as it stands now; absent for a dismissal. */
  order?: OrderBalance;
}

type EntryRow = {
  id: number;
  entryKey: string;
  entryRef: string;
  bookedAt: string;
  amountCents: number;
  importId: number;
  orderId: number | null;
  followUpAt: string | null;
  resolution: string | null;
};

async function entryOf(ctx: RequestCtx, id: number): Promise<EntryRow> {
  const [row] = await ctx.db
    .select({
      id: bankEntries.id,
      entryKey: bankEntries.entryKey,
      entryRef: bankEntries.entryRef,
      bookedAt: bankEntries.bookedAt,
      amountCents: bankEntries.amountCents,
      importId: bankEntries.importId,
      orderId: bankEntries.orderId,
      followUpAt: bankEntries.followUpAt,
      resolution: bankEntries.resolution,
    })
    .from(bankEntries)
    .where(eq(bankEntries.id, id))
    .limit(1);
  if (!row) throw new AppError('ENTRY_NOT_FOUND', ENTRY_NOT_FOUND);
  return row;
}

/** Refuses an entry that is not an open follow-up, or whose booking another import has booked already. */
async function requireOpen(ctx: RequestCtx, entry: EntryRow): Promise<void> {
  if (entry.followUpAt === null) throw new AppError('NOT_A_FOLLOW_UP', NOT_A_FOLLOW_UP);
  if (entry.resolution !== null) throw new AppError('FOLLOW_UP_RESOLVED', ALREADY_RESOLVED);
  const [booked] = await ctx.db
    .select({ id: bankEntries.id })
    .from(bankEntries)
    .where(and(eq(bankEntries.entryKey, entry.entryKey), isNotNull(bankEntries.appliedAt)))
    .limit(1);
  if (booked) throw new AppError('ENTRY_ALREADY_BOOKED', ALREADY_BOOKED);
}

/** Whether a bank booking has paid this order in full before. */
async function settledByBank(ctx: RequestCtx, orderId: number): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: bankEntries.id })
    .from(bankEntries)
    .where(and(eq(bankEntries.orderId, orderId), isNotNull(bankEntries.appliedAt), eq(bankEntries.settled, true)))
    .limit(1);
  return row !== undefined;
}

/**
 * How a booking lands on the order, or why it cannot: a part-payment needs an unpaid order; a full payment on
 * an order marked paid by hand links the booking to it (as a matched transfer does), unless a bank booking
 * paid it already: then this one is a second payment, for a refund, not for the order.
 */
async function bookingPlan(ctx: RequestCtx, order: BalanceRow, action: 'part_payment' | 'full_payment'): Promise<'pay' | 'link'> {
  if (order.cancelled) throw new AppError('ORDER_CREDITED', ORDER_CREDITED);
  if (!order.paid) return 'pay';
  if (action === 'part_payment') throw new AppError('ALREADY_PAID', ORDER_ALREADY_PAID);
  if (await settledByBank(ctx, order.id)) throw new AppError('PAID_BY_BANK', ORDER_PAID_BY_BANK);
  return 'link';
}

function auditTarget(entry: EntryRow): string {
  return `bank_entry:${entry.id} (${entry.entryRef || entry.bookedAt})`;
}

/** The entry is still an open follow-up and its booking is nowhere booked (both rechecked inside the batch). */
function stillOpen(db: ClubDb, entry: EntryRow) {
  const open = db
    .select({ one: sql`1` })
    .from(bankEntries)
    .where(and(eq(bankEntries.id, entry.id), isNotNull(bankEntries.followUpAt), isNull(bankEntries.resolution)));
  const booked = db
    .select({ one: sql`1` })
    .from(bankEntries)
    .where(and(eq(bankEntries.entryKey, entry.entryKey), isNotNull(bankEntries.appliedAt)));
  return sql`EXISTS ${open} AND NOT EXISTS ${booked}`;
}

async function dismiss(ctx: RequestCtx, entry: EntryRow, reason: string): Promise<ResolveResult> {
  const actor = requireManagement(ctx);
  if (!reason) throw new AppError('REASON_REQUIRED', REASON_REQUIRED);
  const now = ctx.clock.now().toISOString();
  const [dismissed] = await ctx.db.batch([
    ctx.db
      .update(bankEntries)
      .set({ resolution: 'dismissed', resolvedAt: now, resolvedBy: actor.id, resolutionNote: reason })
      .where(and(eq(bankEntries.id, entry.id), stillOpen(ctx.db, entry)))
      .returning({ id: bankEntries.id }),
    auditIfChanged(ctx, {
      action: 'payments.follow_up_resolved',
      target: auditTarget(entry),
      details: { resolution: 'dismissed', reason, amount: euros(entry.amountCents), booked_at: entry.bookedAt, import_id: entry.importId },
    }),
  ]);
  if (dismissed.length === 0) throw new AppError('CHANGED_MEANWHILE', CHANGED_MEANWHILE);
  return { success: true, resolution: 'dismissed' };
}

/**
 * Books the follow-up on the order in ONE batch, each step guarded by the one before (changes()), so a
 * second click, another treasurer or a processed import at the same moment books it at most once:
 *
 *  1. the order: a part-payment adds the amount to paid_cents, and when that reaches the total incl. VAT the
 *     order becomes paid on the booking date; a full payment makes it paid on the booking date (paid_cents
 *     stays: docs/decisions/057); a link only touches updated_at. Guarded by what the plan was made from
 *     (paid, credited, paid_cents, the invoice's total) and by the entry still being open and unbooked;
 *  2. the entry: resolved, applied to the order, settled when the order is now paid in full;
 *  3. the audit entry of the resolution, and 4. `order.paid` when step 1 made the order paid.
 */
async function book(ctx: RequestCtx, entry: EntryRow, action: 'part_payment' | 'full_payment', orderId: number): Promise<ResolveResult> {
  const actor = requireManagement(ctx);
  const order = await balanceRow(ctx, orderId);
  if (!order) throw new AppError('ORDER_NOT_FOUND', ORDER_NOT_FOUND);
  const plan = await bookingPlan(ctx, order, action);
  const totalCents = await orderTotalCents(order, todaysPricing(ctx));
  const paidCents = order.paidCents + (action === 'part_payment' ? entry.amountCents : 0);
  const paysNow = plan === 'pay' && (action === 'full_payment' || paidCents >= totalCents);
  const settles = plan === 'link' || paysNow;
  const now = ctx.clock.now().toISOString();
  const unchanged = and(
    eq(orders.id, order.id),
    eq(orders.paid, order.paid),
    eq(orders.cancelled, false),
    eq(orders.paidCents, order.paidCents),
    sql`${orders.invoiceTotalCents} IS ${order.invoiceTotalCents}`,
    plan === 'link'
      ? sql`NOT EXISTS ${ctx.db
          .select({ one: sql`1` })
          .from(bankEntries)
          .where(and(eq(bankEntries.orderId, order.id), isNotNull(bankEntries.appliedAt), eq(bankEntries.settled, true)))}`
      : undefined,
    stillOpen(ctx.db, entry),
  );
  const details = {
    resolution: action,
    amount: euros(entry.amountCents),
    booked_at: entry.bookedAt,
    import_id: entry.importId,
    order_id: order.id,
    reference: order.reference,
    paid_amount: euros(paysNow || plan === 'link' ? Math.max(totalCents, paidCents) : paidCents),
    open_amount: euros(settles ? 0 : Math.max(totalCents - paidCents, 0)),
  };
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(orders)
      .set({
        paidCents,
        ...(paysNow ? { paid: true, paidAt: entry.bookedAt, paymentMethod: 'bank' } : {}),
        updatedAt: now,
      })
      .where(unchanged)
      .returning({ id: orders.id }),
    ctx.db
      .update(bankEntries)
      .set({ resolution: action, resolvedAt: now, resolvedBy: actor.id, appliedAt: now, orderId: order.id, settled: settles })
      .where(and(eq(bankEntries.id, entry.id), isNull(bankEntries.resolution), sql`changes() > 0`)),
    auditIfChanged(ctx, { action: 'payments.follow_up_resolved', target: auditTarget(entry), details }),
    ...(paysNow
      ? [
          auditIfChanged(ctx, {
            action: 'order.paid',
            target: `order:${order.id} (${order.reference})`,
            details: { paid: [false, true], paid_at: entry.bookedAt, bank_entry: entry.entryRef, import_id: entry.importId },
          }),
        ]
      : []),
  ]);
  if (updated.length === 0) {
    // Something moved between the reading and the batch: say what, when it can be told.
    await requireOpen(ctx, await entryOf(ctx, entry.id));
    const current = await balanceRow(ctx, order.id);
    if (current) await bookingPlan(ctx, current, action);
    throw new AppError('CHANGED_MEANWHILE', CHANGED_MEANWHILE);
  }
  const balance = await balanceRow(ctx, order.id);
  return { success: true, resolution: action, order: balanceView(balance!, totalCents) };
}

/**
 * POST /api/payments/follow-ups/resolve (tRPC payments.resolve): book an open follow-up on an order, as a
 * part-payment or as full payment, or dismiss it with a reason. Audited as `payments.follow_up_resolved`.
 */
export async function resolveFollowUp(ctx: RequestCtx, input: ResolveFollowUpInput): Promise<ResolveResult> {
  requireManagement(ctx);
  const entry = await entryOf(ctx, input.entry_id);
  await requireOpen(ctx, entry);
  if (input.action === 'dismiss') return dismiss(ctx, entry, input.reason ?? '');
  const orderId = input.order_id ?? (input.reference !== undefined ? await orderIdByReference(ctx, input.reference) : entry.orderId);
  if (orderId === null) throw input.reference !== undefined ? new AppError('ORDER_NOT_FOUND', ORDER_NOT_FOUND) : new AppError('ORDER_REQUIRED', ORDER_REQUIRED);
  return book(ctx, entry, input.action, orderId);
}
