import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../test/support/pdf-text';
import { computeInvoiceAmounts } from './invoice-amounts';
import { renderInvoicePdf, type InvoiceDocument } from './invoice-pdf';

const invoiceDate = new Date('2026-11-22T10:00:00.000Z');

function invoice(overrides: Partial<InvoiceDocument> = {}): InvoiceDocument {
  return {
    invoiceNumber: 'F2026-0007',
    orderReference: 'KP-2026-0012',
    invoiceDate,
    supplyDate: invoiceDate,
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
    customer: { name: 'Marieke de Vries', address: 'Noorderhaven 12', postalCode: '8861 AL', city: 'Harlingen', email: 'marieke@example.nl' },
    description: 'Kerstpakket',
    amounts: computeInvoiceAmounts(3, 7500, [{ label: 'Kerstpakket', share_percent: 100, vat_rate: 21 }]),
    ...overrides,
  };
}

describe('renderInvoicePdf (Dutch invoice requirements)', () => {
  it('is a one-page PDF with every particular a Dutch invoice needs', async () => {
    const pdf = await renderInvoicePdf(invoice());
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    const text = await pdfText(pdf);
    for (const expected of [
      // supplier
      'Ronde Tafel 144 Harlingen',
      'Voorstraat 1, 8861 BJ Harlingen',
      'KvK-nummer: 12345678',
      'Btw-id: NL001234567B01',
      'IBAN: NL91ABNA0417164300',
      // number and dates
      'FACTUUR',
      'Factuurnummer F2026-0007',
      'Factuurdatum 22 november 2026',
      'Leverdatum 22 november 2026',
      'Bestelnummer KP-2026-0012',
      'Vervaldatum 6 december 2026',
      // customer
      'Marieke de Vries',
      'Noorderhaven 12',
      '8861 AL Harlingen',
      // quantity × price excl. VAT, VAT per rate, totals
      'Kerstpakket 3 € 75,00 € 225,00',
      'btw 21% € 225,00 € 47,25',
      'Totaal excl. btw € 225,00',
      'Totaal btw € 47,25',
      'Totaal incl. btw € 272,25',
      // payment terms and reference
      'binnen 14 dagen',
      'uiterlijk op 6 december 2026',
      'Betalingskenmerk: F2026-0007 (bestelling KP-2026-0012)',
    ]) {
      expect(text, expected).toContain(expected);
    }
  });

  it('shows each part of the VAT split and a line per rate', async () => {
    const amounts = computeInvoiceAmounts(3, 7500, [
      { label: 'Levensmiddelen', share_percent: 50, vat_rate: 9 },
      { label: 'Non-food', share_percent: 50, vat_rate: 21 },
    ]);
    const text = await pdfText(await renderInvoicePdf(invoice({ amounts })));
    expect(text).toContain('waarvan Levensmiddelen (50%, btw 9%) € 112,50');
    expect(text).toContain('waarvan Non-food (50%, btw 21%) € 112,50');
    expect(text).toContain('btw 9% € 112,50 € 10,13');
    expect(text).toContain('btw 21% € 112,50 € 23,63');
    expect(text).toContain('Totaal btw € 33,76');
    expect(text).toContain('Totaal incl. btw € 258,76');
  });

  it('draws accented names and replaces what the standard font cannot encode instead of failing', async () => {
    const text = await pdfText(
      await renderInvoicePdf(invoice({ customer: { name: 'Zoë Łukasiewicz-Ōta 東京 😀', address: 'Kerkstraat 1\nachterom', postalCode: '1234 AB', city: "'s-Hertogenbosch", email: 'z@example.nl' } })),
    );
    expect(text).toContain('Zoë Lukasiewicz-Ota ?? ?');
    expect(text).toContain('Kerkstraat 1 achterom');
    expect(text).toContain("1234 AB 's-Hertogenbosch");
  });

  it('gives the same bytes for the same invoice (nothing depends on the clock)', async () => {
    const a = await renderInvoicePdf(invoice());
    const b = await renderInvoicePdf(invoice());
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});
