import { and, eq, gte, isNotNull, lt, lte } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { dutchDate, dutchYearStart } from '../../core/calendar';
import type { RequestCtx } from '../../context';
import { bankEntries, onlinePayments, orders, paymentReversals } from '../../db/schema';
import { writeAudit } from '../audit/audit';
import { requireManagement } from '../auth/permissions';
import type { InvoiceAmounts } from '../invoices/invoice-amounts';
import { todaysAmounts } from '../invoices/order-pricing';
import { parseStoredAmounts } from '../invoices/invoice-number';
import { csvField, csvMoney } from '../orders/orders-csv';
import { getStringSetting } from '../settings/settings.service';
import { type LedgerAccountKey, type LedgerAccounts, LEDGER_ACCOUNT_KEYS, rateAccountKey } from './ledger-accounts';

/**
 * The accountant's journal of a year (DESIGN §6 "The books and safety", docs/decisions/076): every invoice, credit
 * note and payment of the year as a booking of balanced lines on the club's ledger accounts, as CSV for Dutch
 * accounting packages: UTF-8 with a byte-order mark, ';' between fields, a decimal comma, CRLF line ends.
 */

export const JOURNAL_COLUMNS = ['datum', 'boekstuk', 'omschrijving', 'rekening', 'debet', 'credit', 'btw_tarief'] as const;

export interface JournalLine {
  /** YYYY-MM-DD, the day in Dutch time. */
  date: string;
  /** The invoice or credit-note number, or the payment's reference: every line of one booking has the same. */
  document: string;
  description: string;
  account: string;
  debitCents: number;
  creditCents: number;
  /** The VAT rate of a revenue or VAT line; null for the others. */
  vatRate: number | null;
}

/** One side of a booking: an amount on an account, debit when positive; zero amounts make no line. */
interface Entry {
  account: string;
  cents: number;
  vatRate?: number;
}

function booking(date: string, document: string, description: string, entries: Entry[]): JournalLine[] {
  return entries
    .filter((entry) => entry.cents !== 0)
    .map((entry) => ({
      date,
      document,
      description,
      account: entry.account,
      debitCents: Math.max(entry.cents, 0),
      creditCents: Math.max(-entry.cents, 0),
      vatRate: entry.vatRate ?? null,
    }));
}

/** What the customer owes against revenue and VAT per rate; `sign` −1 turns an invoice's amounts into its credit note. */
function documentEntries(amounts: InvoiceAmounts, accounts: LedgerAccounts, sign: 1 | -1): Entry[] {
  const entries: Entry[] = [{ account: accounts.debtors, cents: sign * amounts.totalCents }];
  for (const line of amounts.vat) {
    entries.push({ account: accounts.revenue(line.rate), cents: -sign * line.baseCents, vatRate: line.rate });
    if (line.vatCents !== 0) entries.push({ account: accounts.vat(line.rate), cents: -sign * line.vatCents, vatRate: line.rate });
  }
  return entries;
}

export interface IssuedDocument {
  number: string;
  date: string;
  orderReference: string;
  customer: string;
  amounts: InvoiceAmounts;
}

export const invoiceBooking = (invoice: IssuedDocument, accounts: LedgerAccounts): JournalLine[] =>
  booking(
    invoice.date,
    invoice.number,
    `Factuur ${invoice.number} ${invoice.orderReference} ${invoice.customer}`,
    documentEntries(invoice.amounts, accounts, 1),
  );

/** A credit note cancels its invoice whole: the invoice's amounts, the other way round (docs/decisions/049). */
export const creditNoteBooking = (creditNote: IssuedDocument & { invoiceNumber: string }, accounts: LedgerAccounts): JournalLine[] =>
  booking(
    creditNote.date,
    creditNote.number,
    `Creditnota ${creditNote.number} op factuur ${creditNote.invoiceNumber} ${creditNote.orderReference} ${creditNote.customer}`,
    documentEntries(creditNote.amounts, accounts, -1),
  );

