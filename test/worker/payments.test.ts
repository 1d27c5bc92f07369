import { env, SELF } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openD1Db } from '../../src/db/d1';
import { auditLog, bankEntries, orders } from '../../src/db/schema';
import statementV08 from '../fixtures/camt053/rabobank-v08.xml?raw';
import { adminCookie, SITE } from './sign-in';

const bindings = env as unknown as { DB: Parameters<typeof openD1Db>[0] };

interface ImportAnswer {
  success: boolean;
  import_id: number;
  entries: { entry_ref: string; status: string; order_id?: number; booked_at: string; amount: number }[];
}

/**
 * docs/architecture.md §5 payments inside workerd: the XML parser and Web Crypto run in the Worker, the preview and
 * the confirm's single batch run on D1.
 */
describe('bank statement import inside workerd (D1)', () => {
  const site = 'https://kerst.example';
  const ip = { 'cf-connecting-ip': '198.51.100.60' };

  async function importStatement(text: string, cookie: string): Promise<ImportAnswer> {
    const form = new FormData();
    form.append('file', new Blob([text], { type: 'text/xml' }), 'rabobank-v08.xml');
    const response = await SELF.fetch(`${site}/api/payments/import`, { method: 'POST', headers: { cookie, ...ip }, body: form as never }); // workerd's FormData at run time; typed by the DOM lib here
    expect(response.status).toBe(200);
    return (await response.json()) as ImportAnswer;
  }

  it('imports a CAMT.053 statement, confirms it, pays the order on its booking date, and says already_imported the second time', async () => {
    const cookie = await adminCookie('198.51.100.61');
    const created = await SELF.fetch(`${site}/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, ...ip },
      body: JSON.stringify({
        name: 'Hendrik van der Meer',
        email: 'hendrik@example.nl',
        phone: '0612345678',
        address: 'Zoutsloot 3',
        postal_code: '8861 AB',
        city: 'Harlingen',
        amount: 1,
      }),
    });
    const { order_reference } = (await created.json()) as { order_reference: string };
    const db = openD1Db(bindings.DB);
    const [order] = await db.select().from(orders).where(eq(orders.reference, order_reference));
    // An invoice number no other test of this run hands out, written into the fixture's remittance.
    const invoiceNumber = `F2031-${String(order!.id).padStart(4, '0')}`;
    await db
      .update(orders)
      .set({ invoiceNumber, invoiceTotalCents: 9075, invoiceDate: '2026-12-01T10:00:00.000Z', invoiceSent: true })
      .where(eq(orders.id, order!.id));
    const statement = statementV08.replace('F2026 0005', invoiceNumber.replace('-', ' '));

    const preview = await importStatement(statement, cookie);
    expect(preview.success).toBe(true);
    const ours = preview.entries.find((e) => e.order_id === order!.id);
    expect(ours).toMatchObject({ entry_ref: 'RABO-2026-12-10-000001', booked_at: '2026-12-10', amount: 90.75, status: 'matched' });
    expect(preview.entries).toHaveLength(5);
    // The batch booking (one entry, two transactions) is split, each part with its own reference and amount.
    expect(preview.entries.filter((e) => e.entry_ref.startsWith('RABO-2026-12-10-000006')).map((e) => [e.entry_ref, e.amount])).toEqual([
      ['RABO-2026-12-10-000006-A', 90.75],
      ['RABO-2026-12-10-000006-B', 272.25],
    ]);
    expect((await db.select().from(orders).where(eq(orders.id, order!.id)))[0]).toMatchObject({ paid: false, paidAt: null });

    const confirm = await SELF.fetch(`${site}/api/payments/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, ...ip },
      body: JSON.stringify({ import_id: preview.import_id }),
    });
    expect(confirm.status).toBe(200);
    const matched = preview.entries.filter((e) => e.status === 'matched').length;
    // The rest stay for the treasurer as follow-ups (docs/decisions/057).
    const followUps = preview.entries.filter((e) => e.status === 'amount_mismatch' || e.status === 'unmatched').length;
    expect(await confirm.json()).toEqual({ success: true, marked_paid: matched, follow_ups: followUps });
    expect((await db.select().from(orders).where(eq(orders.id, order!.id)))[0]).toMatchObject({ paid: true, paidAt: '2026-12-10' });
    const applied = await db.select().from(bankEntries).where(eq(bankEntries.orderId, order!.id));
    expect(applied.filter((e) => e.appliedAt !== null)).toHaveLength(1);
    // The audit entries ride in the same D1 batch, guarded by changes() as on libSQL.
    const paidEntries = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'order.paid'), eq(auditLog.target, `order:${order!.id} (${order_reference})`)));
    expect(paidEntries.map((a) => JSON.parse(a.details))).toEqual([
      { paid: [false, true], paid_at: '2026-12-10', bank_entry: 'RABO-2026-12-10-000001', import_id: preview.import_id },
    ]);
    const confirmed = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payments.confirmed'), eq(auditLog.target, `import:${preview.import_id} (rabobank-v08.xml)`)));
    expect(confirmed.map((a) => JSON.parse(a.details))).toEqual([{ import_id: preview.import_id, marked_paid: matched, follow_ups: followUps }]);

    const again = await importStatement(statement, cookie);
    expect(again.entries.find((e) => e.entry_ref === 'RABO-2026-12-10-000001')).toMatchObject({ status: 'already_imported', order_id: order!.id });
    const second = await SELF.fetch(`${site}/trpc/payments.confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, ...ip },
      body: JSON.stringify({ import_id: again.import_id }),
    });
    expect(((await second.json()) as { result: { data: unknown } }).result.data).toEqual({ success: true, marked_paid: 0, follow_ups: 0 });
  });

  it('refuses a file that is not a CAMT.053 statement with the Dutch explanation', async () => {
    const cookie = await adminCookie('198.51.100.61');
    const form = new FormData();
    form.append('file', new Blob(['<!DOCTYPE html><html><body>Inloggen</body></html>'], { type: 'text/html' }), 'afschrift.html');
    const response = await SELF.fetch(`${site}/api/payments/import`, { method: 'POST', headers: { cookie, ...ip }, body: form as never }); // workerd's FormData at run time; typed by the DOM lib here
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      success: false,
      error: 'Dit bestand is geen CAMT.053-bankafschrift (XML). Download het afschrift als CAMT.053 bij je bank.',
      code: 'NOT_CAMT053',
    });
  });
});

const followUpIp = { 'cf-connecting-ip': '198.51.100.70' };

/** A camt.053.001.02 statement with these credits, each under its own bank reference. */
function statement(credits: { ref: string; date: string; amount: string; remittance: string }[]): string {
  const entries = credits
    .map(
      (c) =>
        `<Ntry><Amt Ccy="EUR">${c.amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>${c.date}</Dt></BookgDt>` +
        `<AcctSvcrRef>${c.ref}</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Dbtr><Nm>J. de Boer</Nm></Dbtr></RltdPties>` +
        `<RmtInf><Ustrd>${c.remittance}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>W</MsgId></GrpHdr>
<Stmt><Id>WORKER-1</Id><FrToDt><FrDtTm>2026-12-01T00:00:00</FrDtTm><ToDtTm>2026-12-08T23:59:59</ToDtTm></FrToDt>
<Acct><Id><IBAN>NL02ABNA0123456789</IBAN></Id></Acct>${entries}</Stmt></BkToCstmrStmt></Document>`;
}

async function call<T>(cookie: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const response = await SELF.fetch(`${SITE}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { cookie, ...followUpIp, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as T };
}

async function importAndConfirm(cookie: string, xml: string) {
  const form = new FormData();
  form.append('file', new Blob([xml], { type: 'text/xml' }), 'week-49.xml');
  const response = await SELF.fetch(`${SITE}/api/payments/import`, { method: 'POST', headers: { cookie, ...followUpIp }, body: form as never }); // workerd's FormData at run time; typed by the DOM lib here
  expect(response.status).toBe(200);
  const preview = (await response.json()) as { import_id: number; entries: { entry_ref: string; status: string; follow_up?: string }[] };
  const confirmed = await call<{ success: boolean; marked_paid: number; follow_ups: number }>(cookie, '/api/payments/confirm', {
    import_id: preview.import_id,
  });
  expect(confirmed.status).toBe(200);
  return { preview, confirmed: confirmed.json };
}

type FollowUp = { id: number; entry_ref: string; status: string; order: { order_id: number; paid_amount: number; open_amount: number } | null };

type Totals = {
  paid: { orders: number; amount_incl: number };
  open: { orders: number; amount_incl: number };
  part_paid: { orders: number; amount_incl: number };
  per_day: { date: string; received_incl: number }[];
};

/** What the totals moved between two reads, in cents (other suites' orders stay as they were). */
function totalsMoved(before: Totals, after: Totals, days: string[]) {
  const cents = (euros: number) => Math.round(euros * 100);
  const received = (totals: Totals, date: string) => cents(totals.per_day.find((d) => d.date === date)?.received_incl ?? 0);
  return {
    paid: [after.paid.orders - before.paid.orders, cents(after.paid.amount_incl) - cents(before.paid.amount_incl)],
    open: [after.open.orders - before.open.orders, cents(after.open.amount_incl) - cents(before.open.amount_incl)],
    part_paid: [after.part_paid.orders - before.part_paid.orders, cents(after.part_paid.amount_incl) - cents(before.part_paid.amount_incl)],
    received: days.map((date) => received(after, date) - received(before, date)),
  };
}

/**
 * docs/decisions/057 inside workerd: processing keeps the follow-ups, a part-payment and its rest pay the order,
 * and a dismissed credit or a re-import books nothing twice, each write one batch on D1 (and on Turso in the
 * worker-turso project).
 */
describe('bank import follow-ups and part-payments inside workerd', () => {
  it('keeps the differing and unmatched credits, books a part-payment, matches the rest, and books nothing twice', async () => {
    const cookie = await adminCookie('198.51.100.71');
    const created = await call<{ order_reference: string }>(cookie, '/orders/create', {
      name: 'Sjoukje Hoekstra',
      email: 'sjoukje@example.nl',
      phone: '0612345678',
      address: 'Kerkpad 2',
      postal_code: '8861 AB',
      city: 'Harlingen',
      amount: 1,
    });
    const db = openD1Db(bindings.DB);
    const [order] = await db.select().from(orders).where(eq(orders.reference, created.json.order_reference));
    // An invoice number no other suite of this run hands out.
    const invoiceNumber = `F2032-${String(order!.id).padStart(4, '0')}`;
    await db
      .update(orders)
      .set({ invoiceNumber, invoiceTotalCents: 9075, invoiceDate: '2026-12-01T10:00:00.000Z', invoiceSent: true })
      .where(eq(orders.id, order!.id));
    const ref = (n: number) => `W-${order!.id}-${n}`;

    const week = statement([
      { ref: ref(1), date: '2026-12-03', amount: '50.00', remittance: `Factuur ${invoiceNumber} deel 1` },
      { ref: ref(2), date: '2026-12-04', amount: '15.00', remittance: 'Gift' },
    ]);
    const first = await importAndConfirm(cookie, week);
    expect(first.preview.entries.map((e) => e.status)).toEqual(['amount_mismatch', 'unmatched']);
    expect(first.confirmed).toEqual({ success: true, marked_paid: 0, follow_ups: 2 });

    const listed = await call<{ follow_ups: FollowUp[] }>(cookie, '/api/payments/follow-ups');
    const ours = listed.json.follow_ups.filter((f) => f.entry_ref.startsWith(`W-${order!.id}-`));
    expect(ours.map((f) => [f.entry_ref, f.status, f.order?.open_amount ?? null])).toEqual([
      [ref(1), 'amount_mismatch', 90.75],
      [ref(2), 'unmatched', null],
    ]);

    const totalsBefore = (await call<Totals>(cookie, '/orders/totals')).json;
    const part = await call<{ success: boolean; order: { paid_amount: number; open_amount: number; paid: boolean } }>(
      cookie,
      '/api/payments/follow-ups/resolve',
      {
        entry_id: ours[0]!.id,
        action: 'part_payment',
      },
    );
    expect(part.status).toBe(200);
    expect(part.json.order).toMatchObject({ paid_amount: 50, open_amount: 40.75, paid: false });
    expect((await db.select().from(orders).where(eq(orders.id, order!.id)))[0]).toMatchObject({ paidCents: 5000, paid: false });
    // The orders list carries it, and the totals count it as received on its booking day, the rest as open.
    const list = await call<{ id: number; part_paid: number; paid: boolean }[]>(cookie, '/orders');
    expect(list.json.filter((o) => o.id === order!.id).map((o) => [o.part_paid, o.paid])).toEqual([[50, false]]);
    const page = await call<{ result: { data: { orders: { id: number; part_paid: number }[] } } }>(
      cookie,
      `/trpc/orders.page?input=${encodeURIComponent(JSON.stringify({ page: '1', q: created.json.order_reference }))}`,
    );
    expect(page.json.result.data.orders.map((o) => [o.id, o.part_paid])).toEqual([[order!.id, 50]]);
    const days = ['2026-12-03', '2026-12-08'];
    expect(totalsMoved(totalsBefore, (await call<Totals>(cookie, '/orders/totals')).json, days)).toEqual({
      paid: [0, 5000],
      open: [0, -5000],
      part_paid: [1, 5000],
      received: [5000, 0],
    });

    const dismissed = await call<{ success: boolean }>(cookie, '/trpc/payments.resolve', { entry_id: ours[1]!.id, action: 'dismiss', reason: 'Gift' });
    expect(dismissed.status).toBe(200);

    // The same week again books and opens nothing; the rest in the next statement pays the order.
    const again = await importAndConfirm(cookie, week);
    expect(again.preview.entries.map((e) => [e.status, e.follow_up ?? null])).toEqual([
      ['already_imported', null],
      ['unmatched', 'dismissed'],
    ]);
    expect(again.confirmed).toEqual({ success: true, marked_paid: 0, follow_ups: 0 });
    const restOf = await importAndConfirm(cookie, statement([{ ref: ref(3), date: '2026-12-08', amount: '40.75', remittance: invoiceNumber }]));
    expect(restOf.preview.entries.map((e) => e.status)).toEqual(['matched']);
    expect(restOf.confirmed).toEqual({ success: true, marked_paid: 1, follow_ups: 0 });
    expect((await db.select().from(orders).where(eq(orders.id, order!.id)))[0]).toMatchObject({ paid: true, paidAt: '2026-12-08', paidCents: 5000 });
    // Paid in full: the part-payment stays on its own day, the paid day gets only the rest.
    expect(totalsMoved(totalsBefore, (await call<Totals>(cookie, '/orders/totals')).json, days)).toEqual({
      paid: [1, 9075],
      open: [-1, -9075],
      part_paid: [0, 0],
      received: [5000, 4075],
    });

    const balance = await call<{ order: { paid_amount: number; open_amount: number }; bookings: { entry_ref: string; kind: string }[] }>(
      cookie,
      `/api/payments/order?reference=${encodeURIComponent(invoiceNumber)}`,
    );
    expect(balance.json.order).toMatchObject({ paid_amount: 90.75, open_amount: 0 });
    expect(balance.json.bookings.map((b) => [b.entry_ref, b.kind])).toEqual([
      [ref(1), 'part_payment'],
      [ref(3), 'payment'],
    ]);
    const booked = await db.select().from(bankEntries).where(eq(bankEntries.orderId, order!.id));
    expect(booked.filter((e) => e.appliedAt !== null).map((e) => e.entryRef)).toEqual([ref(1), ref(3)]);
    const resolved = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payments.follow_up_resolved'), eq(auditLog.target, `bank_entry:${ours[0]!.id} (${ref(1)})`)));
    expect(resolved.map((a) => JSON.parse(a.details).resolution)).toEqual(['part_payment']);

    const history = await call<{ imports: { filename: string; statement_id: string; period_from: string; period_to: string }[] }>(
      cookie,
      '/api/payments/imports',
    );
    expect(history.json.imports[0]).toMatchObject({ filename: 'week-49.xml', statement_id: 'WORKER-1', period_from: '2026-12-01', period_to: '2026-12-08' });
  });
});
