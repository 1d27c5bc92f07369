import { describe, expect, it } from 'vitest';
import { renderUbl } from '../../src/features/invoices/ubl';
import { computeInvoiceAmounts } from '../../src/features/invoices/invoice-amounts';
import { sampleInvoice } from './invoice-document';
import { ublRuleProblems } from './ubl-rules';

/** The rule checker itself: it passes what renderUbl writes, and each rule it is asked about can fail. */

const split = [
  { label: 'Levensmiddelen', share_percent: 60, vat_rate: 9 },
  { label: 'Non-food', share_percent: 30, vat_rate: 21 },
  { label: 'Goed doel', share_percent: 10, vat_rate: 0 },
];
const invoice = renderUbl(sampleInvoice({ amounts: computeInvoiceAmounts(3, 7500, split) }));
const business = { ...sampleInvoice().customer, name: 'Bakkerij Wiersma BV', kvkNumber: '87654321', vatId: 'BE0123456789' };
const creditNote = renderUbl({
  ...sampleInvoice({ customer: business }),
  kind: 'credit_note',
  corrects: { invoiceNumber: 'F2026-0006', invoiceDate: new Date('2026-11-20T10:00:00Z') },
});

describe('ublRuleProblems', () => {
  it('finds nothing wrong in an invoice of three VAT rates, or a business customer’s credit note', () => {
    expect(ublRuleProblems(invoice)).toEqual([]);
    expect(ublRuleProblems(creditNote)).toEqual([]);
  });

  it('names each rule a changed document breaks', () => {
    const broken = (from: string, to: string, xml = invoice) => {
      expect(xml).toContain(from);
      return ublRuleProblems(xml.replace(from, to));
    };
    // A club address without a postcode: the seller's address then lacks what NLCIUS requires of a Dutch seller.
    expect(broken('<cbc:PostalZone>8861 BJ</cbc:PostalZone>', '')).toEqual(["NL seller address: the seller's address has no cbc:PostalZone"]);
    expect(
      broken(
        '<cbc:LineExtensionAmount currencyID="EUR">135.00</cbc:LineExtensionAmount>',
        '<cbc:LineExtensionAmount currencyID="EUR">135.01</cbc:LineExtensionAmount>',
      ),
    ).toEqual(['BR-CO-10: the lines add up to 22501, the total says 22500', "BR-S-08: the base at 9 % is not its lines' sum"]);
    expect(broken('<cac:PayeeFinancialAccount><cbc:ID>NL91ABNA0417164300</cbc:ID>', '<cac:PayeeFinancialAccount><cbc:ID></cbc:ID>')).toEqual([
      'BR-61: a credit transfer without the account to pay to',
    ]);
    expect(
      broken('schemeID="0106">12345678</cbc:CompanyID></cac:PartyLegalEntity>', 'schemeID="0088">12345678</cbc:CompanyID></cac:PartyLegalEntity>'),
    ).toEqual(["NL seller legal id: the seller's legal id is no KvK or OIN number"]);
    expect(broken('<cbc:CompanyID>BE0123456789</cbc:CompanyID>', '<cbc:CompanyID>0123456789</cbc:CompanyID>', creditNote)).toEqual([
      'BR-CO-09: VAT id 0123456789 does not start with a country code',
    ]);
    expect(
      broken(
        '<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>F2026-0006</cbc:ID>',
        '<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID></cbc:ID>',
        creditNote,
      ),
    ).toEqual(['NL credit note names its invoice: a credit note that names no invoice']);
    expect(
      broken(
        '<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>21</cbc:Percent>',
        '<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>0</cbc:Percent>',
      ),
    ).toContain('BR-S-05: line 2 is standard rated at 0 %');
  });
});
