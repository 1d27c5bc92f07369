import { and, asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, orders, sequences, settings, tablers } from '../../src/db/schema';
import { INVALID_VAT_SPLIT } from '../../src/features/invoices/invoice-amounts';
import { NO_INVOICE_YET } from '../../src/features/invoices/invoices.routes';
import { INVOICE_QUEUED, INVOICE_QUEUED_NO_SMTP } from '../../src/features/invoices/invoices.service';
import { deliverOutbox } from '../../src/features/mail/mail-delivery';
import { createNodeSmtpTransport } from '../../src/platform/smtp-node';
import { pdfText } from '../support/pdf-text';
import { attachmentsOf, decodeHeader, parseMime, startSmtpSink, textOf, type ReceivedMail, type SmtpSink } from '../support/smtp-sink';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, transports } from '../support/transports';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';

/**
 * docs/product.md §4 order invoice (not sent → sent, resend after confirmation), §7 POST /orders/sendInvoice?id=;
 * docs/architecture.md §3 invoices, mail and VAT; docs/decisions/018 and 028. The invoice goes through the Node
 * transport (nodemailer, src/platform/smtp-node.ts) to a real SMTP server on loopback (`smtp-server`),
 * and the PDF that arrives is read back with PDF.js.
 */

const MINUTE = 60_000;

let t: TestApp;
let sink: SmtpSink;
let adminCookie: string;

const [rest, trpc] = transports<'send'>(() => t, {
  rest: { send: ['POST', '/orders/sendInvoice', 'id'] },
  trpc: { send: ['mutation', 'invoices.send', 'id'] },
});

beforeEach(async () => {
  t = await createTestApp();
  sink = await startSmtpSink();
  t.deps.mailTransport = createNodeSmtpTransport(sink.url);
  adminCookie = await t.cookieFor('admin');
  await setSettings(t, adminCookie, VALID_INVOICE_SETTINGS);
});

afterEach(async () => {
  await sink.stop();
  // Expected failures are answers, never logged crashes.
  expect(t.errors).toEqual([]);
  await t.close();
});

let orderCounter = 0;

/** An order made by the admin over REST; answers its id. */
async function createOrder(extra: Record<string, unknown> = {}): Promise<number> {
  orderCounter++;
  const r = await t.request('/orders/create', {
    cookie: adminCookie,
    body: {
      name: 'Marieke de Vries',
      email: `klant${orderCounter}@example.nl`,
      phone: '0612345678',
      address: 'Noorderhaven 12',
      postal_code: '8861 AL',
      city: 'Harlingen',
      amount: 3,
      ...extra,
    },
  });
  expect(r.json?.success, JSON.stringify(r.json)).toBe(true);
  const [row] = await t.db.select({ id: orders.id }).from(orders).where(eq(orders.reference, r.json.order_reference));
  return row!.id;
}

const sendInvoice = (id: number | string) => t.request(`/orders/sendInvoice?id=${id}`, { method: 'POST', cookie: adminCookie, body: {} });
const orderRow = async (id: number) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const outbox = () => t.db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));

async function setSetting(key: string, value: string | number) {
  const r = await t.request('/api/settings/update', { cookie: adminCookie, body: { key, value } });
  expect(r.json).toEqual({ success: true });
}

/** The one PDF attached to a received message, and its text. */
async function invoiceOf(mail: ReceivedMail) {
  const parsed = parseMime(mail.raw);
  const attachments = attachmentsOf(parsed);
  expect(attachments).toHaveLength(1);
  const [pdf] = attachments;
  return { parsed, pdf: pdf!, text: await pdfText(pdf!.content) };
}