/** Money that came in for an order, on the bank or the payment provider's account, off what the customer owes. */
export const paymentBooking = (payment: { date: string; document: string; description: string; cents: number; account: string }, accounts: LedgerAccounts) =>
  booking(payment.date, payment.document, payment.description, [
    { account: payment.account, cents: payment.cents },
    { account: accounts.debtors, cents: -payment.cents },
  ]);

/** Money that went back out through the payment provider (a refund or a chargeback): owed to the customer again. */
export const reversalBooking = (reversal: { date: string; document: string; description: string; cents: number }, accounts: LedgerAccounts) =>
  paymentBooking({ ...reversal, cents: -reversal.cents, account: accounts.paymentProvider }, accounts);

const BOM = '\uFEFF';
const LINE_END = '\r\n';

export function journalCsv(lines: JournalLine[]): string {
  // The amounts are digits and a decimal comma, which ';' needs no quotes around (csvField would quote the comma).
  const rows = lines.map((line) =>
    [
      ...[line.date, line.document, line.description, line.account].map(csvField),
      csvMoney(line.debitCents),
      csvMoney(line.creditCents),
      line.vatRate ?? '',
    ].join(';'),
  );
  return BOM + [JOURNAL_COLUMNS.join(';'), ...rows].map((row) => row + LINE_END).join('');
}

async function ledgerAccounts(ctx: RequestCtx): Promise<LedgerAccounts> {
  const values = new Map<LedgerAccountKey, string>();
  for (const key of LEDGER_ACCOUNT_KEYS) values.set(key, await getStringSetting(ctx, key));
  const account = (key: LedgerAccountKey) => values.get(key)!;
  return {
    debtors: account('ledger_debtors'),
    bank: account('ledger_bank'),
    paymentProvider: account('ledger_payment_provider'),
    revenue: (rate) => account(rateAccountKey('revenue', rate)),
    vat: (rate) => account(rateAccountKey('vat', rate)),
  };
}

/** The amounts an issued document billed: stored at its first send; by today's price for invoices from before. */
function issuedAmountsOf(ctx: RequestCtx) {
  const today = todaysAmounts(ctx);
  return async (stored: string | null, quantity: number): Promise<InvoiceAmounts> => parseStoredAmounts(stored) ?? (await today())(quantity);
}

const dayOf = (moment: string) => dutchDate(new Date(moment));

/**
 * GET /orders/export/journal.csv?year=: the year's bookings, by day and then by document. What counts is the day in
 * Dutch time of the invoice, the credit note, the bank's booking, the online payment or the refund; a payment
 * marked by hand is booked on the bank on the day it was marked, for what its order still owed.
 */
