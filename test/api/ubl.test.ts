import { eq } from 'drizzle-orm';
import { XMLValidator } from 'fast-xml-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orders } from '../../src/db/schema';
import { NLCIUS_CUSTOMIZATION } from '../../src/features/invoices/ubl';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { pdfText } from '../support/pdf-text';
import { createTestApp, type TestApp } from '../support/test-app';
import { at, parseUbl, text, ublRuleProblems } from '../support/ubl-rules';

/**
 * DESIGN §6 "The books and safety", GET /orders/invoice.xml and /orders/credit-note.xml (docs/decisions/077): the
 * stored invoice and credit note as UBL 2.1 to NLCIUS, with the same numbers, dates, VAT and totals as the PDF, and
 * the sums EN 16931's business rules ask of them.
 */

let t: TestApp;
let admin: string;

beforeEach(async () => {
  t = await createTestApp();
  admin = await t.cookieFor('admin');
  await setSettings(t, admin, {
    ...VALID_INVOICE_SETTINGS,
    club_address: 'Voorstraat 1, 8861 BK Harlingen',
    vat_split: JSON.stringify([
      { label: 'Levensmiddelen', share_percent: 60, vat_rate: 9 },
      { label: 'Non-food', share_percent: 40, vat_rate: 21 },
    ]),
  });
});

afterEach(async () => {
  expect(t.errors).toEqual([]);
  await t.close();
});

async function newOrder(name: string, amount: number): Promise<number> {
  const r = await t.request('/orders/create', {
    cookie: admin,
    body: { name, email: 'inkoop@bouwbedrijf.example.nl', amount, phone: '0612345678', address: 'Noorderhaven 12', postal_code: '8861 AL', city: 'Harlingen' },
  });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  const [row] = await t.db.select({ id: orders.id }).from(orders).where(eq(orders.reference, r.json.order_reference));
  return row!.id;
}

