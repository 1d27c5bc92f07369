import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, orders } from '../../src/db/schema';
import {
  alreadyCredited,
  NOTHING_TO_CREDIT,
  ORDER_CREDITED,
  REMINDER_ALREADY_PAID,
  INVOICE_SEND_LIMITED,
  REMINDER_NEEDS_INVOICE,
  REMINDER_SEND_LIMITED,
  reminderNotDue,
  sendDueReminders,
} from '../../src/features/invoices/invoices.service';
import { NO_CREDIT_NOTE } from '../../src/features/invoices/invoices.routes';
import { BACK_OFFICE_AMOUNT_MESSAGE, CREDITED_NOT_PAYABLE, invoicedOrderLocked } from '../../src/features/orders/orders.service';
import { formatEuro } from '../../src/core/nl-format';
import { paymentQrPng } from '../../src/features/invoices/epc-qr';
import { createNodeSmtpTransport } from '../../src/platform/smtp-node';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { pdfText } from '../support/pdf-text';
import { attachmentsOf, decodeHeader, leafParts, parseMime, startSmtpSink, textOf, type SmtpSink } from '../support/smtp-sink';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, transports } from '../support/transports';
import { anyCode } from '../support/refusal';

/**
 * Invoices (docs/decisions/018–020) and reminders, bulk actions, totals, the paged list and the treasurer role
 * (docs/architecture.md §5 "Invoices and payments"), over REST and tRPC, with mail through a real SMTP server on
 * loopback and the PDFs read back.
 */

const DAY = 24 * 60 * 60 * 1000;

let t: TestApp;
let sink: SmtpSink;
let adminCookie: string;

type Op = 'send' | 'credit' | 'remind' | 'bulk' | 'totals' | 'update' | 'page' | 'list' | 'setPaid';
const [rest, trpc] = transports<Op>(() => t, {
  rest: {
    send: ['POST', '/orders/sendInvoice', 'id'],
    credit: ['POST', '/orders/creditInvoice', 'id'],
    remind: ['POST', '/orders/sendReminder', 'id'],
    bulk: ['POST', '/orders/bulk'],
    totals: ['GET', '/orders/totals'],
    update: ['POST', '/orders/update', 'id'],
    page: ['GET', '/orders?page=1&per_page=2&sort=name&dir=asc'],
    list: ['GET', '/orders?overdue=true'],
    // REST marks one order paid through an edit of the order.
    setPaid: ['POST', '/orders/update', 'id'],
  },
  trpc: {
    send: ['mutation', 'invoices.send', 'id'],
    credit: ['mutation', 'invoices.credit', 'id'],
    remind: ['mutation', 'invoices.remind', 'id'],
    bulk: ['mutation', 'invoices.bulk'],
    totals: ['query', 'invoices.totals'],
    update: ['mutation', 'orders.update'],
    page: ['query', 'orders.page'],
    list: ['query', 'orders.list'],
    setPaid: ['mutation', 'orders.setPaid', 'id'],
  },
});

beforeEach(async () => {
  t = await createTestApp();
  sink = await startSmtpSink();
  t.deps.mailTransport = createNodeSmtpTransport(sink.url);
  adminCookie = await t.cookieFor('admin');
});

afterEach(async () => {
  await sink.stop();
  expect(t.errors).toEqual([]);
  await t.close();
});

let counter = 0;
const ORDER = { phone: '0612345678', address: 'Noorderhaven 12', postal_code: '8861 AL', city: 'Harlingen' };

async function createOrder(extra: Record<string, unknown> = {}): Promise<number> {
  counter++;
  const r = await t.request('/orders/create', {
    cookie: adminCookie,
    body: { name: `Klant ${counter}`, email: `klant${counter}@example.nl`, amount: 3, ...ORDER, ...extra },
  });
  expect(r.json?.success, JSON.stringify(r.json)).toBe(true);
  const [row] = await t.db.select({ id: orders.id }).from(orders).where(eq(orders.reference, r.json.order_reference));
  return row!.id;
}

const orderRow = async (id: number) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const outbox = () => t.db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));
/** The order as the edit form sends it back unchanged. */
const orderFields = async (id: number) => {
  const row = await orderRow(id);
  return { name: row.name, email: row.email, phone: row.phone, address: row.address, postal_code: row.postalCode, city: row.city, amount: row.amount };
};
const pdfOf = (raw: string) => attachmentsOf(parseMime(raw)).find((a) => a.type === 'application/pdf')!;

