import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, bankEntries, orders, paymentImports } from '../../src/db/schema';
import { EMPTY_FILE, IS_CAMT054, NOT_CAMT053, STATEMENT_TOO_LARGE } from '../../src/features/payments/camt053';
import { NO_STATEMENT_FILE, NOT_A_FORM_UPLOAD } from '../../src/features/payments/payments.routes';
import type { ImportResult } from '../../src/features/payments/payments.service';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, transports } from '../support/transports';
import { encodedForm } from '../support/encoded-form';

/**
 * docs/architecture.md §5 invoices and payments: POST /api/payments/import (a CAMT.053 statement, multipart `file`,
 * REST only) previews which order each incoming transfer pays; POST /api/payments/confirm (and tRPC
 * payments.confirm) marks them paid with the booking date, never twice.
 */

let t: TestApp;
let admin: string;

const [rest, trpc] = transports<'confirm' | 'imports' | 'entries' | 'forOrder'>(() => t, {
  rest: {
    confirm: ['POST', '/api/payments/confirm'],
    // The lists are tRPC only; their REST rows are never called.
    imports: ['GET', '/unused'],
    entries: ['GET', '/unused'],
    forOrder: ['GET', '/unused'],
  },
  trpc: {
    confirm: ['mutation', 'payments.confirm'],
    imports: ['query', 'payments.imports'],
    entries: ['query', 'payments.entries'],
    forOrder: ['query', 'payments.forOrder'],
  },
});

const fixture = (name: string) => readFileSync(join(process.cwd(), 'test/fixtures/camt053', name));
const ING = fixture('ing-v02.xml');

beforeEach(async () => {
  t = await createTestApp();
  admin = await t.cookieFor('admin');
});

afterEach(async () => {
  // Refusals are answers, never logged crashes.
  expect(t.errors).toEqual([]);
  await t.close();
});

/** An order made by the admin over REST (references KP-2026-0001, -0002, … in this order); answers its id. */
async function createOrder(amount: number): Promise<number> {
  const r = await t.request('/orders/create', {
    cookie: admin,
    body: {
      name: 'Marieke de Vries',
      email: 'marieke@example.nl',
      phone: '0612345678',
      address: 'Noorderhaven 12',
      postal_code: '8861 AL',
      city: 'Harlingen',
      amount,
    },
  });
  expect(r.json?.success, JSON.stringify(r.json)).toBe(true);
  const [row] = await t.db.select({ id: orders.id }).from(orders).where(eq(orders.reference, r.json.order_reference));
  return row!.id;
}

/** Gives an order an issued invoice straight in the database (sending one needs the club's real details). */
async function invoice(id: number, invoiceNumber: string, totalCents: number) {
  await t.db
    .update(orders)
    .set({ invoiceNumber, invoiceTotalCents: totalCents, invoiceDate: '2026-11-22T10:00:00.000Z', invoiceSent: true })
    .where(eq(orders.id, id));
}

/**
 * The orders the ING fixture names: F2026-0001 (272.25), KP-2026-0002 (two packages, not invoiced:
 * 181.50 by today's price), F2026-0003 (90.75, the statement pays 100.00) and F2026-0004 (90.75, in a batch).
 */
async function ingOrders() {
  const o1 = await createOrder(3);
  const o2 = await createOrder(2);
  const o3 = await createOrder(1);
  const o4 = await createOrder(1);
  await invoice(o1, 'F2026-0001', 27225);
  await invoice(o3, 'F2026-0003', 9075);
  await invoice(o4, 'F2026-0004', 9075);
  return { o1, o2, o3, o4 };
}