describe('sending an invoice (POST /orders/sendInvoice?id=)', () => {
  it('mails the customer a PDF invoice that holds the number, the amounts and the VAT, and marks the order sent', async () => {
    const id = await createOrder({ name: 'Marieke de Vries', email: 'marieke@example.nl' });
    const r = await sendInvoice(id);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      success: true,
      invoice_number: 'F2026-0001',
      queued: false,
      message: 'Factuur F2026-0001 is verstuurd naar marieke@example.nl.',
      mail_id: expect.any(Number),
    });

    expect(sink.messages).toHaveLength(1);
    const [mail] = sink.messages;
    expect(mail!.to).toEqual(['marieke@example.nl']);
    const { parsed, pdf, text } = await invoiceOf(mail!);
    expect(decodeHeader(parsed.headers.get('subject')!)).toBe('Factuur F2026-0001 – kerstactie Ronde Tafel 144 Harlingen');
    expect(textOf(parsed)).toContain('Beste Marieke de Vries,');
    expect(textOf(parsed)).toContain('factuur F2026-0001 voor je bestelling KP-2026-0001');
    expect(pdf.filename).toBe('Factuur-F2026-0001.pdf');
    expect(pdf.type).toBe('application/pdf');
    for (const expected of [
      'Ronde Tafel 144 Harlingen',
      'Voorstraat 1, 8861 BJ Harlingen',
      'KvK-nummer: 12345678',
      'Btw-id: NL123456789B01',
      'IBAN: NL91 ABNA 0417 1643 00',
      'Factuurnummer F2026-0001',
      // Not delivered yet: no delivery date (docs/decisions/059).
      'Factuurdatum 22 november 2026 Bestelnummer KP-2026-0001',
      'Marieke de Vries',
      'Noorderhaven 12',
      '8861 AL Harlingen',
      'Kerstpakket 3 € 75,00 € 225,00',
      'btw 21% € 225,00 € 47,25',
      'Totaal excl. btw € 225,00',
      'Totaal incl. btw € 272,25',
      'binnen 14 dagen',
      'Vervaldatum 6 december 2026',
      'Betalingskenmerk: F2026-0001 (bestelling KP-2026-0001)',
    ]) {
      expect(text, expected).toContain(expected);
    }

    const row = await orderRow(id);
    expect(row).toMatchObject({ invoiceSent: true, invoiceNumber: 'F2026-0001', invoiceDate: '2026-11-22T10:00:00.000Z' });
    const [queued] = await outbox();
    expect(queued).toMatchObject({ kind: 'invoice', status: 'sent', attempts: 1, relatedRef: `order:${id}`, toAddress: 'marieke@example.nl', lastError: null });

    // GET /orders shows it.
    const list = await t.request('/orders', { cookie: adminCookie });
    expect(list.json.find((o: { id: number }) => o.id === id)).toMatchObject({ invoice_sent: true, invoice_number: 'F2026-0001' });
  });

  it('shows both rates for a package split 50 % at 9 % and 50 % at 21 %', async () => {
    await setSetting(
      'vat_split',
      JSON.stringify([
        { label: 'Levensmiddelen', share_percent: 50, vat_rate: 9 },
        { label: 'Non-food', share_percent: 50, vat_rate: 21 },
      ]),
    );
    const id = await createOrder({ amount: 3 });
    expect((await sendInvoice(id)).json).toMatchObject({ success: true, queued: false });
    const { text } = await invoiceOf(sink.messages[0]!);
    expect(text).toContain('Kerstpakket 3 € 75,00 € 225,00');
    expect(text).toContain('waarvan Levensmiddelen (50%, btw 9%) € 112,50');
    expect(text).toContain('waarvan Non-food (50%, btw 21%) € 112,50');
    expect(text).toContain('btw 9% € 112,50 € 10,13');
    expect(text).toContain('btw 21% € 112,50 € 23,63');
    expect(text).toContain('Totaal btw € 33,76');
    expect(text).toContain('Totaal incl. btw € 258,76');
  });

  it('takes the club details, price and payment term from the settings', async () => {
    await setSetting('club_name', 'Ronde Tafel 99 Franeker');
    await setSetting('club_kvk_number', '87654321');
    await setSetting('club_vat_id', 'NL123456789B02');
    await setSetting('club_iban', 'NL91ABNA0417164300');
    await setSetting('package_price', 80);
    await setSetting('invoice_payment_term_days', 30);
    const id = await createOrder({ amount: 2 });
    await sendInvoice(id);
    const { text } = await invoiceOf(sink.messages[0]!);
    for (const expected of [
      'Ronde Tafel 99 Franeker',
      'KvK-nummer: 87654321',
      'Btw-id: NL123456789B02',
      'IBAN: NL91 ABNA 0417 1643 00',
      'Kerstpakket 2 € 80,00 € 160,00',
      'btw 21% € 160,00 € 33,60',
      'Totaal incl. btw € 193,60',
      'binnen 30 dagen',
      'Vervaldatum 22 december 2026',
    ]) {
      expect(text, expected).toContain(expected);
    }
  });

  it('sends the same invoice again on a resend: same number, same PDF, no new number used', async () => {
    const id = await createOrder();
    expect((await sendInvoice(id)).json).toMatchObject({ invoice_number: 'F2026-0001', queued: false });
    t.clock.advance(3 * 24 * 60 * MINUTE);
    expect((await sendInvoice(id)).json).toMatchObject({ invoice_number: 'F2026-0001', queued: false });
    expect(sink.messages).toHaveLength(2);
    const first = await invoiceOf(sink.messages[0]!);
    const second = await invoiceOf(sink.messages[1]!);
    expect(Buffer.from(second.pdf.content).equals(Buffer.from(first.pdf.content))).toBe(true);
    // The invoice date stays the date of the first send.
    expect(second.text).toContain('Factuurdatum 22 november 2026');
    expect((await orderRow(id)).invoiceDate).toBe('2026-11-22T10:00:00.000Z');
    expect(await t.db.select().from(sequences).where(eq(sequences.name, 'invoice'))).toEqual([{ clubId: 1, name: 'invoice', year: 2026, value: 1 }]);
  });

  it('numbers invoices F<year>-<nnnn> in the order they are first sent, without gaps', async () => {
    const a = await createOrder();
    const b = await createOrder();
    const c = await createOrder();
    expect((await sendInvoice(b)).json.invoice_number).toBe('F2026-0001');
    expect((await sendInvoice(a)).json.invoice_number).toBe('F2026-0002');
    expect((await sendInvoice(b)).json.invoice_number).toBe('F2026-0001');
    expect((await sendInvoice(c)).json.invoice_number).toBe('F2026-0003');
    expect((await orderRow(a)).invoiceNumber).toBe('F2026-0002');
  });

  it('gives concurrent first sends distinct, gap-free numbers, and one number per order', async () => {
    t.deps.mailTransport = null;
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await createOrder());
    // Every order twice at once, in a shuffled order.
    const calls = [...ids, ...ids.slice().reverse()].map((id) => sendInvoice(id).then((r) => ({ id, r })));
    const answers = await Promise.all(calls);
    for (const { r } of answers) expect(r.json).toMatchObject({ success: true, queued: true });
    const byOrder = new Map<number, Set<string>>();
    for (const { id, r } of answers) byOrder.set(id, (byOrder.get(id) ?? new Set()).add(r.json.invoice_number));
    for (const numbers of byOrder.values()) expect(numbers.size).toBe(1);
    const numbers = [...byOrder.values()].map((s) => [...s][0]).sort();
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => `F2026-${String(i + 1).padStart(4, '0')}`));
    const rows = await t.db.select({ n: orders.invoiceNumber }).from(orders);
    expect(new Set(rows.map((r) => r.n)).size).toBe(12);
  });

  it('starts again at 0001 in a new (Dutch) year', async () => {
    const a = await createOrder();
    expect((await sendInvoice(a)).json.invoice_number).toBe('F2026-0001');
    // 00:30 on 1 January 2027 in Amsterdam.
    t.clock.advance(new Date('2026-12-31T23:30:00.000Z').getTime() - t.clock.now().getTime());
    adminCookie = await t.cookieFor('admin');
    const b = await createOrder();
    expect((await sendInvoice(b)).json.invoice_number).toBe('F2027-0001');
    const { text } = await invoiceOf(sink.messages[1]!);
    expect(text).toContain('Factuurdatum 1 januari 2027');
  });

  it('prints a customer name with accents as typed (the embedded font, docs/decisions/059)', async () => {
    const id = await createOrder({ name: 'Zoë Łukasiewicz', address: 'Kerkstraat 1', city: "'s-Hertogenbosch" });
    await sendInvoice(id);
    const { text, parsed } = await invoiceOf(sink.messages[0]!);
    expect(text).toContain('Factuur aan Zoë Łukasiewicz Kerkstraat 1');
    expect(textOf(parsed)).toContain('Beste Zoë Łukasiewicz,');
  });
});

