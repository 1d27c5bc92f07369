import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, sequences } from '../../db/schema';
import { campaignYear } from '../orders/order-reference';

/** DESIGN §3: invoice numbers F<year>-<nnnn>, e.g. F2026-0001. */
export function formatInvoiceNumber(year: number, sequence: number): string {
  return `F${year}-${String(sequence).padStart(4, '0')}`;
}

export const INVOICE_SEQUENCE = 'invoice';

export interface AssignedInvoiceNumber {
  invoiceNumber: string;
  /** ISO moment of the first send; the invoice date printed on every copy. */
  invoiceDate: string;
}

/**
 * Gives the order its invoice number on the first send and returns the one it has ever after
 * (DESIGN §3: sequential, gap-free per year, kept on resend). One atomic batch:
 *
 *  1. bump the ('invoice', year) counter, but only while the order has no number yet, so a resend or a
 *     concurrent second send of the same order never uses up a number;
 *  2. write 'F<year>-<counter>' and the invoice date on the order, again only where it has none.
 *
 * Both statements run in one transaction (libSQL and D1 batches are atomic), so two first sends of
 * different orders get consecutive numbers and a failure leaves neither the counter nor the order changed.
 * Returns null when the order does not exist.
 */
export async function assignInvoiceNumber(db: Db, orderId: number, now: Date): Promise<AssignedInvoiceNumber | null> {
  const year = campaignYear(now);
  const withoutNumber = and(eq(orders.id, orderId), isNull(orders.invoiceNumber));
  const counter = and(eq(sequences.name, INVOICE_SEQUENCE), eq(sequences.year, year));
  await db.batch([
    db
      .insert(sequences)
      .select(
        db
          .select({ name: sql`${INVOICE_SEQUENCE}`.as('name'), year: sql`${year}`.as('year'), value: sql`1`.as('value') })
          .from(orders)
          .where(withoutNumber),
      )
      .onConflictDoUpdate({ target: [sequences.name, sequences.year], set: { value: sql`${sequences.value} + 1` } }),
    db
      .update(orders)
      .set({
        // The year is bound as text: libSQL binds JS numbers as REAL, which would print '2026.0'.
        invoiceNumber: sql`${`F${year}-`} || printf('%04d', (SELECT ${sequences.value} FROM ${sequences} WHERE ${counter}))`,
        invoiceDate: now.toISOString(),
      })
      .where(withoutNumber),
  ]);
  const [row] = await db.select({ invoiceNumber: orders.invoiceNumber, invoiceDate: orders.invoiceDate }).from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!row) return null;
  if (!row.invoiceNumber) throw new Error(`Order ${orderId} got no invoice number`);
  return { invoiceNumber: row.invoiceNumber, invoiceDate: row.invoiceDate ?? now.toISOString() };
}