describe('the club details an invoice needs', () => {
  it('refuses to send while the IBAN, KvK number or VAT id is a placeholder, naming the setting, and uses up no number', async () => {
    const id = await createOrder();
    for (const tr of [rest, trpc]) {
      expectFailure(
        tr,
        await tr.call('send', { cookie: adminCookie, id }),
        409,
        'Vul eerst het IBAN van de club in (instelling club_iban): er staat nog een voorbeeldwaarde.',
      );
    }
    const readiness = await t.request(`/trpc/invoices.readiness`, { cookie: adminCookie });
    expect(readiness.json.result.data).toEqual({
      ready: false,
      payment_term_days: 14,
      problems: [
        { key: 'club_iban', message: 'Vul eerst het IBAN van de club in (instelling club_iban): er staat nog een voorbeeldwaarde.' },
        { key: 'club_kvk_number', message: 'Vul eerst het KvK-nummer van de club in (instelling club_kvk_number): er staat nog een voorbeeldwaarde.' },
        { key: 'club_vat_id', message: 'Vul eerst het btw-nummer van de club in (instelling club_vat_id): er staat nog een voorbeeldwaarde.' },
      ],
    });
    await setSettings(t, adminCookie, { club_iban: VALID_INVOICE_SETTINGS.club_iban });
    expectFailure(
      rest,
      await rest.call('send', { cookie: adminCookie, id }),
      409,
      'Vul eerst het KvK-nummer van de club in (instelling club_kvk_number): er staat nog een voorbeeldwaarde.',
    );
    expect((await orderRow(id)).invoiceNumber).toBeNull();
    expect(await outbox()).toEqual([]);

    await setSettings(t, adminCookie, VALID_INVOICE_SETTINGS);
    expect((await t.request(`/trpc/invoices.readiness`, { cookie: adminCookie })).json.result.data).toEqual({
      ready: true,
      problems: [],
      payment_term_days: 14,
    });
    expect((await rest.call('send', { cookie: adminCookie, id })).json.invoice_number).toBe('F2026-0001');
  });

  it.each([
    ['vat_split', JSON.stringify([{ label: 'Kerstpakket', share_percent: 50, vat_rate: 21 }]), 'The shares of the VAT split must add up to 100 (now 50).'],
    ['vat_split', JSON.stringify([{ label: 'Kerstpakket', share_percent: 100, vat_rate: 19 }]), 'Every vat_rate must be one of 0, 9, 21.'],
    ['vat_split', '{"label":"x"}', 'The VAT split must be a list of {label, share_percent, vat_rate}.'],
    ['geocoder_provider', 'google', 'Value must be one of: pdok, nominatim.'],
    ['club_iban', 'NL91ABNA0417164301', 'Value must be a valid IBAN (e.g. NL91ABNA0417164300): the check digits do not match.'],
    ['club_kvk_number', '1234567', 'Value must be a KvK number of 8 digits.'],
    ['club_vat_id', 'NL12345678B01', 'Value must be a Dutch VAT id: NL, 9 digits, B, 2 digits (e.g. NL123456789B01).'],
  ])('refuses %s = %s on save with 400, on both transports', async (key, value, message) => {
    const restAnswer = await t.request('/api/settings/update', { cookie: adminCookie, body: { key, value } });
    expect(restAnswer.status).toBe(400);
    expect(restAnswer.json).toMatchObject({ success: false, error: message, code: anyCode });
    const trpcAnswer = await t.request('/trpc/settings.update', { cookie: adminCookie, body: { key, value } });
    expect(trpcAnswer.status).toBe(400);
    expect(trpcAnswer.json.error.message).toBe(message);
  });

  it('accepts valid values, an IBAN typed with spaces and lower case included', async () => {
    await setSettings(t, adminCookie, {
      vat_split: JSON.stringify([
        { label: 'Levensmiddelen', share_percent: 60, vat_rate: 9 },
        { label: 'Overig', share_percent: 40, vat_rate: 21 },
      ]),
      geocoder_provider: 'nominatim',
      club_iban: 'nl91 abna 0417 1643 00',
      club_kvk_number: '12345678',
      club_vat_id: 'NL123456789B01',
    });
  });
});