describe('when SMTP is down or not configured (nothing is lost)', () => {
  it('keeps the invoice queued while the server is unreachable and delivers it once it is back', async () => {
    const id = await createOrder();
    await sink.stop();
    const r = await sendInvoice(id);
    expect(r.json).toEqual({ success: true, invoice_number: 'F2026-0001', queued: true, message: INVOICE_QUEUED, mail_id: expect.any(Number) });
    expect((await orderRow(id)).invoiceSent).toBe(false);
    const [waiting] = await outbox();
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1 });
    expect(waiting!.lastError).toMatch(/ECONNREFUSED/);
    expect(waiting!.nextAttemptAt).toBe(t.clock.now().getTime() + MINUTE);

    // Back up, but the back-off has not passed: nothing is tried yet.
    await sink.start();
    expect(await deliverOutbox(t.deps)).toEqual({ sent: 0, failed: 0 });
    t.clock.advance(MINUTE);
    expect(await deliverOutbox(t.deps)).toEqual({ sent: 1, failed: 0 });
    expect(sink.messages).toHaveLength(1);
    const { text } = await invoiceOf(sink.messages[0]!);
    expect(text).toContain('Factuurnummer F2026-0001');
    expect((await orderRow(id)).invoiceSent).toBe(true);
    expect((await outbox())[0]).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });

  it('keeps it queued while the server refuses (421) and backs off further after each failure', async () => {
    const id = await createOrder();
    sink.refuse = { code: 421, message: 'Service not available, closing channel' };
    expect((await sendInvoice(id)).json).toMatchObject({ success: true, queued: true, message: INVOICE_QUEUED });
    t.clock.advance(MINUTE);
    expect(await deliverOutbox(t.deps)).toEqual({ sent: 0, failed: 1 });
    const [row] = await outbox();
    expect(row).toMatchObject({ status: 'queued', attempts: 2 });
    expect(row!.lastError).toContain('421');
    expect(row!.nextAttemptAt).toBe(t.clock.now().getTime() + 2 * MINUTE);
    expect((await orderRow(id)).invoiceSent).toBe(false);

    sink.refuse = null;
    t.clock.advance(2 * MINUTE);
    expect(await deliverOutbox(t.deps)).toEqual({ sent: 1, failed: 0 });
    expect((await orderRow(id)).invoiceSent).toBe(true);
    expect(sink.messages).toHaveLength(1);
  });

  it('does not pile up copies when the admin resends while the first is still waiting', async () => {
    const id = await createOrder();
    await sink.stop();
    await sendInvoice(id);
    t.clock.advance(10 * 1000);
    const again = await sendInvoice(id);
    expect(again.json).toMatchObject({ success: true, invoice_number: 'F2026-0001', queued: true });
    const rows = await outbox();
    expect(rows).toHaveLength(1);
    expect(again.json.mail_id).toBe(rows[0]!.id);
    // The resend made it due again at once and tried it.
    expect(rows[0]).toMatchObject({ status: 'queued', attempts: 2 });

    await sink.start();
    t.clock.advance(2 * MINUTE);
    await deliverOutbox(t.deps);
    expect(sink.messages).toHaveLength(1);
    expect((await orderRow(id)).invoiceSent).toBe(true);
  });

  it('queues one mail when admins send the same invoice at the same moment', async () => {
    t.deps.mailTransport = null;
    const id = await createOrder();
    const first = await Promise.all([sendInvoice(id), sendInvoice(id), sendInvoice(id)]);
    for (const answer of first) expect(answer.json).toMatchObject({ success: true, invoice_number: 'F2026-0001', queued: true });
    const [queued] = await outbox();
    expect(await outbox()).toHaveLength(1);
    expect(first.map((answer) => answer.json.mail_id)).toEqual([queued!.id, queued!.id, queued!.id]);
    t.deps.mailTransport = createNodeSmtpTransport(sink.url);
    expect(await deliverOutbox(t.deps)).toEqual({ sent: 1, failed: 0 });

    // Resends at the same moment once the first copy went out (the PDF is already stored, so nothing
    // slows one of them down): one new copy, not three. A day later: three sends a day is the limit.
    t.clock.advance(24 * 60 * MINUTE);
    t.deps.mailTransport = null;
    const resends = await Promise.all([sendInvoice(id), sendInvoice(id), sendInvoice(id)]);
    for (const answer of resends) expect(answer.json).toMatchObject({ success: true, invoice_number: 'F2026-0001', queued: true });
    const rows = await outbox();
    expect(rows.map((row) => row.status)).toEqual(['sent', 'queued']);
    expect(resends.map((answer) => answer.json.mail_id)).toEqual([rows[1]!.id, rows[1]!.id, rows[1]!.id]);
    t.deps.mailTransport = createNodeSmtpTransport(sink.url);
    expect(await deliverOutbox(t.deps)).toEqual({ sent: 1, failed: 0 });
    expect(sink.messages).toHaveLength(2);
  });

  it('waits in the outbox without SMTP_URL and says so; a transport configured later delivers it', async () => {
    t.deps.mailTransport = null;
    const id = await createOrder();
    const r = await sendInvoice(id);
    expect(r.json).toMatchObject({ success: true, invoice_number: 'F2026-0001', queued: true, message: INVOICE_QUEUED_NO_SMTP });
    expect(await deliverOutbox(t.deps)).toEqual({ sent: 0, failed: 0 });
    expect((await outbox())[0]).toMatchObject({ status: 'queued', attempts: 0 });
    expect((await orderRow(id)).invoiceSent).toBe(false);

    t.deps.mailTransport = createNodeSmtpTransport(sink.url);
    expect(await deliverOutbox(t.deps)).toEqual({ sent: 1, failed: 0 });
    expect((await orderRow(id)).invoiceSent).toBe(true);
    const { text } = await invoiceOf(sink.messages[0]!);
    expect(text).toContain('Totaal incl. btw € 272,25');
  });

  it('refuses an unusable VAT split before a number is used up', async () => {
    // The settings API refuses such a value on save (docs/decisions/003, 019); one stored before that rule still must not bill.
    await t.db
      .update(settings)
      .set({ value: JSON.stringify([{ label: 'Kerstpakket', share_percent: 50, vat_rate: 21 }]) })
      .where(eq(settings.key, 'vat_split'));
    t.deps.settingsCache.invalidate();
    const id = await createOrder();
    const r = await sendInvoice(id);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ success: false, error: INVALID_VAT_SPLIT, code: 'VAT_SPLIT_INVALID' });
    expect((await orderRow(id)).invoiceNumber).toBeNull();
    expect(
      await t.db
        .select()
        .from(sequences)
        .where(and(eq(sequences.name, 'invoice'))),
    ).toEqual([]);
    expect(await outbox()).toEqual([]);

    await setSetting('vat_split', JSON.stringify([{ label: 'Kerstpakket', share_percent: 100, vat_rate: 21 }]));
    expect((await sendInvoice(id)).json.invoice_number).toBe('F2026-0001');
  });
});

