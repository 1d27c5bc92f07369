import { asc, eq, inArray } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, orders } from '../../src/db/schema';
import { invoiceSentMessage, ORDER_CREDITED, reminderSentMessage } from '../../src/features/invoices/invoices.service';
import { mailSettled } from '../../src/features/mail/mail-delivery';
import type { MailTransport } from '../../src/platform/mail';
import { createNodeSmtpTransport } from '../../src/platform/smtp-node';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { decodeHeader, parseMime, startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { createTestApp, type TestApp } from '../support/test-app';
import { transports } from '../support/transports';

/**
 * docs/decisions/053 "Bulk sends": a bulk send of invoices or reminders numbers and queues every order's
 * mail and answers before any of it is delivered; one drain then delivers each message once, to a real
 * SMTP server on loopback. A single send still waits for its own message.
 */

const ORDERS = 60;

/**
 * The real SMTP transport behind a gate: while it is shut no message reaches the server, so a request
 * that waited for its mail could not answer at all.
 */
function gatedTransport(inner: MailTransport) {
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const transport: MailTransport = {
    send: async (message) => {
      await gate;
      await inner.send(message);
    },
    close: () => inner.close?.(),
  };
  return {
    transport,
    shut: () => {
      gate = new Promise((resolve) => {
        release = resolve;
      });
    },
    open: () => release(),
  };
}

let t: TestApp;
let sink: SmtpSink;
let gated: ReturnType<typeof gatedTransport>;
let adminCookie: string;

type Op = 'send' | 'remind' | 'bulk';
const [rest, trpc] = transports<Op>(() => t, {
  rest: { send: ['POST', '/orders/sendInvoice', 'id'], remind: ['POST', '/orders/sendReminder', 'id'], bulk: ['POST', '/orders/bulk'] },
  trpc: { send: ['mutation', 'invoices.send', 'id'], remind: ['mutation', 'invoices.remind', 'id'], bulk: ['mutation', 'invoices.bulk'] },
});

beforeEach(async () => {
  // The rate is not what this test is about: 100 a second keeps it short.
  t = await createTestApp({ env: { MAIL_RATE_PER_MINUTE: '6000' } });
  sink = await startSmtpSink();
  gated = gatedTransport(createNodeSmtpTransport(sink.url));
  t.deps.mailTransport = gated.transport;
  adminCookie = await t.cookieFor('admin');
  await setSettings(t, adminCookie, VALID_INVOICE_SETTINGS);
});

afterEach(async () => {
  gated.open();
  await mailSettled(t.deps);
  await sink.stop();
  expect(t.errors).toEqual([]);
  await t.close();
});

async function createOrders(prefix: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= ORDERS; i++) {
    const r = await t.request('/orders/create', {
      cookie: adminCookie,
      body: {
        name: `Klant ${i}`,
        email: `${prefix}-${i}@example.nl`,
        phone: '0612345678',
        address: 'Kade 1',
        postal_code: '8861 AA',
        city: 'Harlingen',
        amount: 1,
      },
    });
    const [row] = await t.db.select({ id: orders.id }).from(orders).where(eq(orders.reference, r.json.order_reference));
    ids.push(row!.id);
  }
  return ids;
}

const mailsOf = (kind: string) => t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, kind)).orderBy(asc(mailOutbox.id));

