import { computeInvoiceAmounts } from '../../src/features/invoices/invoice-amounts';
import type { InvoicePdfInvoice } from '../../src/features/invoices/invoice-pdf';

/** The day the sample invoice is dated and its goods supplied. */
export const SAMPLE_INVOICE_DATE = new Date('2026-11-22T10:00:00.000Z');

/**
 * An invoice to render in the PDF tests, on Node and inside workerd: three packages at € 75 for a customer in
 * Harlingen, from a club with valid registration numbers and IBAN; `overrides` change what a test is about.
 */
export function sampleInvoice(overrides: Partial<InvoicePdfInvoice> = {}): InvoicePdfInvoice {
  return {
    invoiceNumber: 'F2026-0007',
    orderReference: 'KP-2026-0012',
    invoiceDate: SAMPLE_INVOICE_DATE,
    supplyDate: SAMPLE_INVOICE_DATE,
    dueDate: new Date('2026-12-06T10:00:00.000Z'),
    paymentTermDays: 14,
    club: {
      name: 'Ronde Tafel 144 Harlingen',
      address: 'Voorstraat 1, 8861 BJ Harlingen',
      email: 'kerstactie@example.nl',
      kvkNumber: '12345678',
      vatId: 'NL001234567B01',
      iban: 'NL91ABNA0417164300',
    },
    customer: {
      name: 'Marieke de Vries',
      address: 'Noorderhaven 12',
      postalCode: '8861 AL',
      city: 'Harlingen',
      email: 'marieke@example.nl',
      kvkNumber: null,
      vatId: null,
    },
    description: 'Kerstpakket',
    amounts: computeInvoiceAmounts(3, 7500, [{ label: 'Kerstpakket', share_percent: 100, vat_rate: 21 }]),
    ...overrides,
  };
}
