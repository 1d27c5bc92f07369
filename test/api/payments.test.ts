import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { migrateLibsqlDb, openLibsqlDb } from '../../src/db/libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, bankEntries, orders, paymentImports, tablers } from '../../src/db/schema';
import { EMPTY_FILE, IS_CAMT054, NOT_CAMT053, STATEMENT_TOO_LARGE } from '../../src/features/payments/camt053';
import { NO_STATEMENT_FILE, NOT_A_FORM_UPLOAD } from '../../src/features/payments/payments.routes';
import type { ImportResult } from '../../src/features/payments/payments.service';
import {
  ALREADY_RESOLVED,
  CHANGED_MEANWHILE,
  ENTRY_NOT_FOUND,
  NOT_A_FOLLOW_UP,
  ORDER_ALREADY_PAID,
  ORDER_CREDITED,
  ORDER_PAID_BY_BANK,
  ORDER_REQUIRED,
  REASON_REQUIRED,
} from '../../src/features/payments/follow-ups.service';
import { ACTION_INVALID, ENTRY_ID_INVALID, ORDER_CHOICE_MISSING, REFERENCE_INVALID } from '../../src/features/payments/payments.schemas';
import { paidByPartPayments } from '../../src/features/orders/orders.service';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, transports } from '../support/transports';
import { encodedForm } from '../support/encoded-form';
import { anyCode } from '../support/refusal';

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
  // A failure's `{ success: false, error, code }` is only ever compared whole.
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
    expect((await rest.call('confirm', { cookie: admin, body: { import_id: first.json.import_id } })).data).toEqual({
      success: true,
      marked_paid: 1,
      follow_ups: 0,
    });

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
    expect(r.json).toMatchObject({ success: false, error: message, code: anyCode });
    expect(await t.db.select().from(paymentImports)).toEqual([]);
  });

  it('refuses a 6 MB file with 413, announced or streamed without a length', async () => {
    const big = new Uint8Array(6 * 1024 * 1024).fill(0x20);
    const announced = await upload(big);
    expect(announced.status).toBe(413);
    expect(announced.json).toMatchObject({ success: false, error: STATEMENT_TOO_LARGE, code: 'STATEMENT_TOO_LARGE' });

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
    expect(await response.json()).toMatchObject({ success: false, error: STATEMENT_TOO_LARGE, code: 'STATEMENT_TOO_LARGE' });
    // The reader stopped just past the limit instead of reading the whole body.
    expect(sent).toBeLessThan(6 * 1024 * 1024);
    expect(await t.db.select().from(paymentImports)).toEqual([]);
  });

  it('asks for a file when the form has none, and for a form when the body is not one', async () => {
    expect(await upload(null)).toMatchObject({ status: 400, json: { success: false, error: NO_STATEMENT_FILE, code: 'NO_STATEMENT_FILE' } });
    expect(await upload(ING, { field: 'statement' })).toMatchObject({
      status: 400,
      json: { success: false, error: NO_STATEMENT_FILE, code: 'NO_STATEMENT_FILE' },
    });
    const json = await t.request('/api/payments/import', { cookie: admin, body: { file: '<Document/>' } });
    expect(json.status).toBe(400);
    expect(json.json).toMatchObject({ success: false, error: NOT_A_FORM_UPLOAD, code: 'NOT_A_FORM_UPLOAD' });
  });
});

describe.each([rest, trpc])('confirming an import over $name', (tr) => {
  it('marks the matched orders paid on their booking date, once, and writes the audit log', async () => {
    const { o1, o2, o3, o4 } = await ingOrders();
    const { import_id } = await importIng();
    const r = await tr.call('confirm', { cookie: admin, body: { import_id } });
    expect(r.status).toBe(200);
    // The differing credit and the two that name no order stay for the treasurer (docs/decisions/057).
    expect(r.data).toEqual({ success: true, marked_paid: 3, follow_ups: 3 });

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
      ['admin', `import:${import_id} (ing-v02.xml)`, { import_id, marked_paid: 3, follow_ups: 3 }],
    ]);

    // Confirming again pays nothing, opens nothing and writes nothing.
    expect((await tr.call('confirm', { cookie: admin, body: { import_id } })).data).toEqual({ success: true, marked_paid: 0, follow_ups: 0 });
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
    // The credits left open by the first confirm are marked as such, and stay one follow-up each.
    expect(again.entries.map((e) => (e as { follow_up?: string }).follow_up ?? null)).toEqual([null, null, 'open', 'open', null, 'open']);
    const r = await tr.call('confirm', { cookie: admin, body: { import_id: again.import_id } });
    expect(r.data).toEqual({ success: true, marked_paid: 0, follow_ups: 0 });
    expect(await orderRow(o1)).toMatchObject({ paid: false });
    // The first preview, confirmed once more, does not pay the booking again either.
    expect((await tr.call('confirm', { cookie: admin, body: { import_id: first.import_id } })).data).toEqual({ success: true, marked_paid: 0, follow_ups: 0 });
    expect((await t.db.select().from(bankEntries)).filter((e) => e.followUpAt !== null)).toHaveLength(3);
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
    expect(answers.reduce((sum, x) => sum + x.data.follow_ups, 0)).toBe(3);
    expect((await t.db.select().from(bankEntries)).filter((e) => e.followUpAt !== null)).toHaveLength(3);
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
    expect((await tr.call('confirm', { cookie: admin, body: { import_id } })).data).toEqual({ success: true, marked_paid: 2, follow_ups: 3 });
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
    expect((await tr.call('confirm', { cookie: treasurer, body: { import_id } })).data).toEqual({ success: true, marked_paid: 3, follow_ups: 3 });
    expect((await auditOf('payments.confirmed'))[0]!.actorUsername).toBe(`${tr.p}treasurer`);
  });
});