describe('an issued invoice never changes', () => {
  beforeEach(() => setSettings(t, adminCookie, VALID_INVOICE_SETTINGS));

  it('refuses invoice-relevant edits of an invoiced order with 409 and keeps phone, notes, tabler and paid editable', async () => {
    const id = await createOrder({ name: 'Marieke de Vries', email: 'marieke@example.nl' });
    await rest.call('send', { cookie: adminCookie, id });
    const body = { name: 'Marieke de Vries', email: 'marieke@example.nl', amount: 3, ...ORDER };
    for (const tr of [rest, trpc]) {
      for (const change of [
        { amount: 5 },
        { name: 'M. de Vries' },
        { email: 'ander@example.nl' },
        { address: 'Voorstraat 2' },
        { postal_code: '8861 AA' },
        { city: 'Franeker' },
      ]) {
        const order = { ...body, ...change };
        const answer = await tr.call('update', { cookie: adminCookie, id, body: tr.name === 'REST' ? order : { id, order } });
        expectFailure(tr, answer, 409, invoicedOrderLocked('F2026-0001'));
      }
    }
    const allowed = { ...body, phone: '0517 999999', notes: 'Achterom bezorgen', paid: true };
    expect((await rest.call('update', { cookie: adminCookie, id, body: allowed })).json).toEqual({ success: true });
    expect(await orderRow(id)).toMatchObject({ amount: 3, phone: '0517 999999', notes: 'Achterom bezorgen', paid: true, paidAt: '2026-11-22T10:00:00.000Z' });
  });

  it('resends the stored PDF byte for byte, even after the price and the club name changed', async () => {
    const id = await createOrder();
    await rest.call('send', { cookie: adminCookie, id });
    await setSettings(t, adminCookie, { package_price: 80, club_name: 'Ronde Tafel 144' });
    await t.clock.advance(3 * DAY);
    await trpc.call('send', { cookie: adminCookie, id });
    expect(sink.messages).toHaveLength(2);
    const [first, second] = sink.messages.map((m) => pdfOf(m.raw).content);
    expect(Buffer.from(second!).equals(Buffer.from(first!))).toBe(true);
    const stored = await t.request(`/orders/invoice.pdf?id=${id}`, { cookie: adminCookie });
    expect(stored.status).toBe(200);
    expect(await pdfText(first!)).toContain('Totaal incl. btw € 272,25');
  });

  it('puts the payment QR inline in the HTML of the invoice mail', async () => {
    const id = await createOrder();
    await rest.call('send', { cookie: adminCookie, id });
    const parsed = parseMime(sink.messages[0]!.raw);
    const html = (function find(part): string {
      if (part.type === 'text/html') return new TextDecoder().decode(part.body);
      return part.parts.map(find).join('');
    })(parsed);
    expect(html).toContain('<img src="cid:betaal-qr"');
    expect(textOf(parsed)).toContain(
      'Wil je € 272,25 binnen 14 dagen overmaken op IBAN NL91ABNA0417164300 ten name van Ronde Tafel 144 Harlingen, onder vermelding van F2026-0001?',
    );
  });
});