async function fetchDocument(path: string, cookie = admin) {
  const response = await t.app.request(`http://127.0.0.1${path}`, { headers: { cookie } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('UBL invoices and credit notes', () => {
  it('gives the sent invoice as UBL 2.1 to NLCIUS with the PDF’s numbers, and its sums as EN 16931 asks', async () => {
    const id = await newOrder('Bouwbedrijf De Haan & Zn <Harlingen>', 2);
    const before = await fetchDocument(`/orders/invoice.xml?id=${id}`);
    expect([before.status, JSON.parse(before.text)]).toEqual([
      404,
      { success: false, error: 'Er is nog geen factuur voor deze bestelling.', code: 'DOCUMENT_NOT_FOUND' },
    ]);
    expect((await t.request(`/orders/sendInvoice?id=${id}`, { method: 'POST', cookie: admin })).json.invoice_number).toBe('F2026-0001');

    const answer = await fetchDocument(`/orders/invoice.xml?id=${id}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="Factuur-F2026-0001.xml"');
    expect(XMLValidator.validate(answer.text)).toBe(true);
    expect(answer.text).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" /);
    // The customer's name is text, escaped, and reads back as typed.
    expect(answer.text).toContain('Bouwbedrijf De Haan &amp; Zn &lt;Harlingen&gt;');

    const invoice = parseUbl(answer.text).document;
    expect(invoice['@_xmlns:cbc']).toBe('urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2');
    expect(invoice['@_xmlns:cac']).toBe('urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2');
    expect(
      ['cbc:CustomizationID', 'cbc:ID', 'cbc:IssueDate', 'cbc:DueDate', 'cbc:InvoiceTypeCode', 'cbc:DocumentCurrencyCode', 'cbc:BuyerReference'].map((name) =>
        text(invoice, name),
      ),
    ).toEqual([NLCIUS_CUSTOMIZATION, 'F2026-0001', '2026-11-22', '2026-12-06', '380', 'EUR', 'KP-2026-0001']);
    const seller = at(invoice, 'cac:AccountingSupplierParty', 'cac:Party')[0]!;
    expect(at(seller, 'cbc:EndpointID')[0]).toEqual({ '#text': '12345678', '@_schemeID': '0106' });
    expect(text(seller, 'cac:PartyName', 'cbc:Name')).toBe('Ronde Tafel 144 Harlingen');
    expect(['cbc:StreetName', 'cbc:CityName', 'cbc:PostalZone'].map((name) => text(seller, 'cac:PostalAddress', name))).toEqual([
      'Voorstraat 1',
      'Harlingen',
      '8861 BK',
    ]);
    expect(text(seller, 'cac:PostalAddress', 'cac:Country', 'cbc:IdentificationCode')).toBe('NL');
    expect(text(seller, 'cac:PartyTaxScheme', 'cbc:CompanyID')).toBe('NL123456789B01');
    expect(text(seller, 'cac:PartyLegalEntity', 'cbc:CompanyID')).toBe('12345678');
    const buyer = at(invoice, 'cac:AccountingCustomerParty', 'cac:Party')[0]!;
    expect(text(buyer, 'cac:PartyLegalEntity', 'cbc:RegistrationName')).toBe('Bouwbedrijf De Haan & Zn <Harlingen>');
    expect(['cbc:StreetName', 'cbc:CityName', 'cbc:PostalZone'].map((name) => text(buyer, 'cac:PostalAddress', name))).toEqual([
      'Noorderhaven 12',
      'Harlingen',
      '8861 AL',
    ]);
    const means = at(invoice, 'cac:PaymentMeans')[0]!;
    expect([text(means, 'cbc:PaymentMeansCode'), text(means, 'cbc:PaymentID'), text(means, 'cac:PayeeFinancialAccount', 'cbc:ID')]).toEqual([
      '58',
      'F2026-0001',
      'NL91ABNA0417164300',
    ]);
    // Two packages: € 90 at 9 % (€ 8,10) and € 60 at 21 % (€ 12,60), € 170,70 in all.
    expect(
      at(invoice, 'cac:TaxTotal', 'cac:TaxSubtotal').map((sub) => [
        text(sub, 'cbc:TaxableAmount'),
        text(sub, 'cbc:TaxAmount'),
        text(sub, 'cac:TaxCategory', 'cbc:Percent'),
      ]),
    ).toEqual([
      ['90.00', '8.10', '9'],
      ['60.00', '12.60', '21'],
    ]);
    expect(
      at(invoice, 'cac:InvoiceLine').map((line) => [
        text(line, 'cbc:InvoicedQuantity'),
        text(line, 'cac:Item', 'cbc:Name'),
        text(line, 'cac:Price', 'cbc:PriceAmount'),
      ]),
    ).toEqual([
      ['2', 'Kerstpakket – Levensmiddelen', '45.00'],
      ['2', 'Kerstpakket – Non-food', '30.00'],
    ]);
    expect(text(invoice, 'cac:LegalMonetaryTotal', 'cbc:PayableAmount')).toBe('170.70');
    // EN 16931's sums and the rest of its rules and NLCIUS's that our documents can break (test/support/ubl-rules.ts).
    expect(ublRuleProblems(answer.text)).toEqual([]);

    // The PDF of the same invoice says the same.
    const pdf = await t.app.request(`http://127.0.0.1/orders/invoice.pdf?id=${id}`, { headers: { cookie: admin } });
    const printed = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    for (const phrase of ['F2026-0001', '22 november 2026', '6 december 2026', '€ 90,00', '€ 8,10', '€ 60,00', '€ 12,60', '€ 170,70'])
      expect(printed).toContain(phrase);
  });

  it('gives the credit note as a UBL CreditNote with positive amounts, naming the invoice it corrects', async () => {
    const id = await newOrder('Marieke de Vries', 3);
    await t.request(`/orders/sendInvoice?id=${id}`, { method: 'POST', cookie: admin });
    const none = await fetchDocument(`/orders/credit-note.xml?id=${id}`);
    expect([none.status, JSON.parse(none.text).code, JSON.parse(none.text).error]).toEqual([
      404,
      'DOCUMENT_NOT_FOUND',
      'Er is geen creditnota voor deze bestelling.',
    ]);
    t.clock.advance(2 * 24 * 60 * 60 * 1000);
    expect((await t.request(`/orders/creditInvoice?id=${id}`, { method: 'POST', cookie: admin })).json.credit_note_number).toBe('F2026-0002');

    const answer = await fetchDocument(`/orders/credit-note.xml?id=${id}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="Creditnota-F2026-0002.xml"');
    expect(answer.text).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2" /);
    const note = parseUbl(answer.text).document;
    expect(['cbc:CustomizationID', 'cbc:ID', 'cbc:IssueDate', 'cbc:CreditNoteTypeCode'].map((name) => text(note, name))).toEqual([
      NLCIUS_CUSTOMIZATION,
      'F2026-0002',
      '2026-11-24',
      '381',
    ]);
    expect(at(note, 'cbc:DueDate')).toEqual([]);
    expect(at(note, 'cac:PaymentMeans')).toEqual([]);
    expect([
      text(note, 'cac:BillingReference', 'cac:InvoiceDocumentReference', 'cbc:ID'),
      text(note, 'cac:BillingReference', 'cac:InvoiceDocumentReference', 'cbc:IssueDate'),
    ]).toEqual(['F2026-0001', '2026-11-22']);
    // Three packages: € 135 at 9 % and € 90 at 21 %, € 256,05 in all, positive.
    expect(at(note, 'cac:CreditNoteLine').map((line) => [text(line, 'cbc:CreditedQuantity'), text(line, 'cbc:LineExtensionAmount')])).toEqual([
      ['3', '135.00'],
      ['3', '90.00'],
    ]);
    expect(text(note, 'cac:LegalMonetaryTotal', 'cbc:PayableAmount')).toBe('256.05');
    // EN 16931's sums and the rest of its rules and NLCIUS's that our documents can break (test/support/ubl-rules.ts).
    expect(ublRuleProblems(answer.text)).toEqual([]);
  });

  it('is for the management only, and 404 for an order that is not there', async () => {
    const id = await newOrder('Piet Pietersen', 1);
    await t.request(`/orders/sendInvoice?id=${id}`, { method: 'POST', cookie: admin });
    await t.createUser('gewoon');
    expect((await fetchDocument(`/orders/invoice.xml?id=${id}`, await t.cookieFor('gewoon'))).status).toBe(403);
    const missing = await fetchDocument(`/orders/invoice.xml?id=${id + 100}`);
    expect([missing.status, JSON.parse(missing.text).code]).toEqual([404, 'ORDER_NOT_FOUND']);
  });
});
