import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { AppError } from '../../core/errors';
import { chunked } from '../../core/record-id';
import { bankEntries, orders } from '../../db/schema';
import { requireManagement } from '../auth/permissions';
import { orderTotalCents, todaysPricing } from '../invoices/order-pricing';
import { ORDER_NOT_FOUND } from '../orders/orders.service';
import { bankLineColumns, bankLineView } from './bank-line';
import { type BankLineView, findMentions } from './payment-matching';
import { type OrderLookupInput, REFERENCE_INVALID } from './payments.schemas';
import { euros } from '../../core/money';

/**
 * What an order has been paid so far and what is still open on it (docs/decisions/057). Money in euros,
 * rounded to cents, as everywhere in the API.
 */
export interface OrderBalance {
  order_id: number;
  reference: string;
  invoice_number: string | null;
  name: string;
  /** The total incl. VAT: what the invoice billed, or what it would bill today. */
  amount_incl: number;
  /** Paid so far: the whole total once the order is paid, else the part-payments booked on it. */
  paid_amount: number;
  /** Still open: nothing once paid or credited, else the total less the part-payments. */
  open_amount: number;
  paid: boolean;
  paid_at: string | null;
  cancelled: boolean;
}

/**
 * The paid flag decides, as it always has: a paid order is paid in full (an overpayment booked as part-payments
 * shows as what came in), a credited one has nothing open. Otherwise the part-payments count.
 */
export function balanceCents(order: { paid: boolean; cancelled: boolean; paidCents: number }, totalCents: number): { paidCents: number; openCents: number } {
  if (order.paid) return { paidCents: Math.max(totalCents, order.paidCents), openCents: 0 };
  return { paidCents: order.paidCents, openCents: order.cancelled ? 0 : Math.max(totalCents - order.paidCents, 0) };
}

// D1 binds at most 100 values per statement.
const LOOKUP_CHUNK = 90;

const balanceColumns = {
  id: orders.id,
  reference: orders.reference,
  invoiceNumber: orders.invoiceNumber,
  name: orders.name,
  amount: orders.amount,
  invoiceTotalCents: orders.invoiceTotalCents,
  paid: orders.paid,
  paidAt: orders.paidAt,
  cancelled: orders.cancelled,
  paidCents: orders.paidCents,
};

export type BalanceRow = {
  id: number;
  reference: string;
  invoiceNumber: string | null;
  name: string;
  amount: number;
  invoiceTotalCents: number | null;
  paid: boolean;
  paidAt: string | null;
  cancelled: boolean;
  paidCents: number;
};

export function balanceView(row: BalanceRow, totalCents: number): OrderBalance {
  const { paidCents, openCents } = balanceCents(row, totalCents);
  return {
    order_id: row.id,
    reference: row.reference,
    invoice_number: row.invoiceNumber,
    name: row.name,
    amount_incl: euros(totalCents),
    paid_amount: euros(paidCents),
    open_amount: euros(openCents),
    paid: row.paid,
    paid_at: row.paidAt,
    cancelled: row.cancelled,
  };
}

/** The rows balanceView needs, for one order. */
export async function balanceRow(ctx: RequestCtx, orderId: number): Promise<BalanceRow | null> {
  const [row] = await ctx.db.select(balanceColumns).from(orders).where(eq(orders.id, orderId)).limit(1);
  return row ?? null;
}

/** The balances of these orders (unknown ids are left out), each priced once. */
export async function balancesOf(ctx: RequestCtx, ids: readonly number[]): Promise<Map<number, OrderBalance>> {
  const pricing = todaysPricing(ctx);
  const balances = new Map<number, OrderBalance>();
  for (const chunk of chunked([...new Set(ids)], LOOKUP_CHUNK)) {
    for (const row of await ctx.db.select(balanceColumns).from(orders).where(inArray(orders.id, chunk))) {
      balances.set(row.id, balanceView(row, await orderTotalCents(row, pricing)));
    }
  }
  return balances;
}

/**
 * The order an order reference or invoice number names, as a treasurer types it ('kp 2026 0002', 'F20260003'):
 * its id, or null when no order has it. A text naming no number, or several, is refused.
 */
export async function orderIdByReference(ctx: RequestCtx, text: string): Promise<number | null> {
  const mentions = findMentions(text);
  const [mention] = mentions;
  if (!mention || mentions.length > 1) throw new AppError('REFERENCE_INVALID', REFERENCE_INVALID);
  const column = mention.kind === 'invoice_number' ? orders.invoiceNumber : orders.reference;
  const [row] = await ctx.db.select({ id: orders.id }).from(orders).where(eq(column, mention.value)).limit(1);
  return row?.id ?? null;
}

/** A bank booking on an order: paid in one go, or booked from a follow-up. */
export interface OrderBooking extends BankLineView {
  entry_id: number;
  import_id: number;
  /** `payment`: matched and processed; the other two: booked from a follow-up. */
  kind: 'payment' | 'part_payment' | 'full_payment';
  /** This booking paid the order in full (a part-payment only when it completed the total). */
  settled: boolean;
  applied_at: string;
}

/**
 * GET /api/payments/order (tRPC payments.order): an order's paid-so-far and still-open, with the bank bookings
 * that brought it in, oldest first. By id, or by the KP reference or invoice number a treasurer types.
 */
export async function orderBalance(ctx: RequestCtx, input: OrderLookupInput): Promise<{ order: OrderBalance; bookings: OrderBooking[] }> {
  requireManagement(ctx);
  const id = input.order_id ?? (await orderIdByReference(ctx, input.reference ?? ''));
  const balance = id === null ? undefined : (await balancesOf(ctx, [id])).get(id);
  if (!balance) throw new AppError('ORDER_NOT_FOUND', ORDER_NOT_FOUND);
  const rows = await ctx.db
    .select({
      id: bankEntries.id,
      ...bankLineColumns,
      importId: bankEntries.importId,
      resolution: bankEntries.resolution,
      settled: bankEntries.settled,
      appliedAt: bankEntries.appliedAt,
    })
    .from(bankEntries)
    .where(and(eq(bankEntries.orderId, balance.order_id), isNotNull(bankEntries.appliedAt)))
    .orderBy(asc(bankEntries.bookedAt), asc(bankEntries.id));
  return {
    order: balance,
    bookings: rows.map((row) => ({
      entry_id: row.id,
      ...bankLineView(row),
      import_id: row.importId,
      kind: row.resolution === 'part_payment' || row.resolution === 'full_payment' ? row.resolution : 'payment',
      settled: row.settled,
      applied_at: row.appliedAt!,
    })),
  };
}
