import { describe, expect, it } from 'vitest';
import type { OrderPricing } from './order-pricing-source';
import { CSV_HEADER, type CsvOrder, csvField, csvFileName, csvLineWriter, csvMoney } from './orders-csv';
import type { OrderView } from './orders.service';

/** 75 euros a package at 21 % VAT, as the seeded settings say: € 90,75 a package incl. VAT. */
const pricing: OrderPricing = (amount) => ({ netCents: amount * 7500, totalCents: amount * 9075 });

const order: CsvOrder & OrderView = {
  id: 1,
  tabler_id: 2,
  tabler_name: 'Jan',
  reference: 'KP-2026-0001',
  name: 'Piet Jansen',
  email: 'piet@example.nl',
  phone: '0612345678',
  address: 'Voorstraat 1',
  postal_code: '8861 BJ',
  city: 'Harlingen',
  amount: 2,
  notes: null,
  customer_kvk_number: null,
  customer_vat_id: null,
  paid: true,
  invoice_sent: false,
  invoice_number: null,
  invoice_date: null,
  paid_at: '2026-11-23T10:00:00.000Z',
  cancelled: false,
  credit_note_number: null,
  credit_note_date: null,
  reminders_sent: 0,
  last_reminder_at: null,
  delivered: false,
  delivered_at: null,
  created_at: '2026-11-22T10:00:00.000Z',
  part_paid: 0,
  payment_method: 'manual',
  refunded_amount: 0,
  invoice_net_cents: null,
  invoice_total_cents: null,
  paid_cents: 0,
};

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['Jansen, Piet', '"Jansen, Piet"'],
    ['Anne "Annie" de Vries', '"Anne ""Annie"" de Vries"'],
    ['a;b', '"a;b"'],
    ['regel 1\nregel 2', '"regel 1\nregel 2"'],
    ['regel 1\r\nregel 2', '"regel 1\r\nregel 2"'],
    ['Émile Ångström', 'Émile Ångström'],
    [3, '3'],
  ])('writes %j as %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it('defuses text a spreadsheet would run as a formula, but leaves phone numbers alone', () => {
    expect(csvField('=HYPERLINK("http://x","klik")')).toBe('"\'=HYPERLINK(""http://x"",""klik"")"');
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('+31 6 1234 5678')).toBe('+31 6 1234 5678');
    expect(csvField('+31 (0)6-12345678')).toBe('+31 (0)6-12345678');
  });
});

describe('CSV_HEADER and csvLineWriter', () => {
  it('start the file with a BOM and the Dutch header, and end every line with CRLF', () => {
    expect(CSV_HEADER).toBe(
      '\uFEFFBestelnummer;Tabler;Naam;Email;Telefoon;Adres;Postcode;Plaats;Aantal;Opmerkingen;Betaald;Factuur verstuurd;Factuurnummer;Besteld op;Bedrag excl. btw;Bedrag incl. btw;Betaald op;Gecrediteerd;Bezorgd;Betaald bedrag\r\n',
    );
    expect(csvLineWriter(pricing)(order)).toBe(
      'KP-2026-0001;Jan;Piet Jansen;piet@example.nl;0612345678;Voorstraat 1;8861 BJ;Harlingen;2;;Ja;Nee;;22-11-2026;"150,00";"181,50";23-11-2026;Nee;Nee;"181,50"\r\n',
    );
  });

  it('bill an invoiced order what its invoice says, and a credited one nothing, plainly marked', () => {
    const invoiced = { ...order, invoice_number: 'F2026-0003', invoice_net_cents: 14000, invoice_total_cents: 16940 };
    expect(csvLineWriter(pricing)(invoiced)).toMatch(/;22-11-2026;"140,00";"169,40";23-11-2026;Nee;Nee;"169,40"\r\n$/);
    const credited = { ...invoiced, cancelled: true, delivered: true };
    expect(csvLineWriter(pricing)(credited)).toMatch(/;22-11-2026;"0,00";"0,00";23-11-2026;Ja;Ja;"0,00"\r\n$/);
    // No paid date while unpaid, whatever an old paid_at says.
    expect(csvLineWriter(pricing)({ ...order, paid: false })).toMatch(/;"181,50";;Nee;Nee;"0,00"\r\n$/);
  });

  it('write what came in: part-payments while unpaid, the total once paid (more when they overshot it), nothing once credited', () => {
    const paidColumn = (line: string) => line.replace(/\r\n$/, '').split(';').at(-1);
    const line = csvLineWriter(pricing);
    expect(paidColumn(line({ ...order, paid: false, paid_cents: 5000 }))).toBe('"50,00"');
    expect(paidColumn(line({ ...order, paid: true, paid_cents: 5000 }))).toBe('"181,50"');
    expect(paidColumn(line({ ...order, paid: true, paid_cents: 20000 }))).toBe('"200,00"');
    expect(paidColumn(line({ ...order, paid: false, paid_cents: 5000, cancelled: true }))).toBe('"0,00"');
  });

  it('write money with a decimal comma and no thousands separator', () => {
    expect([csvMoney(0), csvMoney(5), csvMoney(18150), csvMoney(12345678)]).toEqual(['0,00', '0,05', '181,50', '123456,78']);
  });

  it("shows 'Onbekend' for an order whose tabler is gone, and the invoice number once there is one", () => {
    const line = csvLineWriter(pricing)({ ...order, tabler_name: null, paid: false, invoice_sent: true, invoice_number: 'F2026-0003' });
    expect(line).toMatch(/^KP-2026-0001;Onbekend;/);
    expect(line).toMatch(/;Nee;Ja;F2026-0003;22-11-2026;/);
  });

  it('write each order the Dutch date of its own moment, also around midnight in Amsterdam', () => {
    const line = csvLineWriter(pricing);
    const dates = [
      '2026-11-22T22:59:59.999Z',
      '2026-11-22T23:00:00.000Z',
      '2026-11-22T23:30:00.000Z',
      '2026-06-30T21:59:00.000Z',
      '2026-06-30T22:00:00.000Z',
    ].map((at) =>
      line({ ...order, created_at: at })
        .replace(/\r\n$/, '')
        .split(';')
        .at(13),
    );
    expect(dates).toEqual(['22-11-2026', '23-11-2026', '23-11-2026', '30-6-2026', '1-7-2026']);
  });

  it('quote a field with a line break, so the line end stays the only bare CRLF', () => {
    expect(csvLineWriter(pricing)({ ...order, notes: 'regel 1\r\nregel 2' })).toContain(';"regel 1\r\nregel 2";');
  });
});

describe('csvFileName', () => {
  it('names the file after the Dutch date', () => {
    expect(csvFileName(new Date('2026-11-22T10:00:00.000Z'))).toBe('bestellingen-2026-11-22.csv');
    expect(csvFileName(new Date('2026-12-31T23:30:00.000Z'))).toBe('bestellingen-2027-01-01.csv');
  });
});
