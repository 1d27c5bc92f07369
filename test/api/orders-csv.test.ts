import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankEntries, orders, paymentImports } from '../../src/db/schema';
import { CSV_COLUMNS } from '../../src/features/orders/orders-csv';
import { createTestApp, type TestApp } from '../support/test-app';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';

/**
 * docs/decisions/029: GET /orders/export.csv, the orders for packing and delivery lists as a CSV that
 * Dutch Excel opens as it is (UTF-8 with BOM, ';', CRLF, Dutch column names, nl-NL dates), with the
 * filters of GET /orders. The file is parsed back here with an RFC 4180 reader to prove it round-trips.
 */

let t: TestApp;
let adminCookie: string;

/** RFC 4180 with ';' as separator: quoted fields may hold ';', '"' (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ';') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else {
      expect(c, 'a bare line break or quote outside a quoted field').not.toMatch(/["\r\n]/);
      field += c;
    }
  }
  expect(quoted, 'an unterminated quoted field').toBe(false);
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** `cookie` null sends none; by default the admin's. */
async function exportCsv(query = '', cookie: string | null = adminCookie) {
  const response = await t.app.request(`http://127.0.0.1/orders/export.csv${query}`, { headers: cookie ? { cookie } : {} });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, bytes, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
}

/** The parsed rows as objects keyed by the Dutch column names. */
function records(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
  expect(header).toEqual([...CSV_COLUMNS]);
  for (const row of rows) expect(row).toHaveLength(CSV_COLUMNS.length);
  return rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]!])));
}

const tricky = [
  { name: 'Jansen, Piet', notes: 'Graag na 17:00; niet eerder' },
  { name: 'Anne "Annie" de Vries', notes: 'Bel aan\nbij de buren\r\nals niemand thuis is' },
  { name: 'Émile Çelik-Ångström', notes: 'Crème brûlée, Zoë & Łukasz' },
  { name: "D'Hondt; Bram", notes: '"Alles" tussen aanhalingstekens' },
  // A formula a spreadsheet would run (a link is refused in a name anyway, so this one has none).
  { name: '=SUM(A1:A9)*10', notes: '=HYPERLINK("http://example.com","klik")' },
];

let jan: { id: number; name: string };

beforeAll(async () => {
  t = await createTestApp();
  adminCookie = await t.cookieFor('admin');
  await setSettings(t, adminCookie, VALID_INVOICE_SETTINGS);
  const created = await t.request('/tablers/create', { cookie: adminCookie, body: { name: 'Jan de Tabler' } });
  jan = created.json.tabler;
  for (const [i, o] of tricky.entries()) {
    const r = await t.request('/orders/create', {
      cookie: adminCookie,
      body: {
        tabler_id: i % 2 === 0 ? jan.id : null,
        name: o.name,
        email: `klant${i}@example.nl`,
        phone: i === 0 ? '+31 6 1234 5678' : '0517-123456',
        address: `Voorstraat ${i + 1}`,
        postal_code: '8861 BJ',
        city: i === 2 ? 'Sint-Annaparochie' : 'Harlingen',
        amount: i + 1,
        notes: o.notes,
        paid: i === 1,
      },
    });
    expect(r.json?.success, JSON.stringify(r.json)).toBe(true);
    t.clock.advance(60_000);
  }
  // One invoice number, to see it in the file.
  const [third] = await t.db.select().from(orders).where(eq(orders.name, tricky[2]!.name));
  expect((await t.request(`/orders/sendInvoice?id=${third!.id}`, { cookie: adminCookie, body: {} })).json).toMatchObject({ invoice_number: 'F2026-0001' });
});

afterAll(async () => {
  expect(t.errors).toEqual([]);
  await t.close();
});