describe('who may upload a statement', () => {
  it('refuses a visitor with 401 and a plain user with 403 before reading the file', async () => {
    await t.createUser('plain');
    expect(await upload(ING, { cookie: null })).toMatchObject({ status: 401, json: { success: false, error: 'Not logged in', code: 'NOT_LOGGED_IN' } });
    expect(await upload(ING, { cookie: await t.cookieFor('plain') })).toMatchObject({
      status: 403,
      json: { success: false, error: 'Forbidden', code: 'FORBIDDEN' },
    });
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
          statement_id: '20261203-NL69INGB0123456789',
          period_from: '2026-12-01',
          period_to: '2026-12-03',
          entries: 6,
          matched: 3,
          amount_mismatch: 1,
          unmatched: 2,
          already_imported: 0,
          skipped: 1,
          applied: 3,
          follow_ups: 3,
          open_follow_ups: 3,
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
      outcome: 'paid',
      settled: true,
      resolved_at: null,
      resolved_by: null,
      reason: null,
    });
    expect(detail.data.entries[2]).toMatchObject({ status: 'amount_mismatch', order_id: o3, applied_at: null, outcome: 'open' });
    expect(detail.data.skipped).toEqual([
      {
        entry_ref: 'NL69INGB0123456789-20261203-000007',
        booked_at: '2026-12-03',
        reason: 'Bedrag in USD: alleen bijschrijvingen in euro kunnen een factuur betalen.',
      },
    ]);
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

/**
 * docs/decisions/057: what 'Verwerken' cannot book stays as a follow-up until the treasurer books it on an
 * order (as a part-payment or as full payment) or dismisses it with a reason; an order carries what
 * part-payments brought in, and one bank transaction is booked once.
 */
const [restFollowUps, trpcFollowUps] = transports<'followUps' | 'resolve' | 'imports'>(() => t, {
  rest: {
    followUps: ['GET', '/api/payments/follow-ups'],
    resolve: ['POST', '/api/payments/follow-ups/resolve'],
    imports: ['GET', '/api/payments/imports'],
  },
  trpc: {
    followUps: ['query', 'payments.followUps'],
    resolve: ['mutation', 'payments.resolve'],
    imports: ['query', 'payments.imports'],
  },
});

type Credit = { ref: string; date: string; amount: string; remittance: string; payer?: string };

/** A camt.053.001.02 statement of the ING fixture's account with these credits. */
function statementOf(credits: Credit[], id = 'STMT-1'): string {
  const entries = credits
    .map(
      (c) =>
        `<Ntry><Amt Ccy="EUR">${c.amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>${c.date}</Dt></BookgDt>` +
        `<AcctSvcrRef>${c.ref}</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Dbtr><Nm>${c.payer ?? 'P. Visser'}</Nm></Dbtr></RltdPties>` +
        `<RmtInf><Ustrd>${c.remittance}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>1</MsgId></GrpHdr>
<Stmt><Id>${id}</Id><Acct><Id><IBAN>NL69INGB0123456789</IBAN></Id></Acct>${entries}</Stmt></BkToCstmrStmt></Document>`;
}

/** Reads in and processes a statement; answers the import's id and the confirm's answer. */
async function importAndConfirm(xml: string | Uint8Array, cookie = admin) {
  const r = await upload(xml, { cookie });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  const { import_id } = r.json as { import_id: number };
  const confirmed = await rest.call('confirm', { cookie, body: { import_id } });
  expect(confirmed.status).toBe(200);
  return { import_id, confirmed: confirmed.data as { marked_paid: number; follow_ups: number } };
}

type FollowUp = {
  id: number;
  entry_ref: string;
  status: string;
  amount: number;
  order: { reference: string; paid_amount: number; open_amount: number } | null;
};

async function openFollowUps(cookie = admin): Promise<FollowUp[]> {
  const r = await restFollowUps.call('followUps', { cookie });
  expect(r.status).toBe(200);
  return r.data.follow_ups;
}

async function followUpFor(entryRef: string): Promise<FollowUp> {
  const found = (await openFollowUps()).find((f) => f.entry_ref === entryRef);
  expect(found, `an open follow-up for ${entryRef}`).toBeDefined();
  return found!;
}

/** GET /api/payments/order over REST, or tRPC payments.order, by id or by KP/F number. */
async function balance(tr: { name: string }, query: { order_id?: number | string; reference?: string }) {
  if (tr.name === 'REST') {
    const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const r = await t.request(`/api/payments/order?${params}`, { cookie: admin });
    return { status: r.status, json: r.json, data: r.json };
  }
  const r = await t.request(`/trpc/payments.order?input=${encodeURIComponent(JSON.stringify(query))}`, { cookie: admin });
  return { status: r.status, json: r.json, data: r.json?.result?.data };
}

describe.each([restFollowUps, trpcFollowUps])('follow-ups of a processed import over $name', (tr) => {
  it('keeps the differing and the unmatched credits open, for every session, with what the named order has been paid', async () => {
    const { o3 } = await ingOrders();
    const { import_id, confirmed } = await importAndConfirm(ING);
    expect(confirmed).toEqual({ success: true, marked_paid: 3, follow_ups: 3 });

    // Another session of another treasurer, later: the same three, oldest booking first.
    await t.createUser(`${tr.p}penning`, ['Penningmeesters']);
    t.clock.advance(3 * 24 * 3600 * 1000);
    const r = await tr.call('followUps', { cookie: await t.cookieFor(`${tr.p}penning`) });
    expect(r.status).toBe(200);
    expect(r.data).toEqual({
      total: 3,
      follow_ups: [
        {
          id: expect.any(Number),
          import_id,
          filename: 'afschrift.xml',
          entry_ref: 'NL69INGB0123456789-20261202-000003',
          booked_at: '2026-12-02',
          amount: 100,
          counterparty: 'P. Visser',
          remittance: 'f20260003',
          status: 'amount_mismatch',
          opened_at: '2026-11-22T10:00:00.000Z',
          order: {
            order_id: o3,
            reference: 'KP-2026-0003',
            invoice_number: 'F2026-0003',
            name: 'Marieke de Vries',
            amount_incl: 90.75,
            paid_amount: 0,
            open_amount: 90.75,
            paid: false,
            paid_at: null,
            cancelled: false,
          },
        },
        expect.objectContaining({ entry_ref: 'NL69INGB0123456789-20261203-000004', amount: 25, status: 'unmatched', order: null }),
        expect.objectContaining({ entry_ref: 'NL69INGB0123456789-20261203-000006/2', amount: 50, status: 'unmatched', order: null }),
      ],
    });
  });

  it('books a differing amount as a part-payment; the rest then matches in the next statement and pays the order', async () => {
    const { o3 } = await ingOrders();
    await importAndConfirm(statementOf([{ ref: 'P-1', date: '2026-12-04', amount: '50.00', remittance: 'Factuur F2026-0003 deel 1' }]));
    const part = await followUpFor('P-1');
    expect(part.status).toBe('amount_mismatch');

    const r = await tr.call('resolve', { cookie: admin, body: { entry_id: part.id, action: 'part_payment' } });
    expect(r.status).toBe(200);
    expect(r.data).toEqual({
      success: true,
      resolution: 'part_payment',
      order: expect.objectContaining({ order_id: o3, amount_incl: 90.75, paid_amount: 50, open_amount: 40.75, paid: false, paid_at: null }),
    });
    expect(await orderRow(o3)).toMatchObject({ paid: false, paidAt: null, paidCents: 5000 });
    expect(await openFollowUps()).toEqual([]);
    const [resolved] = await auditOf('payments.follow_up_resolved');
    expect([resolved!.actorUsername, resolved!.target, JSON.parse(resolved!.details)]).toEqual([
      'admin',
      `bank_entry:${part.id} (P-1)`,
      {
        resolution: 'part_payment',
        amount: 50,
        booked_at: '2026-12-04',
        import_id: expect.any(Number),
        order_id: o3,
        reference: 'KP-2026-0003',
        paid_amount: 50,
        open_amount: 40.75,
      },
    ]);

    // The rest, exactly what is still open, matches and pays the order on its booking date.
    const rest2 = await upload(statementOf([{ ref: 'P-2', date: '2026-12-09', amount: '40.75', remittance: 'F2026-0003 rest' }]));
    expect(rest2.json.entries.map((e) => [e.status, e.order_id])).toEqual([['matched', o3]]);
    expect((await rest.call('confirm', { cookie: admin, body: { import_id: rest2.json.import_id } })).data).toEqual({
      success: true,
      marked_paid: 1,
      follow_ups: 0,
    });
    expect(await orderRow(o3)).toMatchObject({ paid: true, paidAt: '2026-12-09', paidCents: 5000 });

    const b = await balance(tr, { order_id: o3 });
    expect(b.status).toBe(200);
    expect(b.data.order).toMatchObject({ paid_amount: 90.75, open_amount: 0, paid: true, paid_at: '2026-12-09' });
    expect(
      b.data.bookings.map((x: { entry_ref: string; amount: number; kind: string; settled: boolean }) => [x.entry_ref, x.amount, x.kind, x.settled]),
    ).toEqual([
      ['P-1', 50, 'part_payment', false],
      ['P-2', 40.75, 'payment', true],
    ]);
  });

  it('turns the order paid on the booking date of the part-payment that reaches its total incl. VAT', async () => {
    const { o3 } = await ingOrders();
    await importAndConfirm(
      statementOf([
        { ref: 'Q-1', date: '2026-12-04', amount: '60.00', remittance: 'F2026-0003' },
        { ref: 'Q-2', date: '2026-12-06', amount: '30.75', remittance: 'F2026-0003' },
      ]),
    );
    const [first, second] = [await followUpFor('Q-1'), await followUpFor('Q-2')];
    expect((await tr.call('resolve', { cookie: admin, body: { entry_id: first.id, action: 'part_payment' } })).data.order).toMatchObject({
      open_amount: 30.75,
    });
    // The list shows the order's new balance beside the credit still open.
    expect((await followUpFor('Q-2')).order).toMatchObject({ paid_amount: 60, open_amount: 30.75 });
    const r = await tr.call('resolve', { cookie: admin, body: { entry_id: second.id, action: 'part_payment' } });
    expect(r.data.order).toMatchObject({ paid: true, paid_at: '2026-12-06', paid_amount: 90.75, open_amount: 0 });
    expect(await orderRow(o3)).toMatchObject({ paid: true, paidAt: '2026-12-06', paidCents: 9075 });
    expect((await auditOf('order.paid')).map((a) => [a.target, JSON.parse(a.details)])).toEqual([
      [`order:${o3} (KP-2026-0003)`, { paid: [false, true], paid_at: '2026-12-06', bank_entry: 'Q-2', import_id: expect.any(Number) }],
    ]);
    // A third transfer for the paid order is refused as a part-payment.
    await importAndConfirm(statementOf([{ ref: 'Q-3', date: '2026-12-07', amount: '5.00', remittance: 'F2026-0003' }]));
    const third = await followUpFor('Q-3');
    expectFailure(tr, await tr.call('resolve', { cookie: admin, body: { entry_id: third.id, action: 'part_payment' } }), 409, ORDER_ALREADY_PAID);
    expectFailure(tr, await tr.call('resolve', { cookie: admin, body: { entry_id: third.id, action: 'full_payment' } }), 409, ORDER_PAID_BY_BANK);
  });

  it('books a differing amount as full payment (the order is paid on the booking date, nothing is left open)', async () => {
    const { o3 } = await ingOrders();
    await importAndConfirm(ING);
    const differing = await followUpFor('NL69INGB0123456789-20261202-000003');
    const r = await tr.call('resolve', { cookie: admin, body: { entry_id: differing.id, action: 'full_payment' } });
    expect(r.data).toEqual({
      success: true,
      resolution: 'full_payment',
      order: expect.objectContaining({ order_id: o3, paid: true, paid_at: '2026-12-02', paid_amount: 90.75, open_amount: 0 }),
    });
    expect(await orderRow(o3)).toMatchObject({ paid: true, paidAt: '2026-12-02', paidCents: 0 });
  });

  it('links an unmatched credit to the order a treasurer names by reference or invoice number', async () => {
    const { o3 } = await ingOrders();
    const o5 = await createOrder(1);
    await importAndConfirm(ING);
    const gift = await followUpFor('NL69INGB0123456789-20261203-000004');
    expectFailure(tr, await tr.call('resolve', { cookie: admin, body: { entry_id: gift.id, action: 'part_payment' } }), 400, ORDER_REQUIRED);
    expectFailure(
      tr,
      await tr.call('resolve', { cookie: admin, body: { entry_id: gift.id, action: 'part_payment', reference: 'KP-2026-0999' } }),
      404,
      'Bestelling niet gevonden.',
    );
    expectFailure(
      tr,
      await tr.call('resolve', { cookie: admin, body: { entry_id: gift.id, action: 'part_payment', reference: 'de gift' } }),
      400,
      REFERENCE_INVALID,
    );
    // KP-2026-0002 was paid by this statement's own transfer: no part-payment on top, no second full payment.
    expectFailure(
      tr,
      await tr.call('resolve', { cookie: admin, body: { entry_id: gift.id, action: 'part_payment', reference: 'kp 2026 0002' } }),
      409,
      ORDER_ALREADY_PAID,
    );
    expectFailure(
      tr,
      await tr.call('resolve', { cookie: admin, body: { entry_id: gift.id, action: 'full_payment', reference: 'kp 2026 0002' } }),
      409,
      ORDER_PAID_BY_BANK,
    );

    const r = await tr.call('resolve', { cookie: admin, body: { entry_id: gift.id, action: 'part_payment', reference: 'f2026 0003' } });
    expect(r.data.order).toMatchObject({ order_id: o3, amount_incl: 90.75, paid_amount: 25, open_amount: 65.75 });
    expect(await orderRow(o3)).toMatchObject({ paidCents: 2500, paid: false });

    const other = await followUpFor('NL69INGB0123456789-20261203-000006/2');
    const byId = await tr.call('resolve', { cookie: admin, body: { entry_id: other.id, action: 'part_payment', order_id: o5 } });
    // Not invoiced: priced as an invoice would bill it today.
    expect(byId.data.order).toMatchObject({ order_id: o5, reference: 'KP-2026-0005', amount_incl: 90.75, paid_amount: 50, open_amount: 40.75 });
    const entries = await t.db.select().from(bankEntries).where(eq(bankEntries.id, other.id));
    expect(entries[0]).toMatchObject({ orderId: o5, resolution: 'part_payment', settled: false, appliedAt: '2026-11-22T10:00:00.000Z' });
    // The differing credit now sees the order's new balance.
    expect((await followUpFor('NL69INGB0123456789-20261202-000003')).order).toMatchObject({ paid_amount: 25, open_amount: 65.75 });
  });

  it('dismisses a credit with a reason, asks for one without, and shows who did it in the import', async () => {
    await ingOrders();
    const { import_id } = await importAndConfirm(ING);
    const gift = await followUpFor('NL69INGB0123456789-20261203-000004');
    expectFailure(tr, await tr.call('resolve', { cookie: admin, body: { entry_id: gift.id, action: 'dismiss' } }), 400, REASON_REQUIRED);
    expectFailure(tr, await tr.call('resolve', { cookie: admin, body: { entry_id: gift.id, action: 'dismiss', reason: '   ' } }), 400, REASON_REQUIRED);
    const r = await tr.call('resolve', { cookie: admin, body: { entry_id: gift.id, action: 'dismiss', reason: ' Gift, geen bestelling ' } });
    expect(r.data).toEqual({ success: true, resolution: 'dismissed' });
    expect((await openFollowUps()).map((f) => f.entry_ref)).not.toContain('NL69INGB0123456789-20261203-000004');
    expectFailure(tr, await tr.call('resolve', { cookie: admin, body: { entry_id: gift.id, action: 'dismiss', reason: 'nog eens' } }), 409, ALREADY_RESOLVED);

    const detail = await t.request(`/api/payments/imports?id=${import_id}`, { cookie: admin });
    expect(detail.status).toBe(200);
    expect(detail.json.import).toMatchObject({ id: import_id, follow_ups: 3, open_follow_ups: 2 });
    expect(detail.json.entries[3]).toMatchObject({
      outcome: 'dismissed',
      reason: 'Gift, geen bestelling',
      resolved_by: 'admin',
      resolved_at: '2026-11-22T10:00:00.000Z',
    });
    const [audit] = await auditOf('payments.follow_up_resolved');
    expect(JSON.parse(audit!.details)).toEqual({ resolution: 'dismissed', reason: 'Gift, geen bestelling', amount: 25, booked_at: '2026-12-03', import_id });
  });

  it('refuses what cannot be booked: unknown, not a follow-up, a credited order, bad input', async () => {
    const { o1, o3 } = await ingOrders();
    const { import_id } = await importAndConfirm(ING);
    expectFailure(tr, await tr.call('resolve', { cookie: admin, body: { entry_id: 99999, action: 'dismiss', reason: 'x' } }), 404, ENTRY_NOT_FOUND);
    const [paidEntry] = await t.db
      .select()
      .from(bankEntries)
      .where(and(eq(bankEntries.importId, import_id), eq(bankEntries.orderId, o1)));
    expectFailure(tr, await tr.call('resolve', { cookie: admin, body: { entry_id: paidEntry!.id, action: 'part_payment' } }), 409, NOT_A_FOLLOW_UP);
    // A preview never processed has no follow-ups.
    const preview = await upload(statementOf([{ ref: 'R-1', date: '2026-12-05', amount: '1.00', remittance: 'x' }]));
    const [previewEntry] = await t.db.select().from(bankEntries).where(eq(bankEntries.importId, preview.json.import_id));
    expectFailure(tr, await tr.call('resolve', { cookie: admin, body: { entry_id: previewEntry!.id, action: 'dismiss', reason: 'x' } }), 409, NOT_A_FOLLOW_UP);

    await t.db.update(orders).set({ cancelled: true, creditNoteNumber: 'F2026-0010' }).where(eq(orders.id, o3));
    const differing = await followUpFor('NL69INGB0123456789-20261202-000003');
    expectFailure(tr, await tr.call('resolve', { cookie: admin, body: { entry_id: differing.id, action: 'full_payment' } }), 409, ORDER_CREDITED);
    expect(await orderRow(o3)).toMatchObject({ paid: false, paidCents: 0 });

    for (const [body, message] of [
      [{ entry_id: differing.id, action: 'refund' }, ACTION_INVALID],
      [{ entry_id: 'abc', action: 'dismiss' }, ENTRY_ID_INVALID],
      [{ action: 'dismiss' }, ENTRY_ID_INVALID],
      [{ entry_id: differing.id, action: 'dismiss', reason: 'x'.repeat(501) }, 'De reden is te lang (hoogstens 500 tekens).'],
    ] as const) {
      expectFailure(tr, await tr.call('resolve', { cookie: admin, body }), 400, message);
    }
    expect((await openFollowUps()).map((f) => f.entry_ref)).toContain('NL69INGB0123456789-20261202-000003');
  });

  it('books one bank transaction once: two resolutions at the same moment, and a re-import afterwards', async () => {
    const { o3 } = await ingOrders();
    await importAndConfirm(ING);
    const differing = await followUpFor('NL69INGB0123456789-20261202-000003');
    const answers = await Promise.all(
      ['part_payment', 'part_payment', 'full_payment'].map((action) => tr.call('resolve', { cookie: admin, body: { entry_id: differing.id, action } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect([ALREADY_RESOLVED, CHANGED_MEANWHILE]).toContain(tr.name === 'REST' ? refused.json.error : refused.json.error.message);
    }
    const after = await orderRow(o3);
    // 100.00 on a 90.75 order: as a part-payment it completes it (an overpayment), as full payment too.
    expect(after).toMatchObject({ paid: true, paidAt: '2026-12-02' });
    expect([0, 10000]).toContain(after.paidCents);
    expect(await auditOf('payments.follow_up_resolved')).toHaveLength(1);

    // The same statement again: the booked credit is already imported; nothing is opened or booked twice.
    const again = await importAndConfirm(ING);
    expect(again.confirmed).toEqual({ success: true, marked_paid: 0, follow_ups: 0 });
    expect(await orderRow(o3)).toMatchObject({ paidCents: after.paidCents, paid: true });
    expect((await openFollowUps()).map((f) => f.entry_ref)).toEqual(['NL69INGB0123456789-20261203-000004', 'NL69INGB0123456789-20261203-000006/2']);
    const stored = await t.db
      .select()
      .from(bankEntries)
      .where(eq(bankEntries.entryKey, `NL69INGB0123456789:${differing.entry_ref}`));
    expect(stored.filter((e) => e.appliedAt !== null)).toHaveLength(1);
  });

  it('lets a treasurer resolve, refuses a visitor with 401 and a plain user with 403', async () => {
    await ingOrders();
    await importAndConfirm(ING);
    const gift = await followUpFor('NL69INGB0123456789-20261203-000004');
    await t.createUser(`${tr.p}plain2`);
    await t.createUser(`${tr.p}treasurer2`, ['Penningmeesters']);
    const plain = await t.cookieFor(`${tr.p}plain2`);
    const body = { entry_id: gift.id, action: 'dismiss', reason: 'Gift' };
    expectFailure(tr, await tr.call('followUps', {}), 401, 'Not logged in');
    expectFailure(tr, await tr.call('followUps', { cookie: plain }), 403, 'Forbidden');
    expectFailure(tr, await tr.call('resolve', { body }), 401, 'Not logged in');
    expectFailure(tr, await tr.call('resolve', { cookie: plain, body }), 403, 'Forbidden');
    expectFailure(tr, await tr.call('imports', { cookie: plain }), 403, 'Forbidden');
    const treasurer = await t.cookieFor(`${tr.p}treasurer2`);
    expect((await tr.call('resolve', { cookie: treasurer, body })).data).toEqual({ success: true, resolution: 'dismissed' });
    expect((await auditOf('payments.follow_up_resolved'))[0]!.actorUsername).toBe(`${tr.p}treasurer2`);
  });

  it("answers an order's paid so far and still open, by id or by the number a treasurer types", async () => {
    const { o2, o3 } = await ingOrders();
    expect((await balance(tr, { reference: 'f2026 0003' })).data).toEqual({
      order: {
        order_id: o3,
        reference: 'KP-2026-0003',
        invoice_number: 'F2026-0003',
        name: 'Marieke de Vries',
        amount_incl: 90.75,
        paid_amount: 0,
        open_amount: 90.75,
        paid: false,
        paid_at: null,
        cancelled: false,
      },
      bookings: [],
    });
    expect((await balance(tr, { reference: 'KP-2026-0002' })).data.order).toMatchObject({ order_id: o2, amount_incl: 181.5, open_amount: 181.5 });
    // Marked paid by hand: the whole total counts as paid.
    await t.db.update(orders).set({ paid: true, paidAt: '2026-12-01T12:00:00.000Z' }).where(eq(orders.id, o2));
    expect((await balance(tr, { order_id: o2 })).data.order).toMatchObject({ paid_amount: 181.5, open_amount: 0 });

    const fail = async (query: Record<string, string | number>, status: number, message: string) => {
      const r = await balance(tr, query);
      expectFailure(tr, { ...r, setCookies: [], headers: new Headers() }, status, message);
    };
    await fail({ order_id: 99999 }, 404, 'Bestelling niet gevonden.');
    await fail({ reference: 'F2026-0999' }, 404, 'Bestelling niet gevonden.');
    await fail({}, 400, ORDER_CHOICE_MISSING);
    await fail({ reference: 'KP-2026-0001 KP-2026-0002' }, 400, REFERENCE_INVALID);
    await fail({ order_id: 'abc' }, 400, 'Geef een geldig bestelnummer (order_id).');
  });
});

describe('the import history over REST', () => {
  it('lists the imports newest first with their statement, period and counts, and opens one with its lines', async () => {
    await ingOrders();
    const first = await importAndConfirm(ING);
    const second = await upload(statementOf([{ ref: 'H-1', date: '2026-12-05', amount: '12.00', remittance: 'Gift' }], 'DAG-2026-12-05'), {
      filename: 'dag.xml',
    });
    const list = await restFollowUps.call('imports', { cookie: admin });
    expect(list.status).toBe(200);
    expect(
      list.data.imports.map((i: { id: number; filename: string; statement_id: string | null; confirmed_at: string | null }) => [
        i.id,
        i.filename,
        i.statement_id,
        i.confirmed_at,
      ]),
    ).toEqual([
      [second.json.import_id, 'dag.xml', 'DAG-2026-12-05', null],
      [first.import_id, 'afschrift.xml', '20261203-NL69INGB0123456789', '2026-11-22T10:00:00.000Z'],
    ]);
    const detail = await t.request(`/api/payments/imports?id=${second.json.import_id}`, { cookie: admin });
    expect(detail.json.entries.map((e: { entry_ref: string; outcome: string }) => [e.entry_ref, e.outcome])).toEqual([['H-1', 'not_processed']]);
    expect(detail.json.skipped).toEqual([]);
    const firstDetail = await t.request(`/api/payments/imports?id=${first.import_id}`, { cookie: admin });
    expect(firstDetail.json.entries.map((e: { outcome: string }) => e.outcome)).toEqual(['paid', 'paid', 'open', 'open', 'paid', 'open']);

    expect(await t.request('/api/payments/imports?id=999', { cookie: admin })).toMatchObject({
      status: 404,
      json: { success: false, error: 'Deze import van een bankafschrift bestaat niet.', code: 'IMPORT_NOT_FOUND' },
    });
    expect(await t.request('/api/payments/imports?id=x', { cookie: admin })).toMatchObject({
      status: 400,
      json: { success: false, error: 'Geef een geldig importnummer (id).', code: 'FIELD_INVALID' },
    });

    // A second import of the same file, processed: its lines say they were handled in the first.
    const repeat = await importAndConfirm(ING);
    const repeatDetail = await t.request(`/api/payments/imports?id=${repeat.import_id}`, { cookie: admin });
    expect(repeatDetail.json.entries.map((e: { outcome: string }) => e.outcome)).toEqual([
      'already_imported',
      'already_imported',
      'elsewhere',
      'elsewhere',
      'already_imported',
      'elsewhere',
    ]);
  });
});

describe('migration 0009 on a database of the version before', () => {
  it('counts bookings already applied as settled and brings back the open follow-ups of processed imports, one per booking', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kerstactie-0009-'));
    try {
      // The migrations up to 0008, as a database of the last version has them.
      const before = join(dir, 'drizzle');
      cpSync(join(process.cwd(), 'drizzle'), before, { recursive: true });
      const journalPath = join(before, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
      journal.entries = journal.entries.filter((e) => e.tag < '0009');
      writeFileSync(journalPath, JSON.stringify(journal));
      const { db, client } = openLibsqlDb(`file:${join(dir, 'old.db')}`);
      try {
        await migrateLibsqlDb(db, before);
        await db.run(sql`INSERT INTO payment_imports (id, filename, created_by, created_at, confirmed_at) VALUES
          (1, 'a.xml', NULL, '2026-12-01T10:00:00Z', '2026-12-01T10:05:00Z'),
          (2, 'a.xml', NULL, '2026-12-02T10:00:00Z', '2026-12-02T10:05:00Z'),
          (3, 'b.xml', NULL, '2026-12-03T10:00:00Z', NULL)`);
        // Import 2 is import 1 again; import 3 was only read in.
        await db.run(sql`INSERT INTO bank_entries (id, import_id, entry_key, entry_ref, booked_at, amount_cents, status, order_id, applied_at) VALUES
          (1, 1, 'k-paid', 'r1', '2026-12-01', 9075, 'matched', NULL, '2026-12-01T10:05:00Z'),
          (2, 1, 'k-differs', 'r2', '2026-12-01', 5000, 'amount_mismatch', NULL, NULL),
          (3, 1, 'k-gift', 'r3', '2026-12-01', 2500, 'unmatched', NULL, NULL),
          (4, 2, 'k-paid', 'r1', '2026-12-01', 9075, 'already_imported', NULL, NULL),
          (5, 2, 'k-differs', 'r2', '2026-12-01', 5000, 'amount_mismatch', NULL, NULL),
          (6, 2, 'k-gift', 'r3', '2026-12-01', 2500, 'unmatched', NULL, NULL),
          (7, 3, 'k-preview', 'r4', '2026-12-03', 100, 'unmatched', NULL, NULL)`);

        await migrateLibsqlDb(db, join(process.cwd(), 'drizzle'));
        const rows = await db.select().from(bankEntries).orderBy(asc(bankEntries.id));
        expect(rows.map((r) => [r.id, r.settled, r.followUpAt, r.resolution])).toEqual([
          [1, true, null, null],
          [2, false, '2026-12-01T10:05:00Z', null],
          [3, false, '2026-12-01T10:05:00Z', null],
          [4, false, null, null],
          [5, false, null, null],
          [6, false, null, null],
          [7, false, null, null],
        ]);
        expect((await db.select().from(paymentImports).orderBy(asc(paymentImports.id))).map((i) => i.skipped)).toEqual(['[]', '[]', '[]']);
      } finally {
        client.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * docs/decisions/057, amendment: the part-payments where the treasurer looks at orders. GET /orders (and its
 * page, and tRPC orders.list/page) answers `part_paid`; the totals count what came in as received and only
 * the rest as open, as the per-order balance (GET /api/payments/order) does; marking an order unpaid by
 * hand keeps its part-payments, and is refused for an order they paid.
 */
const [restOrders, trpcOrders] = transports<'list' | 'page' | 'totals' | 'unpay'>(() => t, {
  rest: {
    list: ['GET', '/orders'],
    page: ['GET', '/orders?page=1&sort=reference&dir=asc'],
    totals: ['GET', '/orders/totals'],
    unpay: ['POST', '/orders/update', 'id'],
  },
  trpc: {
    list: ['query', 'orders.list'],
    page: ['query', 'orders.page'],
    totals: ['query', 'invoices.totals'],
    unpay: ['mutation', 'orders.setPaid', 'id'],
  },
});

/** The body createOrder sent, for POST /orders/update. */
const ORDER_BODY = {
  name: 'Marieke de Vries',
  email: 'marieke@example.nl',
  phone: '0612345678',
  address: 'Noorderhaven 12',
  postal_code: '8861 AL',
  city: 'Harlingen',
};

/** Reads in a statement with these credits, processes it, and books each (left as a follow-up) as a part-payment on the order it names. */
async function bookPartPayments(credits: Credit[], statementId: string) {
  await importAndConfirm(statementOf(credits, statementId));
  for (const credit of credits) {
    const followUp = await followUpFor(credit.ref);
    const r = await restFollowUps.call('resolve', { cookie: admin, body: { entry_id: followUp.id, action: 'part_payment' } });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
  }
}

describe.each([restOrders, trpcOrders])('part-payments in the orders list and the totals over $name', (tr) => {
  const unpay = (id: number) =>
    tr.call(
      'unpay',
      tr.name === 'REST' ? { cookie: admin, id, body: { ...ORDER_BODY, amount: 1, paid: false } } : { cookie: admin, id, body: { paid: false } },
    );

  it('answers part_paid for every order, and counts part-payments as received and only the rest as open', async () => {
    const { o1, o2, o3, o4 } = await ingOrders();
    const partPaidOf = async () => {
      const list = await tr.call('list', { cookie: admin });
      expect(list.status).toBe(200);
      return Object.fromEntries((list.data as { id: number; part_paid: number; paid: boolean }[]).map((o) => [o.id, [o.part_paid, o.paid]]));
    };
    expect(await partPaidOf()).toEqual({ [o1]: [0, false], [o2]: [0, false], [o3]: [0, false], [o4]: [0, false] });
    const before = await tr.call('totals', { cookie: admin });
    expect(before.data).toMatchObject({
      revenue_incl: 635.25,
      paid: { orders: 0, amount_incl: 0 },
      open: { orders: 4, amount_incl: 635.25 },
      part_paid: { orders: 0, amount_incl: 0 },
    });

    // F2026-0001 paid by hand; € 50 on F2026-0003 and € 100 on KP-2026-0002 (181.50); F2026-0004 (90.75) paid
    // by two part-payments that overshoot it by € 9.25.
    await t.db.update(orders).set({ paid: true, paidAt: '2026-11-22T10:00:00.000Z' }).where(eq(orders.id, o1));
    await bookPartPayments(
      [
        { ref: 'T-1', date: '2026-12-04', amount: '50.00', remittance: 'F2026-0003' },
        { ref: 'T-2', date: '2026-12-05', amount: '100.00', remittance: 'KP-2026-0002' },
        { ref: 'T-3', date: '2026-12-06', amount: '60.00', remittance: 'F2026-0004' },
      ],
      'T-STMT-1',
    );
    await bookPartPayments([{ ref: 'T-4', date: '2026-12-07', amount: '40.00', remittance: 'F2026-0004' }], 'T-STMT-2');
    expect(await orderRow(o4)).toMatchObject({ paid: true, paidAt: '2026-12-07', paidCents: 10000 });

    expect(await partPaidOf()).toEqual({ [o1]: [0, true], [o2]: [100, false], [o3]: [50, false], [o4]: [100, true] });
    const page = await tr.call('page', tr.name === 'REST' ? { cookie: admin } : { cookie: admin, body: { page: '1', sort: 'reference', dir: 'asc' } });
    expect(page.status).toBe(200);
    expect(page.data.orders.map((o: { reference: string; part_paid: number }) => [o.reference, o.part_paid])).toEqual([
      ['KP-2026-0001', 0],
      ['KP-2026-0002', 100],
      ['KP-2026-0003', 50],
      ['KP-2026-0004', 100],
    ]);

    const after = await tr.call('totals', { cookie: admin });
    expect(after.status).toBe(200);
    expect(after.data).toMatchObject({
      orders: 4,
      revenue_incl: 635.25,
      // 272.25 + 100 (of 90.75, overshot) + the part-payments 100 + 50 on the open ones.
      paid: { orders: 2, amount_incl: 522.25 },
      // 181.50 - 100 and 90.75 - 50.
      open: { orders: 2, amount_incl: 122.25 },
      part_paid: { orders: 2, amount_incl: 150 },
    });
    // Received per day: each part-payment on its booking day; F2026-0004's paid day keeps nothing beyond them.
    expect(
      after.data.per_day
        .filter((d: { received_incl: number }) => d.received_incl !== 0)
        .map((d: { date: string; received_incl: number }) => [d.date, d.received_incl]),
    ).toEqual([
      ['2026-11-22', 272.25],
      ['2026-12-04', 50],
      ['2026-12-05', 100],
      ['2026-12-06', 60],
      ['2026-12-07', 40],
    ]);

    // The same numbers as each order's balance.
    let paidSum = 0;
    let openSum = 0;
    for (const id of [o1, o2, o3, o4]) {
      const b = (await balance(tr, { order_id: id })).data.order as { paid_amount: number; open_amount: number };
      paidSum += Math.round(b.paid_amount * 100);
      openSum += Math.round(b.open_amount * 100);
    }
    expect([paidSum / 100, openSum / 100]).toEqual([after.data.paid.amount_incl, after.data.open.amount_incl]);

    // Who sold what: F2026-0001 and KP-2026-0002 are Aaltje's, the others nobody's. Her money is theirs (272.25 +
    // 181.50, of which 272.25 + 100 came in); the rest is 90.75 twice, of which 50 and 100 came in.
    const now = t.clock.now().toISOString();
    const [aaltje] = await t.db.insert(tablers).values({ name: 'Aaltje', createdAt: now, updatedAt: now }).returning();
    await t.db
      .update(orders)
      .set({ tablerId: aaltje!.id })
      .where(inArray(orders.id, [o1, o2]));
    expect((await tr.call('totals', { cookie: admin })).data.per_tabler).toEqual([
      { tabler_id: aaltje!.id, tabler_name: 'Aaltje', orders: 2, packages: 5, amount_incl: 453.75, paid_amount_incl: 372.25 },
      { tabler_id: null, tabler_name: null, orders: 2, packages: 2, amount_incl: 181.5, paid_amount_incl: 150 },
    ]);

    // A credited order leaves the totals with its part-payments.
    await t.db.update(orders).set({ cancelled: true, creditNoteNumber: 'F2026-0005' }).where(eq(orders.id, o3));
    expect((await tr.call('totals', { cookie: admin })).data).toMatchObject({
      paid: { orders: 2, amount_incl: 472.25 },
      open: { orders: 1, amount_incl: 81.5 },
      part_paid: { orders: 1, amount_incl: 100 },
    });
  });

  it('keeps the part-payments when an order is marked unpaid by hand, and refuses it for an order they paid', async () => {
    const { o3, o4 } = await ingOrders();
    await bookPartPayments(
      [
        { ref: 'U-1', date: '2026-12-04', amount: '50.00', remittance: 'F2026-0003' },
        { ref: 'U-2', date: '2026-12-04', amount: '60.00', remittance: 'F2026-0004' },
        { ref: 'U-3', date: '2026-12-05', amount: '30.75', remittance: 'F2026-0004' },
      ],
      'U-STMT',
    );
    // The rest of F2026-0003 paid in cash: marked paid by hand, then the treasurer takes that back.
    expect((await t.request('/orders/bulk', { cookie: admin, body: { ids: [o3], action: 'mark_paid' } })).json.results).toEqual([{ id: o3, success: true }]);
    expect((await balance(tr, { order_id: o3 })).data.order).toMatchObject({ paid: true, paid_amount: 90.75, open_amount: 0 });
    expect((await tr.call('totals', { cookie: admin })).data).toMatchObject({ paid: { orders: 2, amount_incl: 181.5 }, part_paid: { orders: 0 } });

    const undone = await unpay(o3);
    expect([undone.status, undone.data]).toEqual([200, { success: true }]);
    expect(await orderRow(o3)).toMatchObject({ paid: false, paidAt: null, paidCents: 5000 });
    const list = (await tr.call('list', { cookie: admin })).data as { id: number; part_paid: number; paid: boolean }[];
    expect(list.find((o) => o.id === o3)).toMatchObject({ paid: false, part_paid: 50 });
    expect((await balance(tr, { order_id: o3 })).data.order).toMatchObject({ paid: false, paid_amount: 50, open_amount: 40.75 });
    expect((await tr.call('totals', { cookie: admin })).data).toMatchObject({
      paid: { orders: 1, amount_incl: 140.75 },
      open: { orders: 3, amount_incl: 494.5 },
      part_paid: { orders: 1, amount_incl: 50 },
    });

    // F2026-0004 was paid by its part-payments alone: there is no full payment to undo.
    const refused = await unpay(o4);
    expectFailure(tr, refused, 409, paidByPartPayments(9075));
    expect(refused.json.error?.message ?? refused.json.error).toBe(
      'Deze bestelling is betaald met deelbetalingen via de bank (samen € 90,75). Geboekte deelbetalingen worden niet teruggedraaid, dus de bestelling blijft betaald.',
    );
    expect(await orderRow(o4)).toMatchObject({ paid: true, paidAt: '2026-12-05', paidCents: 9075 });
    expect((await t.request('/orders/bulk', { cookie: admin, body: { ids: [o4], action: 'mark_unpaid' } })).json.results).toEqual([
      { id: o4, success: false, error: paidByPartPayments(9075), code: 'PAID_BY_PART_PAYMENTS' },
    ]);
    expect(await auditOf('order.unpaid')).toHaveLength(tr.name === 'REST' ? 0 : 1);
  });
});
