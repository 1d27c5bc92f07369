import { addDays, dutchDate, overdueBefore } from '../../core/calendar';

/**
 * When an invoice's payment term ends, and whether it has: one rule for the server's refusal of an early
 * reminder and the Management screen's warning before one (docs/decisions/059). Past due means what the
 * 'Achterstallig' filter and the automatic reminders mean by it: the term has run out since the
 * invoice's moment.
 */

/** The moment the term of an invoice of `invoiceDate` runs out (the day printed as 'Vervaldatum'). */
export function paymentDueDate(invoiceDate: Date, paymentTermDays: number): Date {
  return addDays(invoiceDate, paymentTermDays);
}

/** Whether the invoice of `invoiceDate` (an ISO moment, as stored) is past its payment term at `now`. */
export function isPastDue(invoiceDate: string, paymentTermDays: number, now: Date): boolean {
  return invoiceDate < overdueBefore(now, paymentTermDays);
}

/** The due day as YYYY-MM-DD in Dutch time, as the refusal's `due_date` carries it. */
export function dueDay(invoiceDate: Date, paymentTermDays: number): string {
  return dutchDate(paymentDueDate(invoiceDate, paymentTermDays));
}