async function upload(
  file: Uint8Array | string | null,
  options: { cookie?: string | null; filename?: string; field?: string; headers?: Record<string, string> } = {},
) {
  const form = new FormData();
  form.append('note', 'ignored');
  if (file !== null) {
    const bytes = typeof file === 'string' ? new TextEncoder().encode(file) : file;
    form.append(options.field ?? 'file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'text/xml' }), options.filename ?? 'afschrift.xml');
  }
  const cookie = options.cookie === undefined ? admin : options.cookie;
  const encoded = await encodedForm(form);
  const response = await t.app.request('http://127.0.0.1/api/payments/import', {
    method: 'POST',
    headers: { 'content-type': encoded.contentType, ...(cookie ? { cookie } : {}), ...options.headers },
    body: encoded.body,
  });
  // A failure's `{ success: false, error }` is only ever compared whole.
  return { status: response.status, json: (await response.json()) as ImportResult };
}

async function importIng(cookie = admin) {
  const r = await upload(ING, { cookie, filename: 'ing-v02.xml' });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json as { success: true; import_id: number; entries: { status: string; order_id?: number }[] };
}

/** A v02 statement of the same account holding only the ING fixture's first booking (same bank reference). */
const FIRST_BOOKING_ONLY = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>ING-20261201</MsgId></GrpHdr>
<Stmt><Id>20261201</Id><Acct><Id><IBAN>NL69INGB0123456789</IBAN></Id></Acct>
<Ntry><Amt Ccy="EUR">272.25</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-12-01</Dt></BookgDt>
<AcctSvcrRef>NL69INGB0123456789-20261201-000001</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Dbtr><Nm>M. de Vries</Nm></Dbtr></RltdPties>
<RmtInf><Ustrd>Factuur F2026-0001 kerstpakketten</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry></Stmt></BkToCstmrStmt></Document>`;

const orderRow = async (id: number) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const auditOf = (action: string) => t.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(asc(auditLog.id));

describe('importing a statement (POST /api/payments/import)', () => {
  it('previews all four statuses with the order each transfer names, and marks nothing paid', async () => {
    const { o1, o2, o3, o4 } = await ingOrders();
    const first = await upload(FIRST_BOOKING_ONLY);
    expect(first.json.entries.map((e) => e.status)).toEqual(['matched']);
    expect((await rest.call('confirm', { cookie: admin, body: { import_id: first.json.import_id } })).data).toEqual({ success: true, marked_paid: 1 });

    const r = await upload(ING, { filename: 'ing-v02.xml' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      success: true,
      import_id: first.json.import_id + 1,
      entries: [
        {
          entry_ref: 'NL69INGB0123456789-20261201-000001',
          booked_at: '2026-12-01',
          amount: 272.25,
          counterparty: 'M. de Vries',
          remittance: 'Factuur F2026-0001 kerstpakketten',
          status: 'already_imported',
          order_id: o1,
          reference: 'KP-2026-0001',
        },
        {
          entry_ref: 'NL69INGB0123456789-20261202-000002',
          booked_at: '2026-12-02',
          amount: 181.5,
          counterparty: 'J. Bakker & Zn.',
          remittance: 'kerstpakket bestelling kp 2026 0002',
          status: 'matched',
          order_id: o2,
          reference: 'KP-2026-0002',
        },
        {
          entry_ref: 'NL69INGB0123456789-20261202-000003',
          booked_at: '2026-12-02',
          amount: 100,
          counterparty: 'P. Visser',
          remittance: 'f20260003',
          status: 'amount_mismatch',
          order_id: o3,
          reference: 'KP-2026-0003',
        },
        {
          entry_ref: 'NL69INGB0123456789-20261203-000004',
          booked_at: '2026-12-03',
          amount: 25,
          counterparty: 'Stichting Vrienden van Harlingen',
          remittance: 'Gift kerstactie',
          status: 'unmatched',
        },
        {
          entry_ref: 'NL69INGB0123456789-20261203-000006/1',
          booked_at: '2026-12-03',
          amount: 90.75,
          counterparty: 'A. Hoekstra',
          remittance: 'F2026-0004',
          status: 'matched',
          order_id: o4,
          reference: 'KP-2026-0004',
        },
        {
          entry_ref: 'NL69INGB0123456789-20261203-000006/2',
          booked_at: '2026-12-03',
          amount: 50,
          counterparty: 'S. Dijkstra',
          remittance: 'Bijdrage goede doel',
          status: 'unmatched',
        },
      ],
      skipped: [
        {
          entry_ref: 'NL69INGB0123456789-20261203-000007',
          booked_at: '2026-12-03',
          reason: 'Bedrag in USD: alleen bijschrijvingen in euro kunnen een factuur betalen.',
        },
      ],
    });

    // Only the first confirm paid anything; the preview changed nothing.
    expect((await orderRow(o1)).paid).toBe(true);
    for (const id of [o2, o3, o4]) expect(await orderRow(id)).toMatchObject({ paid: false, paidAt: null });
    const stored = await t.db.select().from(bankEntries).where(eq(bankEntries.importId, r.json.import_id));
    expect(stored).toHaveLength(6);
    expect(stored.every((e) => e.appliedAt === null)).toBe(true);
    const [imported] = await auditOf('payments.imported').then((rows) => rows.slice(-1));
    expect(imported).toMatchObject({ actorUsername: 'admin', target: `import:${r.json.import_id} (ing-v02.xml)` });
    expect(JSON.parse(imported!.details)).toEqual({ entries: 6, matched: 2, amount_mismatch: 1, unmatched: 2, already_imported: 1, skipped: 1 });
  });

  it('reads a camt.053.001.08 statement (Rabobank style) with structured references and a batch', async () => {
    const ids: number[] = [];
    for (let i = 1; i <= 8; i++) ids.push(await createOrder(i === 6 ? 2 : i === 8 ? 3 : 1));
    await invoice(ids[4]!, 'F2026-0005', 9075);
    await invoice(ids[6]!, 'F2026-0007', 9075);
    const r = await upload(fixture('rabobank-v08.xml'));
    expect(r.status).toBe(200);
    expect(r.json.entries.map((e) => [e.entry_ref, e.amount, e.status, e.reference ?? null])).toEqual([
      ['RABO-2026-12-10-000001', 90.75, 'matched', 'KP-2026-0005'],
      ['RABO-2026-12-10-000002', 181.5, 'matched', 'KP-2026-0006'],
      ['', 10, 'unmatched', null],
      ['RABO-2026-12-10-000006-A', 90.75, 'matched', 'KP-2026-0007'],
      ['RABO-2026-12-10-000006-B', 272.25, 'matched', 'KP-2026-0008'],
    ]);
  });

  it('names a credited order and an order a bank booking paid before, but matches neither', async () => {
    const { o1, o2 } = await ingOrders();
    await t.db.update(orders).set({ cancelled: true, creditNoteNumber: 'F2026-0009' }).where(eq(orders.id, o1));
    // KP-2026-0002 was paid by another booking (another statement).
    const other = await upload(
      FIRST_BOOKING_ONLY.replace('Factuur F2026-0001 kerstpakketten', 'KP-2026-0002').replace('272.25', '181.50').replace('000001', '000099'),
    );
    expect(other.json.entries[0]).toMatchObject({ status: 'matched', order_id: o2 });
    await rest.call('confirm', { cookie: admin, body: { import_id: other.json.import_id } });

    const r = await upload(ING);
    expect(r.json.entries.slice(0, 2).map((e) => [e.status, e.order_id, e.reference])).toEqual([
      ['unmatched', o1, 'KP-2026-0001'],
      ['unmatched', o2, 'KP-2026-0002'],
    ]);
  });

  it.each([
    ['an empty file', '', 400, EMPTY_FILE],
    ['plain text', 'Datum;Bedrag;Omschrijving\n2026-12-01;272,25;F2026-0001\n', 400, NOT_CAMT053],
    [
      'an HTML page (the bank\u2019s login page saved by mistake)',
      '<!DOCTYPE html>\n<html lang="nl"><head><title>Mijn ING</title></head><body><p>Log in<br></p></body></html>',
      400,
      NOT_CAMT053,
    ],
    ['a camt.054 notification', fixture('notification-camt054.xml'), 400, IS_CAMT054],
  ])('refuses %s with a Dutch explanation and keeps nothing', async (_what, file, status, message) => {
    const r = await upload(file);
    expect(r.status).toBe(status);
    expect(r.json).toEqual({ success: false, error: message });
    expect(await t.db.select().from(paymentImports)).toEqual([]);
  });

  it('refuses a 6 MB file with 413, announced or streamed without a length', async () => {
    const big = new Uint8Array(6 * 1024 * 1024).fill(0x20);
    const announced = await upload(big);
    expect(announced.status).toBe(413);
    expect(announced.json).toEqual({ success: false, error: STATEMENT_TOO_LARGE });

    const boundary = 'kerstactieBoundary';
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="groot.xml"\r\nContent-Type: text/xml\r\n\r\n`,
    );
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(head);
        if (sent >= 6 * 1024 * 1024) return controller.close();
        controller.enqueue(new Uint8Array(256 * 1024).fill(0x20));
        sent += 256 * 1024;
      },
    });
    const response = await t.app.request('http://127.0.0.1/api/payments/import', {
      method: 'POST',
      headers: { cookie: admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ success: false, error: STATEMENT_TOO_LARGE });
    // The reader stopped just past the limit instead of reading the whole body.
    expect(sent).toBeLessThan(6 * 1024 * 1024);
    expect(await t.db.select().from(paymentImports)).toEqual([]);
  });

  it('asks for a file when the form has none, and for a form when the body is not one', async () => {
    expect(await upload(null)).toEqual({ status: 400, json: { success: false, error: NO_STATEMENT_FILE } });
    expect(await upload(ING, { field: 'statement' })).toEqual({ status: 400, json: { success: false, error: NO_STATEMENT_FILE } });
    const json = await t.request('/api/payments/import', { cookie: admin, body: { file: '<Document/>' } });
    expect(json.status).toBe(400);
    expect(json.json).toEqual({ success: false, error: NOT_A_FORM_UPLOAD });
  });
});

