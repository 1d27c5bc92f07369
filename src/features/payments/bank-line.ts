import { euros } from '../../core/money';
import { bankEntries } from '../../db/schema';
import type { BankLineView } from './payment-matching';

/** The columns of a bank entry that every payments answer shows, for a select: the credit as the bank booked it. */
export const bankLineColumns = {
  entryRef: bankEntries.entryRef,
  bookedAt: bankEntries.bookedAt,
  amountCents: bankEntries.amountCents,
  counterparty: bankEntries.counterparty,
  remittance: bankEntries.remittance,
};

/** A row holding `bankLineColumns`. */
export interface BankLineRow {
  entryRef: string;
  bookedAt: string;
  amountCents: number;
  counterparty: string;
  remittance: string;
}

/** Those columns as an answer shows them (docs/architecture.md §3: money in euros). */
export function bankLineView(row: BankLineRow): BankLineView {
  return {
    entry_ref: row.entryRef,
    booked_at: row.bookedAt,
    amount: euros(row.amountCents),
    counterparty: row.counterparty,
    remittance: row.remittance,
  };
}