describe('the stored invoice PDF (GET /orders/invoice.pdf?id=)', () => {
  it('gives the admin the PDF that was sent, and 404 before the first send', async () => {
    const id = await createOrder();
    const before = await t.request(`/orders/invoice.pdf?id=${id}`, { cookie: adminCookie });
    expect(before.status).toBe(404);
    expect(before.json).toMatchObject({ success: false, error: NO_INVOICE_YET, code: 'DOCUMENT_NOT_FOUND' });

    await sendInvoice(id);
    const response = await t.app.request(`http://127.0.0.1/orders/invoice.pdf?id=${id}`, { headers: { cookie: adminCookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="Factuur-F2026-0001.pdf"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    const { pdf } = await invoiceOf(sink.messages[0]!);
    expect(Buffer.from(bytes).equals(Buffer.from(pdf.content))).toBe(true);
  });

  it('refuses anonymous visitors and users without admin.access', async () => {
    const id = await createOrder();
    await t.createUser('plain_user');
    expect((await t.request(`/orders/invoice.pdf?id=${id}`)).json).toMatchObject({ success: false, error: 'Not logged in', code: 'NOT_LOGGED_IN' });
    expect((await t.request(`/orders/invoice.pdf?id=${id}`, { cookie: await t.cookieFor('plain_user') })).json).toMatchObject({
      success: false,
      error: 'Forbidden',
      code: 'FORBIDDEN',
    });
  });
});

describe.each([rest, trpc])('$name invoice send: answers and refusals', (tr) => {
  it('answers the invoice number', async () => {
    const id = await createOrder();
    const answer = await tr.call('send', { id, cookie: adminCookie });
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ success: true, invoice_number: 'F2026-0001', queued: false });
  });

  it('refuses an anonymous visitor with 401 and a user without admin.access with 403, and sends nothing', async () => {
    const id = await createOrder();
    await t.createUser('plain_user');
    expectFailure(tr, await tr.call('send', { id }), 401, 'Not logged in');
    expectFailure(tr, await tr.call('send', { id, cookie: await t.cookieFor('plain_user') }), 403, 'Forbidden');
    expect((await orderRow(id)).invoiceNumber).toBeNull();
    expect(sink.messages).toHaveLength(0);
  });

  it("answers 404 'Bestelling niet gevonden.' for an unknown order and 400 for a malformed id", async () => {
    expectFailure(tr, await tr.call('send', { id: 999, cookie: adminCookie }), 404, 'Bestelling niet gevonden.');
    expectFailure(tr, await tr.call('send', { id: 'abc', cookie: adminCookie }), 400, 'Invalid id');
    expect(await t.db.select().from(sequences).where(eq(sequences.name, 'invoice'))).toEqual([]);
  });
});

describe('invoiced orders', () => {
  it('cannot be deleted once they have an invoice number', async () => {
    const app = await createTestApp();
    try {
      const admin = await app.cookieFor('admin');
      await setSettings(app, admin, VALID_INVOICE_SETTINGS);
      const now = new Date().toISOString();
      const [tabler] = await app.db.insert(tablers).values({ name: 'Klaas', createdAt: now, updatedAt: now }).returning();
      const created = await app.request('/orders/create', {
        body: {
          tabler_id: tabler!.id,
          name: 'Fien',
          email: 'fien@example.nl',
          phone: '0612345678',
          address: 'Kade 2',
          postalCode: '8861AA',
          city: 'Harlingen',
          quantity: 1,
        },
      });
      expect(created.status).toBe(200);
      const [order] = await app.db.select().from(orders);
      const sent = await app.request(`/orders/sendInvoice?id=${order!.id}`, { cookie: admin, method: 'POST' });
      expect(sent.status).toBe(200);
      const refused = await app.request(`/orders/delete?id=${order!.id}`, { cookie: admin, method: 'POST' });
      expect([refused.status, refused.json]).toMatchObject([
        409,
        { success: false, error: 'Een gefactureerde bestelling kan niet worden verwijderd.', code: 'INVOICED_ORDER_NOT_DELETABLE' },
      ]);
      expect(await app.db.select().from(orders)).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