describe.each([rest, trpc])('confirming an import over $name', (tr) => {
  it('marks the matched orders paid on their booking date, once, and writes the audit log', async () => {
    const { o1, o2, o3, o4 } = await ingOrders();
    const { import_id } = await importIng();
    const r = await tr.call('confirm', { cookie: admin, body: { import_id } });
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ success: true, marked_paid: 3 });

    expect(await orderRow(o1)).toMatchObject({ paid: true, paidAt: '2026-12-01' });
    expect(await orderRow(o2)).toMatchObject({ paid: true, paidAt: '2026-12-02' });
    expect(await orderRow(o3)).toMatchObject({ paid: false, paidAt: null });
    expect(await orderRow(o4)).toMatchObject({ paid: true, paidAt: '2026-12-03' });
    const applied = await t.db
      .select()
      .from(bankEntries)
      .where(and(eq(bankEntries.importId, import_id)));
    expect(applied.filter((e) => e.appliedAt !== null).map((e) => e.orderId)).toEqual([o1, o2, o4]);
    expect((await t.db.select().from(paymentImports).where(eq(paymentImports.id, import_id)))[0]!.confirmedAt).toBe('2026-11-22T10:00:00.000Z');

    const paid = await auditOf('order.paid');
    expect(paid.map((a) => [a.target, JSON.parse(a.details)])).toEqual([
      [`order:${o1} (KP-2026-0001)`, { paid: [false, true], paid_at: '2026-12-01', bank_entry: 'NL69INGB0123456789-20261201-000001', import_id }],
      [`order:${o2} (KP-2026-0002)`, { paid: [false, true], paid_at: '2026-12-02', bank_entry: 'NL69INGB0123456789-20261202-000002', import_id }],
      [`order:${o4} (KP-2026-0004)`, { paid: [false, true], paid_at: '2026-12-03', bank_entry: 'NL69INGB0123456789-20261203-000006/1', import_id }],
    ]);
    const confirmed = await auditOf('payments.confirmed');
    expect(confirmed.map((a) => [a.actorUsername, a.target, JSON.parse(a.details)])).toEqual([
      ['admin', `import:${import_id} (ing-v02.xml)`, { import_id, marked_paid: 3 }],
    ]);

    // Confirming again pays nothing and writes nothing.
    expect((await tr.call('confirm', { cookie: admin, body: { import_id } })).data).toEqual({ success: true, marked_paid: 0 });
    expect(await auditOf('order.paid')).toHaveLength(3);
    expect(await auditOf('payments.confirmed')).toHaveLength(1);
  });

  it('answers already_imported for the same statement again, and its confirm pays nothing, even for an order marked unpaid since', async () => {
    const { o1 } = await ingOrders();
    const first = await importIng();
    await tr.call('confirm', { cookie: admin, body: { import_id: first.import_id } });
    // The treasurer takes one payment back by hand (a reversed transfer).
    expect((await t.request('/trpc/orders.setPaid', { cookie: admin, body: { id: o1, paid: false } })).status).toBe(200);

    const again = await importIng();
    expect(again.entries.map((e) => e.status)).toEqual([
      'already_imported',
      'already_imported',
      'amount_mismatch',
      'unmatched',
      'already_imported',
      'unmatched',
    ]);
    const r = await tr.call('confirm', { cookie: admin, body: { import_id: again.import_id } });
    expect(r.data).toEqual({ success: true, marked_paid: 0 });
    expect(await orderRow(o1)).toMatchObject({ paid: false });
    // The first preview, confirmed once more, does not pay the booking again either.
    expect((await tr.call('confirm', { cookie: admin, body: { import_id: first.import_id } })).data).toEqual({ success: true, marked_paid: 0 });
    expect(await orderRow(o1)).toMatchObject({ paid: false });
  });

  it('pays once when two previews of one statement, and one preview twice, are confirmed at the same moment', async () => {
    const { o1, o2, o4 } = await ingOrders();
    const a = await importIng();
    const b = await importIng();
    expect(b.entries.map((e) => e.status)).toEqual(a.entries.map((e) => e.status));
    const answers = await Promise.all([a, b, a, b].map(({ import_id }) => tr.call('confirm', { cookie: admin, body: { import_id } })));
    expect(answers.map((x) => x.status)).toEqual([200, 200, 200, 200]);
    expect(answers.reduce((sum, x) => sum + x.data.marked_paid, 0)).toBe(3);
    for (const id of [o1, o2, o4]) {
      const entries = await t.db.select().from(bankEntries).where(eq(bankEntries.orderId, id));
      expect(
        entries.filter((e) => e.appliedAt !== null),
        `order ${id}`,
      ).toHaveLength(1);
    }
    expect(await auditOf('order.paid')).toHaveLength(3);
    expect(await auditOf('payments.confirmed')).toHaveLength(2);
  });

  it('links the booking to an order marked paid by hand and keeps its paid date', async () => {
    const { o1 } = await ingOrders();
    await t.db.update(orders).set({ paid: true, paidAt: '2026-11-30T15:00:00.000Z' }).where(eq(orders.id, o1));
    const { import_id, entries } = await importIng();
    expect(entries[0]).toMatchObject({ status: 'matched', order_id: o1 });
    expect((await tr.call('confirm', { cookie: admin, body: { import_id } })).data).toEqual({ success: true, marked_paid: 2 });
    expect(await orderRow(o1)).toMatchObject({ paid: true, paidAt: '2026-11-30T15:00:00.000Z' });
    expect((await trpc.call('forOrder', { cookie: admin, body: { order_id: o1 } })).data.payment).toMatchObject({ booked_at: '2026-12-01', amount: 272.25 });
    expect((await importIng()).entries[0]!.status).toBe('already_imported');
  });

  it('answers 404 for an unknown import and 400 for a malformed id', async () => {
    expectFailure(tr, await tr.call('confirm', { cookie: admin, body: { import_id: 999 } }), 404, 'Deze import van een bankafschrift bestaat niet.');
    expectFailure(tr, await tr.call('confirm', { cookie: admin, body: { import_id: 'abc' } }), 400, 'Geef een geldig importnummer (import_id).');
    expectFailure(tr, await tr.call('confirm', { cookie: admin, body: {} }), 400, 'Geef een geldig importnummer (import_id).');
  });

  it('refuses a visitor with 401 and a plain user with 403, and lets a treasurer (Penningmeesters) confirm', async () => {
    const { o1 } = await ingOrders();
    await t.createUser(`${tr.p}plain`);
    await t.createUser(`${tr.p}treasurer`, ['Penningmeesters']);
    const plain = await t.cookieFor(`${tr.p}plain`);
    const treasurer = await t.cookieFor(`${tr.p}treasurer`);

    const { import_id } = await importIng(treasurer);
    expectFailure(tr, await tr.call('confirm', { body: { import_id } }), 401, 'Not logged in');
    expectFailure(tr, await tr.call('confirm', { cookie: plain, body: { import_id } }), 403, 'Forbidden');
    expect(await orderRow(o1)).toMatchObject({ paid: false });
    expect((await tr.call('confirm', { cookie: treasurer, body: { import_id } })).data).toEqual({ success: true, marked_paid: 3 });
    expect((await auditOf('payments.confirmed'))[0]!.actorUsername).toBe(`${tr.p}treasurer`);
  });
});

