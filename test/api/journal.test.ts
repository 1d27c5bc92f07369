import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, orders, paymentReversals } from '../../src/db/schema';
import { exportTables, importTables } from '../../src/features/backups/table-export';
import { startFakeMollie, type FakeMollie } from '../support/fake-mollie';
import { encodedForm } from '../support/encoded-form';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * DESIGN §6 "The books and safety", GET /orders/export/journal.csv (docs/decisions/076): a year's invoices, credit
 * notes and payments (bank, online, by hand, refunds and chargebacks) as balanced journal lines on the club's
 * ledger accounts, against the real database and a stand-in of Mollie on loopback.
 */

const KEY = `test_${'a1B2c3D4e5'.repeat(3)}`;
const HEADER = 'datum;boekstuk;omschrijving;rekening;debet;credit;btw_tarief';
// 60 % at 9 %, 40 % at 21 %: one package is € 45 + € 4,05 and € 30 + € 6,30 = € 85,35.
const SPLIT = JSON.stringify([
  { label: 'Levensmiddelen', share_percent: 60, vat_rate: 9 },
  { label: 'Non-food', share_percent: 40, vat_rate: 21 },
]);

let mollie: FakeMollie;
let t: TestApp | undefined;
let app: TestApp;
let admin: string;

beforeAll(async () => {
  mollie = await startFakeMollie({ now: () => (t ? t.clock.now() : new Date()) });
});

afterAll(async () => {
  await mollie.close();
});

beforeEach(async () => {
  mollie.reset();
  mollie.deliverWebhooks = false;
  t = app = await createTestApp({ env: { MOLLIE_API_URL: mollie.url, PUBLIC_URL: 'https://kerst.example.nl' } });
  admin = await app.cookieFor('admin');
  await setSettings(app, admin, { ...VALID_INVOICE_SETTINGS, vat_split: SPLIT, online_payments: 'true', mollie_api_key: KEY });
});

afterEach(async () => {
  expect(app.errors).toEqual([]);
  await app.close();
  t = undefined;
});

interface Line {
  datum: string;
  boekstuk: string;
  omschrijving: string;
  rekening: string;
  debet: string;
  credit: string;
  btw_tarief: string;
}

/** The fields of one CSV line (RFC 4180 quotes). */
function fieldsOf(line: string): string[] {
  const fields: string[] = [];
  let rest = line;
  for (;;) {
    const quoted = /^"((?:[^"]|"")*)"(;|$)/.exec(rest);
    const field = quoted ? quoted[1]!.replaceAll('""', '"') : rest.split(';')[0]!;
    fields.push(field);
    const used = quoted ? quoted[0].length : field.length + 1;
    if (used > rest.length || (quoted && quoted[2] === '')) return fields;
    rest = rest.slice(used);
  }
}

async function journal(query = '?year=2026', cookie = admin): Promise<{ status: number; text: string; lines: Line[]; headers: Headers }> {
  const response = await app.app.request(`http://127.0.0.1/orders/export/journal.csv${query}`, { headers: { cookie } });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  if (response.status !== 200) return { status: response.status, text, lines: [], headers: response.headers };
  // UTF-8 with a byte-order mark, so Excel reads the accents right.
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = text.slice(1).split('\r\n');
  expect(rows.pop()).toBe('');
  expect(rows[0]).toBe(HEADER);
  const lines = rows.slice(1).map((row) => {
    const [datum, boekstuk, omschrijving, rekening, debet, credit, btw_tarief] = fieldsOf(row);
    return { datum, boekstuk, omschrijving, rekening, debet, credit, btw_tarief } as Line;
  });
  return { status: response.status, text, lines, headers: response.headers };
}

const cents = (amount: string) => {
  expect(amount).toMatch(/^\d+,\d{2}$/);
  return Number(amount.replace(',', ''));
};

let counter = 0;
async function newOrder(amount: number): Promise<{ id: number; reference: string; token: string }> {
  counter++;
  const r = await app.request('/orders/create', {
    cookie: admin,
    body: {
      name: `Klant ${counter}`,
      email: `klant${counter}@example.nl`,
      amount,
      phone: '0612345678',
      address: 'Noorderhaven 12',
      postal_code: '8861 AL',
      city: 'Harlingen',
    },
  });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  const [row] = await app.db.select({ id: orders.id }).from(orders).where(eq(orders.reference, r.json.order_reference));
  const url: string = r.json.order_url;
  return { id: row!.id, reference: r.json.order_reference, token: url.slice(url.lastIndexOf('/') + 1) };
}

