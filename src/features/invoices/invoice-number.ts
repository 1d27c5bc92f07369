import { and, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { ClubDb } from '../../db/client';
import { ownerValue } from '../../db/club-db';
import { orders, sequences } from '../../db/schema';
import { campaignYear } from '../../core/calendar';
import { searchTextWithNumber } from '../orders/order-search';
import type { InvoiceAmounts } from './invoice-amounts';

/** docs/architecture.md §3: invoice numbers F<year>-<nnnn>, e.g. F2026-0001. Credit notes take numbers of the same series. */
export function formatInvoiceNumber(year: number, sequence: number): string {
  return `F${year}-${String(sequence).padStart(4, '0')}`;
}

export const INVOICE_SEQUENCE = 'invoice';

/**
 * Draws the next number of the invoice series for one order, in one atomic batch:
 *
 *  1. bump the ('invoice', year) counter, but only while `guard` holds for the order (it has no number
 *     of this kind yet), so a resend or a concurrent second request never uses up a number;
 *  2. write 'F<year>-<counter>' and the other columns on the order, again only where `guard` holds
 *     (the number also joins the order's search text, docs/decisions/034).
 *
 * libSQL and D1 batches are atomic, so two orders numbered at the same moment get consecutive numbers
 * and a failure leaves neither the counter nor the order changed (docs/architecture.md §3: gap-free per year).
 */
function numberingBatch(db: ClubDb, orderId: number, now: Date, guard: SQL, write: (number: SQL) => Parameters<ReturnType<ClubDb['update']>['set']>[0]) {
  const year = campaignYear(now);
  const where = and(eq(orders.id, orderId), guard)!;
  const counter = and(eq(sequences.name, INVOICE_SEQUENCE), eq(sequences.year, year));
  return db.batch([
    db
      .insert(sequences)
      .select(
        db
          .select({ clubId: ownerValue(db), name: sql`${INVOICE_SEQUENCE}`.as('name'), year: sql`${year}`.as('year'), value: sql`1`.as('value') })
          .from(orders)
          .where(where),
      )
      .onConflictDoUpdate({ target: [sequences.clubId, sequences.name, sequences.year], set: { value: sql`${sequences.value} + 1` } }),
    db
      .update(orders)
      // The year is bound as text: libSQL binds JS numbers as REAL, which would print '2026.0'.
      .set(write(sql`${`F${year}-`} || printf('%04d', ${db.select({ value: sequences.value }).from(sequences).where(counter)})`))
      .where(where)
      .returning({ id: orders.id }),
  ]);
}

export interface IssuedInvoice {
  invoiceNumber: string;
  /** ISO moment of the first send; the invoice date printed on every copy. */
  invoiceDate: string;
  /** The sums billed, fixed at the first send; null for invoices issued before they were kept. */
  amounts: InvoiceAmounts | null;
}

/**
 * Gives the order its invoice number, date and billed sums on the first send, and returns what it has
 * ever after (kept on resend: an issued invoice never changes). `amounts` are stored only by the send
 * that drew the number. Returns null when the order does not exist.
 */
export async function assignInvoiceNumber(db: ClubDb, orderId: number, now: Date, amounts: InvoiceAmounts): Promise<IssuedInvoice | null> {
  await numberingBatch(db, orderId, now, isNull(orders.invoiceNumber), (number) => ({
    invoiceNumber: number,
    searchText: searchTextWithNumber(number),
    invoiceDate: now.toISOString(),
    invoiceTotalCents: amounts.totalCents,
    invoiceAmounts: JSON.stringify(amounts),
  }));
  const [row] = await db
    .select({ invoiceNumber: orders.invoiceNumber, invoiceDate: orders.invoiceDate, invoiceAmounts: orders.invoiceAmounts })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!row) return null;
  if (!row.invoiceNumber) throw new Error(`Order ${orderId} got no invoice number`);
  return { invoiceNumber: row.invoiceNumber, invoiceDate: row.invoiceDate ?? now.toISOString(), amounts: parseStoredAmounts(row.invoiceAmounts) };
}

/**
 * Gives an invoiced, not yet credited order its credit note number (the next of the invoice series) and
 * cancels it, in one batch. Answers whether this call did it: false when the order has no invoice or
 * was credited already (or by a concurrent request).
 */
export async function assignCreditNoteNumber(db: ClubDb, orderId: number, now: Date): Promise<boolean> {
  const [, updated] = await numberingBatch(db, orderId, now, and(isNotNull(orders.invoiceNumber), isNull(orders.creditNoteNumber))!, (number) => ({
    creditNoteNumber: number,
    searchText: searchTextWithNumber(number),
    creditNoteDate: now.toISOString(),
    cancelled: true,
    updatedAt: now.toISOString(),
  }));
  return updated.length > 0;
}

export function parseStoredAmounts(json: string | null): InvoiceAmounts | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as InvoiceAmounts;
  } catch {
    return null;
  }
}