describe('credit notes (POST /orders/creditInvoice?id=)', () => {
  beforeEach(() => setSettings(t, adminCookie, VALID_INVOICE_SETTINGS));

  for (const tr of [rest, trpc]) {
    it(`${tr.name}: numbers the credit note in the invoice series, mails its PDF with negative amounts and cancels the order`, async () => {
      const id = await createOrder({ name: 'Jan Jansen', email: 'jan@example.nl' });
      await tr.call('send', { cookie: adminCookie, id });
      await t.clock.advance(DAY);
      const answer = await tr.call('credit', { cookie: adminCookie, id });
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({
        success: true,
        credit_note_number: 'F2026-0002',
        queued: false,
        message: 'Creditnota F2026-0002 is verstuurd naar jan@example.nl.',
      });
      expect(await orderRow(id)).toMatchObject({
        cancelled: true,
        creditNoteNumber: 'F2026-0002',
        creditNoteDate: '2026-11-23T10:00:00.000Z',
        invoiceNumber: 'F2026-0001',
      });

      const mail = sink.messages[1]!;
      const parsed = parseMime(mail.raw);
      expect(decodeHeader(parsed.headers.get('subject')!)).toBe('Creditnota F2026-0002 – kerstactie Ronde Tafel 144 Harlingen');
      expect(textOf(parsed)).toContain('Daarmee vervalt factuur F2026-0001 van 22 november 2026 voor je bestelling');
      const pdf = pdfOf(mail.raw);
      expect(pdf.filename).toBe('Creditnota-F2026-0002.pdf');
      const text = await pdfText(pdf.content);
      for (const expected of ['Creditnota', 'F2026-0002', 'Creditnota bij factuur F2026-0001 van 22 november 2026', '-225,00', '-47,25', '-272,25']) {
        expect(text, expected).toContain(expected);
      }
      const stored = await t.request(`/orders/credit-note.pdf?id=${id}`, { cookie: adminCookie });
      expect(stored.status).toBe(200);
      expect(stored.headers.get('content-disposition')).toBe('attachment; filename="Creditnota-F2026-0002.pdf"');

      // Once only; the series goes on for the next invoice; a credited order gets no invoice or reminder.
      expectFailure(tr, await tr.call('credit', { cookie: adminCookie, id }), 409, alreadyCredited('F2026-0002'));
      expectFailure(tr, await tr.call('send', { cookie: adminCookie, id }), 409, ORDER_CREDITED);
      expectFailure(tr, await tr.call('remind', { cookie: adminCookie, id }), 409, ORDER_CREDITED);
      const next = await createOrder();
      expect((await tr.call('send', { cookie: adminCookie, id: next })).data.invoice_number).toBe('F2026-0003');
    });
  }

  it('refuses an order without an invoice (409) and an unknown one (404)', async () => {
    const id = await createOrder();
    expectFailure(rest, await rest.call('credit', { cookie: adminCookie, id }), 409, NOTHING_TO_CREDIT);
    expectFailure(trpc, await trpc.call('credit', { cookie: adminCookie, id: 999_999 }), 404, 'Bestelling niet gevonden.');
    const pdf = await t.request(`/orders/credit-note.pdf?id=${id}`, { cookie: adminCookie });
    expect(pdf.status).toBe(404);
    expect(pdf.json).toMatchObject({ success: false, error: NO_CREDIT_NOTE, code: 'DOCUMENT_NOT_FOUND' });
  });

  it('gives two credits at the same moment one credit note number', async () => {
    const id = await createOrder();
    await rest.call('send', { cookie: adminCookie, id });
    const answers = await Promise.all([rest.call('credit', { cookie: adminCookie, id }), trpc.call('credit', { cookie: adminCookie, id })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect((await orderRow(id)).creditNoteNumber).toBe('F2026-0002');
    expect((await outbox()).filter((m) => m.kind === 'credit-note')).toHaveLength(1);
  });
});

describe('payment reminders', () => {
  beforeEach(() => setSettings(t, adminCookie, VALID_INVOICE_SETTINGS));

  for (const tr of [rest, trpc]) {
    it(`${tr.name}: mails a reminder with the stored invoice and counts it on the order`, async () => {
      const id = await createOrder({ name: 'Anna Bakker', email: 'anna@example.nl' });
      expectFailure(tr, await tr.call('remind', { cookie: adminCookie, id }), 409, REMINDER_NEEDS_INVOICE);
      await tr.call('send', { cookie: adminCookie, id });
      await t.clock.advance(20 * DAY);
      const answer = await tr.call('remind', { cookie: adminCookie, id });
      expect(answer.data).toEqual({ success: true, queued: false, message: 'Herinnering voor factuur F2026-0001 is verstuurd naar anna@example.nl.' });
      const parsed = parseMime(sink.messages[1]!.raw);
      expect(decodeHeader(parsed.headers.get('subject')!)).toBe('Herinnering: factuur F2026-0001 – kerstactie Ronde Tafel 144 Harlingen');
      expect(textOf(parsed)).toContain('Op 22 november 2026 hebben we je factuur F2026-0001 gestuurd');
      expect(Buffer.from(pdfOf(sink.messages[1]!.raw).content).equals(Buffer.from(pdfOf(sink.messages[0]!.raw).content))).toBe(true);
      expect(await orderRow(id)).toMatchObject({ remindersSent: 1, lastReminderAt: '2026-12-12T10:00:00.000Z' });

      await t.request(`/orders/update?id=${id}`, {
        cookie: adminCookie,
        body: { name: 'Anna Bakker', email: 'anna@example.nl', amount: 3, ...ORDER, paid: true },
      });
      expectFailure(tr, await tr.call('remind', { cookie: adminCookie, id }), 409, REMINDER_ALREADY_PAID);
    });
  }

  for (const tr of [rest, trpc]) {
    it(`${tr.name}: refuses a reminder before the payment term has run out, naming the due date, unless force says so`, async () => {
      const early = await createOrder({ email: 'vroeg@example.nl' });
      const late = await createOrder({ email: 'laat@example.nl' });
      await tr.call('send', { cookie: adminCookie, id: late });
      t.clock.advance(DAY);
      await tr.call('send', { cookie: adminCookie, id: early });
      const notDue = reminderNotDue('F2026-0002', new Date('2026-12-07T10:00:00.000Z'));
      expect(notDue).toBe('De betaaltermijn van factuur F2026-0002 loopt nog tot 7 december 2026: een herinnering is nu nog niet nodig.');

      // On the day of invoicing, and a minute before the term ends: refused, nothing counted or queued.
      for (const wait of [0, 14 * DAY - 60_000]) {
        t.clock.advance(wait);
        const refused = await tr.call('remind', { cookie: adminCookie, id: early });
        expect(refused.status).toBe(409);
        if (tr.name === 'REST') expect(refused.json).toMatchObject({ success: false, error: notDue, code: 'REMINDER_NOT_DUE', due_date: '2026-12-07' });
        else expect(refused.json.error.message).toBe(notDue);
      }
      expect((await orderRow(early)).remindersSent).toBe(0);
      expect((await outbox()).filter((m) => m.kind === 'reminder')).toEqual([]);

      // In bulk each early order says so, with its due day; the overdue one goes.
      const bulk = await tr.call('bulk', { cookie: adminCookie, body: { ids: [early, late], action: 'send_reminder' } });
      expect(bulk.data.results).toEqual([
        { id: early, success: false, error: notDue, code: 'REMINDER_NOT_DUE', due_date: '2026-12-07' },
        { id: late, success: true },
      ]);
      // Confirmed: it goes before the term ends, alone or in bulk.
      expect((await tr.call('remind', { cookie: adminCookie, id: early, body: { force: true } })).data).toMatchObject({ success: true });
      const forced = await tr.call('bulk', { cookie: adminCookie, body: { ids: [early], action: 'send_reminder', force: true } });
      expect(forced.data.results).toEqual([{ id: early, success: true }]);
      expect((await orderRow(early)).remindersSent).toBe(2);
      // A minute after the term ends no confirmation is needed.
      t.clock.advance(2 * 60_000);
      expect((await tr.call('remind', { cookie: adminCookie, id: early })).status).toBe(200);
      expectFailure(tr, await tr.call('remind', { cookie: adminCookie, id: early, body: { force: 'ja' } }), 400, 'force must be true or false');
    });
  }

  it('sends the automatic first reminder once, reminder_auto_days after the payment term, when the setting is on', async () => {
    const id = await createOrder();
    await rest.call('send', { cookie: adminCookie, id });
    await t.clock.advance(30 * DAY);
    expect(await sendDueReminders(t.deps)).toBe(0); // off by default
    t.clock.advance(-30 * DAY);
    await setSettings(t, adminCookie, { reminder_auto_days: 7 });
    t.clock.advance(14 * DAY + 7 * DAY - 60_000);
    expect(await sendDueReminders(t.deps)).toBe(0); // a minute early
    t.clock.advance(2 * 60_000);
    expect(await sendDueReminders(t.deps)).toBe(1);
    expect(await sendDueReminders(t.deps)).toBe(0);
    expect((await orderRow(id)).remindersSent).toBe(1);
    expect((await outbox()).filter((m) => m.kind === 'reminder')).toHaveLength(1);
  });

  it('asks what part-payments left open, with a payment QR for that amount (docs/decisions/057)', async () => {
    const id = await createOrder({ name: 'Piet Deel', email: 'piet@example.nl' });
    await rest.call('send', { cookie: adminCookie, id });
    const invoiceText = textOf(parseMime(sink.messages[0]!.raw));
    const total = /Wil je € ([\d.]+,\d{2}) binnen/.exec(invoiceText)![1]!;
    const totalCents = Number(total.replace(/\./g, '').replace(',', ''));
    // 50 euros came in by bank (how a part-payment is booked is the payments tests' subject).
    await t.db.update(orders).set({ paidCents: 5000 }).where(eq(orders.id, id));
    await t.clock.advance(20 * DAY);
    expect((await rest.call('remind', { cookie: adminCookie, id })).status).toBe(200);
    const reminder = parseMime(sink.messages[1]!.raw);
    const open = formatEuro(totalCents - 5000);
    expect(textOf(reminder)).toContain(
      `Volgens onze administratie hebben we daarvan € 50,00 ontvangen en staat er nog ${open} open. De factuur zit opnieuw in de bijlage.`,
    );
    expect(textOf(reminder)).toContain(`Wil je ${open} binnen 14 dagen overmaken`);
    const qr = leafParts(reminder).find((part) => part.type === 'image/png')!;
    const expected = await paymentQrPng({
      iban: VALID_INVOICE_SETTINGS.club_iban,
      name: 'Ronde Tafel 144 Harlingen',
      amountCents: totalCents - 5000,
      remittance: 'F2026-0001',
    });
    expect(Buffer.from(qr.body).equals(Buffer.from(expected))).toBe(true);
    // The invoice's own QR still asks the whole amount.
    const invoiceQr = leafParts(parseMime(sink.messages[0]!.raw)).find((part) => part.type === 'image/png')!;
    expect(Buffer.from(invoiceQr.body).equals(Buffer.from(expected))).toBe(false);
  });

  it('lists overdue orders: invoiced, unpaid, not credited and past the payment term', async () => {
    const late = await createOrder();
    const paid = await createOrder();
    const credited = await createOrder();
    for (const id of [late, paid, credited]) await rest.call('send', { cookie: adminCookie, id });
    await rest.call('credit', { cookie: adminCookie, id: credited });
    await t.request(`/trpc/orders.setPaid`, { cookie: adminCookie, body: { id: paid, paid: true } });
    const fresh = await createOrder();
    await t.clock.advance(15 * DAY);
    await rest.call('send', { cookie: adminCookie, id: fresh });
    const restList = await rest.call('list', { cookie: adminCookie });
    expect(restList.json.map((o: { id: number }) => o.id)).toEqual([late]);
    const trpcList = await trpc.call('list', { cookie: adminCookie, body: { overdue: 'true' } });
    expect(trpcList.data.map((o: { id: number }) => o.id)).toEqual([late]);
  });
});

describe('bulk actions (POST /orders/bulk)', () => {
  beforeEach(() => setSettings(t, adminCookie, VALID_INVOICE_SETTINGS));

  for (const tr of [rest, trpc]) {
    it(`${tr.name}: runs the action per order and reports each result`, async () => {
      const a = await createOrder();
      const b = await createOrder();
      const sent = await tr.call('bulk', { cookie: adminCookie, body: { ids: [a, b, 999_999], action: 'send_invoice' } });
      expect(sent.data).toEqual({
        success: true,
        results: [
          { id: a, success: true },
          { id: b, success: true },
          { id: 999_999, success: false, error: 'Bestelling niet gevonden.', code: 'ORDER_NOT_FOUND' },
        ],
      });
      expect((await orderRow(b)).invoiceNumber).toBe('F2026-0002');
      const paid = await tr.call('bulk', { cookie: adminCookie, body: { ids: [a], action: 'mark_paid' } });
      expect(paid.data).toEqual({ success: true, results: [{ id: a, success: true }] });
      t.clock.advance(15 * DAY);
      const reminded = await tr.call('bulk', { cookie: adminCookie, body: { ids: [a, b], action: 'send_reminder' } });
      expect(reminded.data.results).toEqual([
        { id: a, success: false, error: REMINDER_ALREADY_PAID, code: 'ALREADY_PAID' },
        { id: b, success: true },
      ]);
      expect(await orderRow(a)).toMatchObject({ paid: true, paidAt: '2026-11-22T10:00:00.000Z' });
      expectFailure(
        tr,
        await tr.call('bulk', { cookie: adminCookie, body: { ids: [a], action: 'delete_all' } }),
        400,
        'action must be one of mark_paid, mark_unpaid, send_invoice, send_reminder, mark_delivered, mark_undelivered',
      );
    });
  }
});

describe('bulk invoicing numbers the oldest order first (docs/decisions/059)', () => {
  beforeEach(() => setSettings(t, adminCookie, VALID_INVOICE_SETTINGS));

  for (const tr of [rest, trpc]) {
    it(`${tr.name}: gives the first order placed the first number, whatever order the ids come in, and answers in the order asked`, async () => {
      const first = await createOrder();
      t.clock.advance(60_000);
      const second = await createOrder();
      const third = await createOrder(); // placed in the same moment as the second: the one saved first is older
      t.clock.advance(60_000);
      const fourth = await createOrder();
      const sent = await tr.call('bulk', { cookie: adminCookie, body: { ids: [fourth, 999_999, third, first, second], action: 'send_invoice' } });
      expect(sent.data.results.map((r: { id: number }) => r.id)).toEqual([fourth, 999_999, third, first, second]);
      const numbers = await Promise.all([first, second, third, fourth].map(async (id) => (await orderRow(id)).invoiceNumber));
      expect(numbers).toEqual(['F2026-0001', 'F2026-0002', 'F2026-0003', 'F2026-0004']);
    });
  }
});

describe('the delivery date on an invoice (docs/decisions/059)', () => {
  beforeEach(() => setSettings(t, adminCookie, VALID_INVOICE_SETTINGS));

  it('names none before the packages are delivered, and the delivery day when they were delivered before the invoice', async () => {
    const ahead = await createOrder({ name: 'Vooraf Betaler' });
    const handed = await createOrder({ name: 'Aan De Deur' });
    expect((await t.request(`/orders/setDelivered?id=${handed}`, { cookie: adminCookie, body: { delivered: true } })).status).toBe(200);
    t.clock.advance(2 * DAY);
    for (const id of [ahead, handed]) await rest.call('send', { cookie: adminCookie, id });
    const textOf = async (id: number) =>
      pdfText(new Uint8Array(await (await t.app.request(`http://127.0.0.1/orders/invoice.pdf?id=${id}`, { headers: { cookie: adminCookie } })).arrayBuffer()));
    const before = await textOf(ahead);
    expect(before).toContain('Factuurdatum 24 november 2026 Bestelnummer');
    expect(before).not.toContain('Leverdatum');
    expect(await textOf(handed)).toContain('Factuurdatum 24 november 2026 Leverdatum 22 november 2026 Bestelnummer');
  });
});

describe('a credited order is not paid afterwards (docs/decisions/049 "Also")', () => {
  beforeEach(() => setSettings(t, adminCookie, VALID_INVOICE_SETTINGS));

  for (const tr of [rest, trpc]) {
    it(`${tr.name}: refuses mark_paid on a credited order, alone and in bulk`, async () => {
      const credited = await createOrder();
      const open = await createOrder();
      await tr.call('send', { cookie: adminCookie, id: credited });
      await tr.call('send', { cookie: adminCookie, id: open });
      expect((await tr.call('credit', { cookie: adminCookie, id: credited })).status).toBe(200);

      const bulk = await tr.call('bulk', { cookie: adminCookie, body: { ids: [credited, open], action: 'mark_paid' } });
      expect(bulk.data).toEqual({
        success: true,
        results: [
          { id: credited, success: false, error: CREDITED_NOT_PAYABLE, code: 'CREDITED_NOT_PAYABLE' },
          { id: open, success: true },
        ],
      });
      const single =
        tr.name === 'REST'
          ? await tr.call('setPaid', { cookie: adminCookie, id: credited, body: { ...(await orderFields(credited)), paid: true } })
          : await tr.call('setPaid', { cookie: adminCookie, id: credited, body: { paid: true } });
      expectFailure(tr, single, 409, CREDITED_NOT_PAYABLE);
      expect(await orderRow(credited)).toMatchObject({ cancelled: true, paid: false, paidAt: null });
      expect(await orderRow(open)).toMatchObject({ paid: true });
    });
  }

  it('keeps an order paid before its credit note as it is, and marking it unpaid (the money refunded) works', async () => {
    const id = await createOrder();
    await rest.call('send', { cookie: adminCookie, id });
    await rest.call('bulk', { cookie: adminCookie, body: { ids: [id], action: 'mark_paid' } });
    await rest.call('credit', { cookie: adminCookie, id });
    const unpaid = await rest.call('bulk', { cookie: adminCookie, body: { ids: [id], action: 'mark_unpaid' } });
    expect(unpaid.data.results).toEqual([{ id, success: true }]);
    const again = await rest.call('bulk', { cookie: adminCookie, body: { ids: [id], action: 'mark_paid' } });
    expect(again.data.results).toMatchObject([{ id, success: false, error: CREDITED_NOT_PAYABLE, code: 'CREDITED_NOT_PAYABLE' }]);
  });
});

describe('sends of one invoice or reminder are limited (docs/decisions/049 "Also")', () => {
  beforeEach(() => setSettings(t, adminCookie, VALID_INVOICE_SETTINGS));

  for (const tr of [rest, trpc]) {
    it(`${tr.name}: mails the same invoice at most 3 times in 24 hours, then answers 429; other orders go on`, async () => {
      const id = await createOrder({ email: 'vaak@example.nl' });
      const other = await createOrder({ email: 'ander@example.nl' });
      for (let i = 0; i < 3; i++) expect((await tr.call('send', { cookie: adminCookie, id })).status).toBe(200);
      expectFailure(tr, await tr.call('send', { cookie: adminCookie, id }), 429, INVOICE_SEND_LIMITED);
      const bulk = await tr.call('bulk', { cookie: adminCookie, body: { ids: [id, other], action: 'send_invoice' } });
      expect(bulk.data.results).toEqual([
        { id, success: false, error: INVOICE_SEND_LIMITED, code: 'TOO_MANY_REQUESTS' },
        { id: other, success: true },
      ]);
      expect(sink.messages.filter((m) => m.to.includes('vaak@example.nl'))).toHaveLength(3);
      t.clock.advance(DAY);
      expect((await tr.call('send', { cookie: adminCookie, id })).status).toBe(200);
      expect(sink.messages.filter((m) => m.to.includes('vaak@example.nl'))).toHaveLength(4);
    });

    it(`${tr.name}: mails at most 3 reminders for one order in 24 hours, then answers 429`, async () => {
      const id = await createOrder({ email: 'herinner@example.nl' });
      await tr.call('send', { cookie: adminCookie, id });
      t.clock.advance(15 * DAY);
      for (let i = 0; i < 3; i++) expect((await tr.call('remind', { cookie: adminCookie, id })).status).toBe(200);
      expectFailure(tr, await tr.call('remind', { cookie: adminCookie, id }), 429, REMINDER_SEND_LIMITED);
      expect((await orderRow(id)).remindersSent).toBe(3);
      t.clock.advance(DAY);
      expect((await tr.call('remind', { cookie: adminCookie, id })).status).toBe(200);
      expect((await orderRow(id)).remindersSent).toBe(4);
    });
  }
});

describe('totals and the paged list', () => {
  for (const tr of [rest, trpc]) {
    it(`${tr.name}: sums in SQL, billed sums for invoices, today's price for the rest, credited orders left out`, async () => {
      await setSettings(t, adminCookie, VALID_INVOICE_SETTINGS);
      const a = await createOrder({ amount: 3 });
      const b = await createOrder({ amount: 2 });
      const c = await createOrder({ amount: 1 });
      await tr.call('send', { cookie: adminCookie, id: a });
      await tr.call('send', { cookie: adminCookie, id: c });
      await tr.call('credit', { cookie: adminCookie, id: c });
      // The price rises after a's invoice: a keeps its billed 272,25; b counts at the new price.
      await setSettings(t, adminCookie, { package_price: 80 });
      await t.clock.advance(DAY);
      await t.request(`/trpc/orders.setPaid`, { cookie: adminCookie, body: { id: a, paid: true } });
      const totals = (await tr.call('totals', { cookie: adminCookie })).data;
      expect(totals).toEqual({
        orders: 2,
        packages: 5,
        revenue_excl: 385,
        revenue_incl: 465.85,
        paid: { orders: 1, amount_incl: 272.25 },
        open: { orders: 1, amount_incl: 193.6 },
        part_paid: { orders: 0, amount_incl: 0 },
        invoices_sent: 1,
        per_tabler: [{ tabler_id: null, tabler_name: null, orders: 2, packages: 5, amount_incl: 465.85, paid_amount_incl: 272.25 }],
        per_day: [
          { date: '2026-11-22', orders: 2, packages: 5, invoiced_incl: 272.25, received_incl: 0 },
          { date: '2026-11-23', orders: 0, packages: 0, invoiced_incl: 0, received_incl: 272.25 },
        ],
      });
      expect(b).toBeGreaterThan(a);
    });

    it(`${tr.name}: pages, sorts and caps per_page at 200`, async () => {
      for (const name of ['Cees', 'anna', 'Bert']) await createOrder({ name });
      const page = await tr.call('page', { cookie: adminCookie, body: { page: '1', per_page: '2', sort: 'name', dir: 'asc' } });
      expect(page.data.total).toBe(3);
      expect(page.data.page).toBe(1);
      expect(page.data.per_page).toBe(2);
      expect(page.data.orders.map((o: { name: string }) => o.name)).toEqual(['anna', 'Bert']);
      expect(page.data.orders[0]).toMatchObject({
        cancelled: false,
        reminders_sent: 0,
        delivered: false,
        paid_at: null,
        invoice_date: null,
        credit_note_number: null,
      });
    });
  }

  it('caps per_page at 200 and refuses an unknown sort', async () => {
    await createOrder();
    expect((await t.request('/orders?page=1&per_page=500', { cookie: adminCookie })).json.per_page).toBe(200);
    const bad = await t.request('/orders?page=1&sort=email', { cookie: adminCookie });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      success: false,
      error: 'sort must be one of created_at, reference, name, amount, paid, tabler_name',
      code: 'FIELD_NOT_ALLOWED',
    });
  });

  it('refuses a back-office amount outside 1–10 with the Dutch message', async () => {
    const r = await t.request('/orders/create', { cookie: adminCookie, body: { name: 'Klant', email: 'k@example.nl', amount: 15, ...ORDER } });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ success: false, error: BACK_OFFICE_AMOUNT_MESSAGE, code: 'AMOUNT_OUT_OF_RANGE' });
    expect(BACK_OFFICE_AMOUNT_MESSAGE).toBe('Het aantal is 1 tot en met 10.');
  });
});