describe('who may upload a statement', () => {
  it('refuses a visitor with 401 and a plain user with 403 before reading the file', async () => {
    await t.createUser('plain');
    expect(await upload(ING, { cookie: null })).toEqual({ status: 401, json: { success: false, error: 'Not logged in' } });
    expect(await upload(ING, { cookie: await t.cookieFor('plain') })).toEqual({ status: 403, json: { success: false, error: 'Forbidden' } });
    expect(await t.db.select().from(paymentImports)).toEqual([]);
  });

  it('refuses an upload from another site', async () => {
    const r = await upload(ING, { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(r.status).toBe(403);
    expect(await t.db.select().from(paymentImports)).toEqual([]);
  });
});

describe('the payments views for the back-office (tRPC)', () => {
  it('lists imports with their counts, an import with its entries, and the booking that paid an order', async () => {
    const { o1, o3 } = await ingOrders();
    const { import_id } = await importIng();
    await trpc.call('confirm', { cookie: admin, body: { import_id } });

    const list = await trpc.call('imports', { cookie: admin });
    expect(list.data).toEqual({
      imports: [
        {
          id: import_id,
          filename: 'ing-v02.xml',
          created_at: '2026-11-22T10:00:00.000Z',
          created_by: 'admin',
          confirmed_at: '2026-11-22T10:00:00.000Z',
          entries: 6,
          matched: 3,
          amount_mismatch: 1,
          unmatched: 2,
          already_imported: 0,
          applied: 3,
        },
      ],
    });

    const detail = await trpc.call('entries', { cookie: admin, body: { import_id } });
    expect(detail.data.import.id).toBe(import_id);
    expect(detail.data.entries[0]).toEqual({
      id: expect.any(Number),
      entry_ref: 'NL69INGB0123456789-20261201-000001',
      booked_at: '2026-12-01',
      amount: 272.25,
      counterparty: 'M. de Vries',
      remittance: 'Factuur F2026-0001 kerstpakketten',
      status: 'matched',
      order_id: o1,
      reference: 'KP-2026-0001',
      applied_at: '2026-11-22T10:00:00.000Z',
    });
    expect(detail.data.entries[2]).toMatchObject({ status: 'amount_mismatch', order_id: o3, applied_at: null });
    expectFailure(trpc, await trpc.call('entries', { cookie: admin, body: { import_id: 999 } }), 404, 'Deze import van een bankafschrift bestaat niet.');

    expect((await trpc.call('forOrder', { cookie: admin, body: { order_id: o1 } })).data).toEqual({
      payment: {
        entry_ref: 'NL69INGB0123456789-20261201-000001',
        booked_at: '2026-12-01',
        amount: 272.25,
        counterparty: 'M. de Vries',
        remittance: 'Factuur F2026-0001 kerstpakketten',
        import_id,
        applied_at: '2026-11-22T10:00:00.000Z',
      },
    });
    expect((await trpc.call('forOrder', { cookie: admin, body: { order_id: o3 } })).data).toEqual({ payment: null });
    expectFailure(trpc, await trpc.call('forOrder', { cookie: admin, body: { order_id: 999 } }), 404, 'Bestelling niet gevonden.');
    expectFailure(trpc, await trpc.call('imports', {}), 401, 'Not logged in');
  });
});