async function sendInvoice(id: number): Promise<string> {
  const r = await app.request(`/orders/sendInvoice?id=${id}`, { method: 'POST', cookie: admin });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json.invoice_number;
}

/** A camt.053 statement booking one transfer on 1 December, processed and applied. */
async function bankTransfer(ref: string, amount: string, remittance: string) {
  const xml = `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>1</MsgId></GrpHdr>
<Stmt><Id>STMT-${ref}</Id><Acct><Id><IBAN>NL69INGB0123456789</IBAN></Id></Acct><Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>
<BookgDt><Dt>2026-12-01</Dt></BookgDt><AcctSvcrRef>${ref}</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Dbtr><Nm>P. Visser</Nm></Dbtr></RltdPties>
<RmtInf><Ustrd>${remittance}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry></Stmt></BkToCstmrStmt></Document>`;
  const form = new FormData();
  form.append('file', new Blob([new TextEncoder().encode(xml)], { type: 'text/xml' }), 'afschrift.xml');
  const encoded = await encodedForm(form);
  const imported = await app.app.request('http://127.0.0.1/api/payments/import', {
    method: 'POST',
    headers: { 'content-type': encoded.contentType, cookie: admin },
    body: encoded.body,
  });
  const { import_id } = (await imported.json()) as { import_id: number };
  const confirmed = await app.request('/api/payments/confirm', { cookie: admin, body: { import_id } });
  expect(confirmed.json, JSON.stringify(confirmed.json)).toMatchObject({ success: true, marked_paid: 1 });
}

async function payOnline(token: string): Promise<string> {
  const answer = await app.request(`/api/order-status/${token}/pay`, { method: 'POST' });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  const id = (answer.json.checkout_url as string).split('/').pop()!;
  await mollie.pay(id);
  await webhook(id);
  return id;
}