describe('GET /orders/export.csv', () => {
  it('is a UTF-8 CSV with BOM, ; and CRLF, offered as a download', async () => {
    const { response, bytes, text } = await exportCsv();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="bestellingen-2026-11-22.csv"');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(
      text.startsWith(
        '\uFEFFBestelnummer;Tabler;Naam;Email;Telefoon;Adres;Postcode;Plaats;Aantal;Opmerkingen;Betaald;Factuur verstuurd;Factuurnummer;Besteld op;Bedrag excl. btw;Bedrag incl. btw;Betaald op;Gecrediteerd;Bezorgd;Betaald bedrag\r\n',
      ),
    ).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it('round-trips names and notes with commas, quotes, semicolons, line breaks and accents', async () => {
    const rows = records((await exportCsv()).text);
    // Newest first, like GET /orders.
    expect(rows.map((r) => r.Bestelnummer)).toEqual(['KP-2026-0005', 'KP-2026-0004', 'KP-2026-0003', 'KP-2026-0002', 'KP-2026-0001']);
    const byReference = new Map(rows.map((r) => [r.Bestelnummer, r]));
    for (const [i, o] of tricky.entries()) {
      const row = byReference.get(`KP-2026-000${i + 1}`)!;
      // A formula is defused with a leading apostrophe; everything else comes back exactly.
      expect(row.Naam).toBe(o.name.startsWith('=') ? `'${o.name}` : o.name);
      expect(row.Opmerkingen).toBe(o.notes.startsWith('=') ? `'${o.notes}` : o.notes);
      expect(row.Email).toBe(`klant${i}@example.nl`);
      expect(row.Aantal).toBe(String(i + 1));
      expect(row.Tabler).toBe(i % 2 === 0 ? 'Jan de Tabler' : 'Onbekend');
      expect(row['Besteld op']).toBe('22-11-2026');
    }
    expect(byReference.get('KP-2026-0001')).toMatchObject({ Telefoon: '+31 6 1234 5678', Adres: 'Voorstraat 1', Postcode: '8861 BJ', Plaats: 'Harlingen' });
    expect(byReference.get('KP-2026-0002')).toMatchObject({ Betaald: 'Ja', 'Factuur verstuurd': 'Nee', Factuurnummer: '' });
    expect(byReference.get('KP-2026-0003')).toMatchObject({ Betaald: 'Nee', Factuurnummer: 'F2026-0001', Plaats: 'Sint-Annaparochie' });
  });

  it('applies the filters of GET /orders', async () => {
    const paid = records((await exportCsv('?paid=true')).text);
    expect(paid.map((r) => r.Naam)).toEqual(['Anne "Annie" de Vries']);
    expect(records((await exportCsv('?paid=false')).text)).toHaveLength(4);
    expect(records((await exportCsv(`?tabler_id=${jan.id}`)).text).map((r) => r.Bestelnummer)).toEqual(['KP-2026-0005', 'KP-2026-0003', 'KP-2026-0001']);
    expect(records((await exportCsv('?tabler_id=none')).text)).toHaveLength(2);
    expect(records((await exportCsv(`?q=${encodeURIComponent('brûlée')}`)).text).map((r) => r.Bestelnummer)).toEqual(['KP-2026-0003']);
    expect(records((await exportCsv('?q=jansen')).text).map((r) => r.Naam)).toEqual(['Jansen, Piet']);
    // The same orders as the JSON list.
    const list = await t.request('/orders?paid=false&q=harlingen', { cookie: adminCookie });
    const csv = records((await exportCsv('?paid=false&q=harlingen')).text);
    expect(csv.map((r) => r.Bestelnummer)).toEqual(list.json.map((o: { reference: string }) => o.reference));
  });

  it('is just the header line when nothing matches', async () => {
    const { text } = await exportCsv('?q=niemand-heet-zo');
    expect(text).toBe(`\uFEFF${CSV_COLUMNS.join(';')}\r\n`);
  });

  it('answers 400 for a malformed filter', async () => {
    const { response, text } = await exportCsv('?paid=misschien');
    expect(response.status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ success: false, error: 'Filter must be true or false', code: 'FIELD_NOT_ALLOWED' });
  });

  it("adds the amounts, the paid date, credited and delivered, so the file's sums are the totals' for a mixed set", async () => {
    const byName = async (name: string) => (await t.db.select().from(orders).where(eq(orders.name, name)))[0]!;
    // Invoiced at € 75; then the price goes up, so the open orders count at € 80 and the invoice as billed.
    const invoiced = await byName(tricky[2]!.name);
    const credited = await byName(tricky[3]!.name);
    expect((await t.request(`/orders/sendInvoice?id=${credited.id}`, { cookie: adminCookie, body: {} })).json).toMatchObject({ invoice_number: 'F2026-0002' });
    expect((await t.request(`/orders/creditInvoice?id=${credited.id}`, { cookie: adminCookie, body: {} })).json).toMatchObject({ success: true });
    const delivered = await byName(tricky[0]!.name);
    expect((await t.request(`/orders/setDelivered?id=${delivered.id}`, { cookie: adminCookie, body: { delivered: true } })).json).toEqual({ success: true });
    const paid = await byName(tricky[1]!.name);
    await setSettings(t, adminCookie, { package_price: 80 });
    // € 40 of the delivered order's € 96,80 came in as a part-payment, booked as processing a follow-up books it
    // (docs/decisions/057): the bank booking and the order's paid_cents.
    const [bankImport] = await t.db.insert(paymentImports).values({ filename: 'afschrift.xml', createdAt: '2026-11-22T10:00:00.000Z' }).returning();
    await t.db.insert(bankEntries).values({
      importId: bankImport!.id,
      entryKey: 'csv-part-1',
      entryRef: 'CSV-1',
      bookedAt: '2026-11-22',
      amountCents: 4000,
      status: 'amount_mismatch',
      orderId: delivered.id,
      appliedAt: '2026-11-22T10:00:00.000Z',
      followUpAt: '2026-11-22T10:00:00.000Z',
      resolution: 'part_payment',
      resolvedAt: '2026-11-22T10:00:00.000Z',
    });
    await t.db.update(orders).set({ paidCents: 4000 }).where(eq(orders.id, delivered.id));

    const rows = records((await exportCsv()).text);
    const row = (reference: string) => rows.find((r) => r.Bestelnummer === reference)!;
    expect(row(invoiced.reference)).toMatchObject({
      Aantal: '3',
      'Bedrag excl. btw': '225,00',
      'Bedrag incl. btw': '272,25',
      Gecrediteerd: 'Nee',
      'Betaald bedrag': '0,00',
    });
    expect(row(credited.reference)).toMatchObject({
      Factuurnummer: 'F2026-0002',
      'Bedrag excl. btw': '0,00',
      'Bedrag incl. btw': '0,00',
      Gecrediteerd: 'Ja',
      'Betaald bedrag': '0,00',
    });
    expect(row(paid.reference)).toMatchObject({
      Betaald: 'Ja',
      'Betaald op': '22-11-2026',
      'Bedrag excl. btw': '160,00',
      'Bedrag incl. btw': '193,60',
      'Betaald bedrag': '193,60',
    });
    expect(row(delivered.reference)).toMatchObject({ Bezorgd: 'Ja', Betaald: 'Nee', 'Betaald op': '', 'Bedrag incl. btw': '96,80', 'Betaald bedrag': '40,00' });

    const cents = (text: string) => Math.round(Number(text.replace(',', '.')) * 100);
    const sum = (list: Record<string, string>[], column: string) => list.reduce((total, r) => total + cents(r[column]!), 0) / 100;
    const live = rows.filter((r) => r.Gecrediteerd === 'Nee');
    const totals = (await t.request('/orders/totals', { cookie: adminCookie })).json;
    expect(sum(rows, 'Bedrag excl. btw')).toBe(totals.revenue_excl);
    expect(sum(rows, 'Bedrag incl. btw')).toBe(totals.revenue_incl);
    // What came in, part-payments included, and what is still open: the total less what came in, per unpaid order.
    expect(sum(rows, 'Betaald bedrag')).toBe(totals.paid.amount_incl);
    const unpaid = live.filter((r) => r.Betaald === 'Nee');
    expect(sum(unpaid, 'Bedrag incl. btw') - sum(unpaid, 'Betaald bedrag')).toBe(totals.open.amount_incl);
    expect(sum(unpaid, 'Betaald bedrag')).toBe(totals.part_paid.amount_incl);
    expect([totals.paid.amount_incl, totals.open.amount_incl, totals.part_paid]).toEqual([233.6, 813.05, { orders: 1, amount_incl: 40 }]);
    expect([live.length, live.reduce((n, r) => n + Number(r.Aantal), 0)]).toEqual([totals.orders, totals.packages]);
    // 1 + 2 + 5 packages at € 80 (€ 96,80 incl.) and the invoice of 3 at € 75.
    expect([totals.revenue_excl, totals.revenue_incl]).toEqual([865, 1046.65]);
  });

  it('refuses an anonymous visitor with 401 and a user without admin.access with 403', async () => {
    const anonymous = await exportCsv('', null);
    expect(anonymous.response.status).toBe(401);
    expect(JSON.parse(anonymous.text)).toMatchObject({ success: false, error: 'Not logged in', code: 'NOT_LOGGED_IN' });
    await t.createUser('plain_user');
    const user = await exportCsv('', await t.cookieFor('plain_user'));
    expect(user.response.status).toBe(403);
    expect(JSON.parse(user.text)).toMatchObject({ success: false, error: 'Forbidden', code: 'FORBIDDEN' });
  });
});
