/**
 * The campaign's calendar: a moment's day and year are those in Dutch time, whatever the server's zone.
 */

export const DUTCH_TIME = 'Europe/Amsterdam';

/** The campaign year of a moment, in Dutch time (an order at 00:30 on 1 January belongs to the new year). */
export function campaignYear(date: Date): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone: DUTCH_TIME, year: 'numeric' }).format(date));
}

/** The calendar day of a moment in Dutch time, as YYYY-MM-DD (e.g. whether today's backup was made). */
export function dutchDate(date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: DUTCH_TIME }).format(date);
}

/** The moment `days` calendar days later (for a payment due date). */
export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 24 * 60 * 60 * 1000);
}

/** When an invoice of `invoiceDate` is past due: the payment term after its date. */
export function overdueBefore(now: Date, paymentTermDays: number, extraDays = 0): string {
  return addDays(now, -(paymentTermDays + extraDays)).toISOString();
}

/**
 * The moment a year begins in Dutch time, as an ISO string to compare stored moments with: 1 January 00:00 in
 * Amsterdam is 23:00 UTC the day before, as January is always winter time (UTC+1).
 */
export function dutchYearStart(year: number): string {
  return new Date(Date.UTC(year, 0, 1) - 60 * 60 * 1000).toISOString();
}