const webhook = async (id: string) => {
  const r = await app.request('/api/payments/mollie/webhook', {
    method: 'POST',
    rawBody: `id=${encodeURIComponent(id)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(r.status).toBe(200);
};

const DAY = 24 * 60 * 60 * 1000;

/**
 * The year's traffic: F2026-0001 (2 packages) paid by transfer; F2026-0002 credited by F2026-0003; F2026-0004 paid
 * online, € 10 of it refunded; F2026-0005 paid online and charged back in part; F2026-0006 marked paid by hand.
 */
async function aYearOfTraffic() {
  const transfer = await newOrder(2);
  expect(await sendInvoice(transfer.id)).toBe('F2026-0001');
  await bankTransfer('BANK-0001', '170.70', 'Factuur F2026-0001');

  const credited = await newOrder(1);
  expect(await sendInvoice(credited.id)).toBe('F2026-0002');
  app.clock.advance(DAY);
  const credit = await app.request(`/orders/creditInvoice?id=${credited.id}`, { method: 'POST', cookie: admin });
  expect(credit.json).toMatchObject({ success: true, credit_note_number: 'F2026-0003' });

  const refunded = await newOrder(1);
  expect(await sendInvoice(refunded.id)).toBe('F2026-0004');
  const refundedPayment = await payOnline(refunded.token);
  app.clock.advance(DAY);
  const refund = await app.request(`/orders/refund?id=${refunded.id}`, { cookie: admin, body: { amount: 10 } });
  expect(refund.json).toEqual({ success: true, refunded_amount: 10 });

  const chargedBack = await newOrder(1);
  expect(await sendInvoice(chargedBack.id)).toBe('F2026-0005');
  const chargedBackPayment = await payOnline(chargedBack.token);
  app.clock.advance(DAY);
  await mollie.chargeback(chargedBackPayment, '20.00');
  await webhook(chargedBackPayment);

  const byHand = await newOrder(1);
  expect(await sendInvoice(byHand.id)).toBe('F2026-0006');
  const marked = await app.request('/orders/bulk', { cookie: admin, body: { ids: [byHand.id], action: 'mark_paid' } });
  expect(marked.status, JSON.stringify(marked.json)).toBe(200);
  return { refundedPayment, chargedBackPayment, byHand };
}

describe('the journal of a year', () => {
  it('books every invoice, credit note and payment on the default Dutch accounts, each document balanced', async () => {
    const { refundedPayment, chargedBackPayment, byHand } = await aYearOfTraffic();
    const answer = await journal();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="journaal-2026.csv"');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const row = (l: Line) => [l.datum, l.boekstuk, l.rekening, l.debet, l.credit, l.btw_tarief];
    const of = (document: string) => answer.lines.filter((l) => l.boekstuk === document).map(row);

    expect(of('F2026-0001')).toEqual([
      ['2026-11-22', 'F2026-0001', '1300', '170,70', '0,00', ''],
      ['2026-11-22', 'F2026-0001', '8010', '0,00', '90,00', '9'],
      ['2026-11-22', 'F2026-0001', '1510', '0,00', '8,10', '9'],
      ['2026-11-22', 'F2026-0001', '8000', '0,00', '60,00', '21'],
      ['2026-11-22', 'F2026-0001', '1500', '0,00', '12,60', '21'],
    ]);
    // As it is in the file: CRLF, ';', the amounts with a decimal comma and without quotes.
    expect(answer.text).toContain('\r\n2026-11-22;F2026-0001;Factuur F2026-0001 KP-2026-0001 Klant 1;1300;170,70;0,00;\r\n');
    expect(of('BANK-0001')).toEqual([
      ['2026-12-01', 'BANK-0001', '1100', '170,70', '0,00', ''],
      ['2026-12-01', 'BANK-0001', '1300', '0,00', '170,70', ''],
    ]);
    // The credit note turns its invoice around, on the day it was made.
    expect(of('F2026-0003')).toEqual([
      ['2026-11-23', 'F2026-0003', '1300', '0,00', '85,35', ''],
      ['2026-11-23', 'F2026-0003', '8010', '45,00', '0,00', '9'],
      ['2026-11-23', 'F2026-0003', '1510', '4,05', '0,00', '9'],
      ['2026-11-23', 'F2026-0003', '8000', '30,00', '0,00', '21'],
      ['2026-11-23', 'F2026-0003', '1500', '6,30', '0,00', '21'],
    ]);
    expect(answer.lines.find((l) => l.boekstuk === 'F2026-0003')!.omschrijving).toBe('Creditnota F2026-0003 op factuur F2026-0002 KP-2026-0002 Klant 2');
    expect(of(refundedPayment)).toEqual([
      ['2026-11-23', refundedPayment, '1150', '85,35', '0,00', ''],
      ['2026-11-23', refundedPayment, '1300', '0,00', '85,35', ''],
    ]);
    const [refund] = await app.db.select().from(paymentReversals).where(eq(paymentReversals.kind, 'refund'));
    expect(of(`${refundedPayment}-terugbetaling-${refund!.id}`)).toEqual([
      ['2026-11-24', `${refundedPayment}-terugbetaling-${refund!.id}`, '1150', '0,00', '10,00', ''],
      ['2026-11-24', `${refundedPayment}-terugbetaling-${refund!.id}`, '1300', '10,00', '0,00', ''],
    ]);
    const [chargeback] = await app.db.select().from(paymentReversals).where(eq(paymentReversals.kind, 'chargeback'));
    expect(of(`${chargedBackPayment}-terugboeking-${chargeback!.id}`)).toEqual([
      ['2026-11-25', `${chargedBackPayment}-terugboeking-${chargeback!.id}`, '1150', '0,00', '20,00', ''],
      ['2026-11-25', `${chargedBackPayment}-terugboeking-${chargeback!.id}`, '1300', '20,00', '0,00', ''],
    ]);
    expect(of(byHand.reference)).toEqual([
      ['2026-11-25', byHand.reference, '1100', '85,35', '0,00', ''],
      ['2026-11-25', byHand.reference, '1300', '0,00', '85,35', ''],
    ]);

    // Every document balances, and the lines come by day.
    const documents = new Map<string, number>();
    for (const line of answer.lines) documents.set(line.boekstuk, (documents.get(line.boekstuk) ?? 0) + cents(line.debet) - cents(line.credit));
    expect([...documents.values()].every((sum) => sum === 0)).toBe(true);
    expect(documents.size).toBe(12);
    expect(answer.lines.map((l) => l.datum)).toEqual(answer.lines.map((l) => l.datum).sort());

    // The year's sums are the totals: revenue and VAT of the invoices that stand, and what the accounts hold.
    const balance = (account: string) => answer.lines.filter((l) => l.rekening === account).reduce((sum, l) => sum + cents(l.debet) - cents(l.credit), 0);
    const totals = (await app.request('/orders/totals', { cookie: admin })).json;
    expect(-(balance('8000') + balance('8010') + balance('8020'))).toBe(Math.round(totals.revenue_excl * 100));
    expect(-(balance('8000') + balance('8010') + balance('8020') + balance('1500') + balance('1510'))).toBe(Math.round(totals.revenue_incl * 100));
    expect(balance('1100')).toBe(17070 + 8535);
    expect(balance('1150')).toBe(8535 + 8535 - 1000 - 2000);
    // What customers still owe: the two online payments' € 10 and € 20 sent back.
    expect(balance('1300')).toBe(3000);

    const [audit] = await app.db.select().from(auditLog).where(eq(auditLog.action, 'journal.exported')).orderBy(asc(auditLog.id));
    expect(JSON.parse(audit!.details!)).toEqual({ year: 2026, lines: answer.lines.length });
  });

  it('books on the accounts the club set, and books nothing of another year', async () => {
    const transfer = await newOrder(1);
    await sendInvoice(transfer.id);
    await setSettings(app, admin, {
      ledger_debtors: '130',
      ledger_revenue_9: 'OMZ-LAAG',
      ledger_vat_9: '1600.9',
      ledger_revenue_21: '8000.21',
      ledger_vat_21: '1600.21',
    });
    expect((await journal()).lines.map((l) => l.rekening)).toEqual(['130', 'OMZ-LAAG', '1600.9', '8000.21', '1600.21']);
    const other = await journal('?year=2025');
    expect(other.status).toBe(200);
    expect(other.lines).toEqual([]);
    expect(other.headers.get('content-disposition')).toBe('attachment; filename="journaal-2025.csv"');
    // Without a year: this year in Dutch time.
    expect((await journal('')).lines).toHaveLength(5);
  });

  it('counts a moment by its day in Dutch time: 1 January 00:30 there is the new year', async () => {
    app.clock.advance(new Date('2026-12-31T23:30:00.000Z').getTime() - app.clock.now().getTime());
    // The session of November has run out by then.
    admin = await app.cookieFor('admin');
    const order = await newOrder(1);
    await sendInvoice(order.id);
    expect((await journal('?year=2026')).lines).toEqual([]);
    expect((await journal('?year=2027')).lines.map((l) => l.datum)).toEqual(Array(5).fill('2027-01-01'));
  });

  it('refuses a ledger account that is not one, a year that is none, and anyone without management access', async () => {
    const bad = await app.request('/api/settings/update', { cookie: admin, body: { key: 'ledger_bank', value: 'bank; 1100' } });
    expect([bad.status, bad.json]).toEqual([
      400,
      { success: false, error: 'Value must be a ledger account: 1 to 20 letters, digits, dots or dashes (e.g. 8000).', code: 'LEDGER_ACCOUNT_INVALID' },
    ]);
    for (const year of ['1999', '26', 'twee']) {
      const refused = await journal(`?year=${year}`);
      expect([refused.status, JSON.parse(refused.text)]).toEqual([
        400,
        { success: false, error: 'year must be a year between 2000 and 2100', code: 'FIELD_INVALID', field: 'year' },
      ]);
    }
    await app.createUser('gewoon');
    const plain = await journal('?year=2026', await app.cookieFor('gewoon'));
    expect(plain.status).toBe(403);
    const anonymous = await app.app.request('http://127.0.0.1/orders/export/journal.csv?year=2026');
    expect(anonymous.status).toBe(401);
  });

  it('keeps the dated refunds and chargebacks through a restore, and dates them anew from an export made before they were kept', async () => {
    await aYearOfTraffic();
    const before = await journal();
    const reversals = await app.db.select().from(paymentReversals).orderBy(asc(paymentReversals.id));
    expect(reversals.map((r) => [r.kind, r.amountCents])).toEqual([
      ['refund', 1000],
      ['chargeback', 2000],
    ]);

    // A restore of today's export: the same rows (no trigger fires on an insert), so the same journal.
    const exported = await exportTables(app.database, app.clock.now());
    await importTables(app.database, exported);
    expect(await app.db.select().from(paymentReversals).orderBy(asc(paymentReversals.id))).toEqual(reversals);
    expect((await journal()).text).toBe(before.text);

    // An export from before migration 0017 has no such table: each payment's totals are booked on its last change.
    await importTables(app.database, { ...exported, tables: exported.tables.filter((table) => table.name !== 'payment_reversals') });
    const dated = await app.db.select().from(paymentReversals).orderBy(asc(paymentReversals.id));
    expect(dated.map((r) => [r.kind, r.amountCents, r.bookedAt.slice(0, 10)])).toEqual([
      ['refund', 1000, '2026-11-24'],
      ['chargeback', 2000, '2026-11-25'],
    ]);
  });
});