export async function exportJournal(ctx: RequestCtx, year: number): Promise<{ csv: string; lines: JournalLine[] }> {
  requireManagement(ctx);
  const accounts = await ledgerAccounts(ctx);
  const amountsOf = issuedAmountsOf(ctx);
  const from = dutchYearStart(year);
  const until = dutchYearStart(year + 1);
  const inYear = (column: SQLiteColumn) => and(gte(column, from), lt(column, until));
  const lines: JournalLine[] = [];

  const issued = {
    number: orders.invoiceNumber,
    date: orders.invoiceDate,
    reference: orders.reference,
    name: orders.name,
    amount: orders.amount,
    amounts: orders.invoiceAmounts,
    creditNumber: orders.creditNoteNumber,
    creditDate: orders.creditNoteDate,
  };
  for (const row of await ctx.db
    .select(issued)
    .from(orders)
    .where(and(isNotNull(orders.invoiceNumber), inYear(orders.invoiceDate)))) {
    const document = { orderReference: row.reference, customer: row.name, amounts: await amountsOf(row.amounts, row.amount) };
    lines.push(...invoiceBooking({ ...document, number: row.number!, date: dayOf(row.date!) }, accounts));
  }
  for (const row of await ctx.db
    .select(issued)
    .from(orders)
    .where(and(isNotNull(orders.creditNoteNumber), inYear(orders.creditNoteDate)))) {
    const document = { orderReference: row.reference, customer: row.name, amounts: await amountsOf(row.amounts, row.amount) };
    lines.push(...creditNoteBooking({ ...document, number: row.creditNumber!, date: dayOf(row.creditDate!), invoiceNumber: row.number! }, accounts));
  }

  // Transfers the bank import booked on an order; the bank's own day, YYYY-MM-DD.
  const transfers = await ctx.db
    .select({
      id: bankEntries.id,
      ref: bankEntries.entryRef,
      day: bankEntries.bookedAt,
      cents: bankEntries.amountCents,
      counterparty: bankEntries.counterparty,
      order: orders.reference,
      invoice: orders.invoiceNumber,
    })
    .from(bankEntries)
    .leftJoin(orders, eq(orders.id, bankEntries.orderId))
    .where(and(isNotNull(bankEntries.appliedAt), gte(bankEntries.bookedAt, `${year}-01-01`), lte(bankEntries.bookedAt, `${year}-12-31`)));
  for (const row of transfers) {
    const what = [row.invoice ?? row.order, row.counterparty].filter(Boolean).join(' ');
    lines.push(
      ...paymentBooking(
        { date: row.day, document: row.ref || `bank-${row.id}`, description: `Betaling per bank ${what}`.trim(), cents: row.cents, account: accounts.bank },
        accounts,
      ),
    );
  }

  const online = await ctx.db
    .select({
      provider: onlinePayments.providerId,
      paidAt: onlinePayments.paidAt,
      cents: onlinePayments.amountCents,
      reference: onlinePayments.reference,
      invoice: orders.invoiceNumber,
    })
    .from(onlinePayments)
    .leftJoin(orders, eq(orders.id, onlinePayments.orderId))
    .where(and(isNotNull(onlinePayments.paidAt), gte(onlinePayments.paidAt, from), lt(onlinePayments.paidAt, until)));
  for (const row of online) {
    const description = `Online betaling ${row.provider} ${row.invoice ?? row.reference}`;
    lines.push(
      ...paymentBooking({ date: dayOf(row.paidAt!), document: row.provider, description, cents: row.cents, account: accounts.paymentProvider }, accounts),
    );
  }

  const reversals = await ctx.db
    .select({
      id: paymentReversals.id,
      kind: paymentReversals.kind,
      cents: paymentReversals.amountCents,
      at: paymentReversals.bookedAt,
      provider: onlinePayments.providerId,
      reference: onlinePayments.reference,
    })
    .from(paymentReversals)
    .innerJoin(onlinePayments, eq(onlinePayments.id, paymentReversals.onlinePaymentId))
    .where(and(gte(paymentReversals.bookedAt, from), lt(paymentReversals.bookedAt, until)));
  for (const row of reversals) {
    const [name, word] = row.kind === 'refund' ? ['Terugbetaling', 'terugbetaling'] : ['Terugboeking', 'terugboeking'];
    lines.push(
      ...reversalBooking(
        { date: dayOf(row.at), document: `${row.provider}-${word}-${row.id}`, description: `${name} ${row.provider} ${row.reference}`, cents: row.cents },
        accounts,
      ),
    );
  }

  // Marked paid by hand: what the order still owed after its part-payments (docs/decisions/057), on the bank.
  const manual = await ctx.db
    .select({
      reference: orders.reference,
      invoice: orders.invoiceNumber,
      paidAt: orders.paidAt,
      amount: orders.amount,
      amounts: orders.invoiceAmounts,
      paidCents: orders.paidCents,
    })
    .from(orders)
    .where(and(eq(orders.paid, true), eq(orders.paymentMethod, 'manual'), gte(orders.paidAt, from), lt(orders.paidAt, until)));
  for (const row of manual) {
    const cents = (await amountsOf(row.amounts, row.amount)).totalCents - row.paidCents;
    if (cents <= 0) continue;
    const description = `Betaling afgevinkt ${row.invoice ?? row.reference}`;
    lines.push(...paymentBooking({ date: dayOf(row.paidAt!), document: row.reference, description, cents, account: accounts.bank }, accounts));
  }

  // A stable sort: a booking's lines keep together and in their order.
  lines.sort((a, b) => a.date.localeCompare(b.date) || a.document.localeCompare(b.document));
  await writeAudit(ctx, { action: 'journal.exported', details: { year, lines: lines.length } });
  return { csv: journalCsv(lines), lines };
}