/** Polls the outbox until every message of `kind` is sent; bounded, so a drain that stops fails the test. */
async function allSent(kind: string, count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const rows = await mailsOf(kind);
    if (rows.length === count && rows.every((row) => row.status === 'sent')) return;
    if (Date.now() > deadline) throw new Error(`${rows.filter((row) => row.status === 'sent').length} of ${count} ${kind} mails sent after 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** What the SMTP server received, per recipient: the decoded subjects. */
function received(prefix: string): Map<string, string[]> {
  const byRecipient = new Map<string, string[]>();
  for (const message of sink.messages) {
    for (const to of message.to.filter((address) => address.startsWith(`${prefix}-`))) {
      byRecipient.set(to, [...(byRecipient.get(to) ?? []), decodeHeader(parseMime(message.raw).headers.get('subject')!)]);
    }
  }
  return byRecipient;
}

describe('bulk sends queue every mail and deliver them after the answer (docs/decisions/053)', () => {
  for (const tr of [rest, trpc]) {
    it(`${tr.name}: numbers and queues ${ORDERS} invoices before any leaves, then delivers each once; reminders alike`, async () => {
      const prefix = `bulk${tr.p}`;
      const ids = await createOrders(prefix);

      gated.shut();
      const sent = await tr.call('bulk', { cookie: adminCookie, body: { ids, action: 'send_invoice' } });
      expect(sent.data).toEqual({ success: true, results: ids.map((id) => ({ id, success: true })) });
      const numbered = await t.db.select().from(orders).where(inArray(orders.id, ids)).orderBy(asc(orders.id));
      expect(numbered.map((o) => o.invoiceNumber)).toEqual(ids.map((_, i) => `F2026-${String(i + 1).padStart(4, '0')}`));
      expect(numbered.every((o) => o.invoiceFileKey !== null && !o.invoiceSent)).toBe(true);
      const queued = await mailsOf('invoice');
      expect(queued.map((m) => m.toAddress)).toEqual(ids.map((_, i) => `${prefix}-${i + 1}@example.nl`));
      expect(queued.every((m) => m.status === 'queued' || m.status === 'sending')).toBe(true);
      expect(sink.messages).toHaveLength(0);

      gated.open();
      await allSent('invoice', ORDERS);
      await mailSettled(t.deps);
      const invoices = received(prefix);
      expect(invoices.size).toBe(ORDERS);
      ids.forEach((_, i) => {
        expect(invoices.get(`${prefix}-${i + 1}@example.nl`)).toEqual([
          `Factuur F2026-${String(i + 1).padStart(4, '0')} – kerstactie Ronde Tafel 144 Harlingen`,
        ]);
      });
      const marked = await t.db.select({ invoiceSent: orders.invoiceSent }).from(orders).where(inArray(orders.id, ids));
      expect(marked.every((o) => o.invoiceSent)).toBe(true);

      // A single send from the order's dialog still waits for its message and says it left.
      const single = await tr.call('send', { cookie: adminCookie, id: ids[0] });
      expect(single.data).toMatchObject({ queued: false, message: invoiceSentMessage('F2026-0001', `${prefix}-1@example.nl`) });

      gated.shut();
      // Sent before the payment term ends, as the treasurer confirmed (docs/decisions/059).
      const reminded = await tr.call('bulk', { cookie: adminCookie, body: { ids, action: 'send_reminder', force: true } });
      expect(reminded.data).toEqual({ success: true, results: ids.map((id) => ({ id, success: true })) });
      const counted = await t.db.select({ remindersSent: orders.remindersSent }).from(orders).where(inArray(orders.id, ids));
      expect(counted.every((o) => o.remindersSent === 1)).toBe(true);
      expect((await mailsOf('reminder')).every((m) => m.status === 'queued' || m.status === 'sending')).toBe(true);
      expect(sink.messages).toHaveLength(ORDERS + 1);

      gated.open();
      await allSent('reminder', ORDERS);
      await mailSettled(t.deps);
      expect(sink.messages).toHaveLength(2 * ORDERS + 1);
      const all = received(prefix);
      ids.forEach((_, i) => {
        const number = `F2026-${String(i + 1).padStart(4, '0')}`;
        expect(all.get(`${prefix}-${i + 1}@example.nl`)?.filter((subject) => subject.startsWith('Herinnering'))).toEqual([
          `Herinnering: factuur ${number} – kerstactie Ronde Tafel 144 Harlingen`,
        ]);
      });

      const singleReminder = await tr.call('remind', { cookie: adminCookie, id: ids[1], body: { force: true } });
      expect(singleReminder.data).toEqual({ success: true, queued: false, message: reminderSentMessage('F2026-0002', `${prefix}-2@example.nl`) });
    });
  }

  it('reports each refused order in its result and still delivers the mail of the others', async () => {
    const ids = (await createOrders('mixed')).slice(0, 3);
    expect((await rest.call('send', { cookie: adminCookie, id: ids[0] })).data.queued).toBe(false);
    expect((await t.request(`/orders/creditInvoice?id=${ids[0]}`, { cookie: adminCookie, body: {} })).status).toBe(200);
    gated.shut();
    const sent = await rest.call('bulk', { cookie: adminCookie, body: { ids: [...ids, 999_999], action: 'send_invoice' } });
    expect(sent.data).toEqual({
      success: true,
      results: [
        { id: ids[0], success: false, error: ORDER_CREDITED, code: 'ORDER_CREDITED' },
        { id: ids[1], success: true },
        { id: ids[2], success: true },
        { id: 999_999, success: false, error: 'Bestelling niet gevonden.', code: 'ORDER_NOT_FOUND' },
      ],
    });
    gated.open();
    await allSent('invoice', 3);
    const reminded = await rest.call('bulk', { cookie: adminCookie, body: { ids: [ids[0], ids[1]], action: 'send_reminder', force: true } });
    expect(reminded.data.results).toEqual([
      { id: ids[0], success: false, error: ORDER_CREDITED, code: 'ORDER_CREDITED' },
      { id: ids[1], success: true },
    ]);
    await allSent('reminder', 1);
    await mailSettled(t.deps);
    // The first order's invoice and credit note, the others' invoices, one reminder: each once.
    expect(sink.messages.map((m) => m.to[0]).sort()).toEqual([
      'mixed-1@example.nl',
      'mixed-1@example.nl',
      'mixed-2@example.nl',
      'mixed-2@example.nl',
      'mixed-3@example.nl',
    ]);
  });
});