describe('the treasurer role (management.access)', () => {
  it('opens the campaign calls and nothing else of the admin area', async () => {
    await setSettings(t, adminCookie, VALID_INVOICE_SETTINGS);
    await t.createUser('penning', ['Penningmeesters']);
    const cookie = await t.cookieFor('penning');
    const id = await createOrder();
    for (const tr of [rest, trpc]) {
      expect((await tr.call('totals', { cookie })).status).toBe(200);
      expect((await tr.call('page', { cookie, body: { page: '1' } })).status).toBe(200);
    }
    expect((await rest.call('send', { cookie, id })).json.invoice_number).toBe('F2026-0001');
    expect((await t.request('/tablers', { cookie })).status).toBe(200);
    expect((await t.request('/orders/export.csv', { cookie })).status).toBe(200);
    expect((await t.request('/api/mail', { cookie })).status).toBe(200);
    for (const path of ['/api/users', '/api/groups', '/api/permissions', '/api/update/list', '/api/audit']) {
      const r = await t.request(path, { cookie });
      expect(r.status, path).toBe(403);
    }
    const settingsWrite = await t.request('/api/settings/update', { cookie, body: { key: 'club_iban', value: 'NL91ABNA0417164300' } });
    expect(settingsWrite.status).toBe(403);
    // A plain user gets none of it.
    await t.createUser('lid', ['Users']);
    const member = await t.cookieFor('lid');
    expectFailure(rest, await rest.call('totals', { cookie: member }), 403, 'Forbidden');
    expectFailure(trpc, await trpc.call('totals', { cookie: member }), 403, 'Forbidden');
    expectFailure(rest, await rest.call('totals', {}), 401, 'Not logged in');
  });
});
