import { env, SELF } from 'cloudflare:test';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openD1Db } from '../../src/db/d1';
import { mailOutbox, onlinePayments, orders, paymentReversals } from '../../src/db/schema';
import { invoiceMailRef } from '../../src/features/invoices/invoice-delivered';
import { VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { ublRuleProblems } from '../support/ubl-rules';
import { adminCookie, SITE } from './sign-in';

const bindings = env as unknown as { DB: Parameters<typeof openD1Db>[0] };
const ip = { 'cf-connecting-ip': '198.51.100.120' };

/**
 * The accountant's journal inside workerd (DESIGN §6 "The books and safety", docs/decisions/076), on D1 and on Turso:
 * the year's bookings read through the Worker's database, and the triggers that date a refund or a chargeback.
 * The lane's other files share the database, so only this file's documents are compared line by line.
 */
describe('the journal inside workerd', () => {
  const db = openD1Db(bindings.DB);
  let cookie: string;
  const post = (path: string, body: unknown) =>
    SELF.fetch(`${SITE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, ...ip }, body: JSON.stringify(body) });

  async function invoicedOrder(name: string, business: Record<string, string> = {}): Promise<{ id: number; reference: string; invoice: string }> {
    const created = await post('/orders/create', {
      ...business,
      name,
      email: 'boek@example.nl',
      phone: '0612345678',
      address: 'Zoutsloot 3',
      postal_code: '8861 AB',
      city: 'Harlingen',
      amount: 2,
    });
    const { order_reference } = (await created.json()) as { order_reference: string };
    const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.reference, order_reference));
    const sent = await post(`/orders/sendInvoice?id=${row!.id}`, {});
    expect(sent.status).toBe(200);
    const { invoice_number } = (await sent.json()) as { invoice_number: string };
    return { id: row!.id, reference: order_reference, invoice: invoice_number };
  }

  it('books invoices, a credit note, a payment by hand and a refund, every document balanced', async () => {
    cookie = await adminCookie('198.51.100.121');
    for (const [key, value] of Object.entries(VALID_INVOICE_SETTINGS)) expect((await post('/api/settings/update', { key, value })).status).toBe(200);
    const credited = await invoicedOrder('Journaal Gecrediteerd');
    const creditNote = await post(`/orders/creditInvoice?id=${credited.id}`, {});
    const { credit_note_number } = (await creditNote.json()) as { credit_note_number: string };
    const byHand = await invoicedOrder('Journaal Afgevinkt');
    expect((await post('/orders/bulk', { ids: [byHand.id], action: 'mark_paid' })).status).toBe(200);

    // A refund as the reconciling batch writes it: the payment's total grows, and the trigger books the growth.
    const now = new Date().toISOString();
    await db.insert(onlinePayments).values({
      clubId: 1,
      providerId: 'tr_journaalWorker',
      orderId: byHand.id,
      reference: byHand.reference,
      status: 'paid',
      amountCents: 18150,
      paidAt: now,
      createdAt: now,
      updatedAt: now,
    });
    await db.update(onlinePayments).set({ refundedCents: 500, updatedAt: now }).where(eq(onlinePayments.providerId, 'tr_journaalWorker'));
    await db.update(onlinePayments).set({ refundedCents: 500, updatedAt: now }).where(eq(onlinePayments.providerId, 'tr_journaalWorker'));
    await db.update(onlinePayments).set({ refundedCents: 1500, updatedAt: now }).where(eq(onlinePayments.providerId, 'tr_journaalWorker'));
    // Only this payment's: the lane's other files refund and charge back in the same database.
    const [payment] = await db.select({ id: onlinePayments.id }).from(onlinePayments).where(eq(onlinePayments.providerId, 'tr_journaalWorker'));
    const reversals = await db.select().from(paymentReversals).where(eq(paymentReversals.onlinePaymentId, payment!.id)).orderBy(asc(paymentReversals.id));
    expect(reversals.map((r) => [r.kind, r.amountCents])).toEqual([
      ['refund', 500],
      ['refund', 1000],
    ]);

    const answer = await SELF.fetch(`${SITE}/orders/export/journal.csv?year=${now.slice(0, 4)}`, { headers: { cookie, ...ip } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = new Uint8Array(await answer.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = new TextDecoder('utf-8', { ignoreBOM: true })
      .decode(bytes)
      .slice(1)
      .split('\r\n')
      .filter(Boolean)
      .map((row) => row.split(';'));
    expect(rows[0]).toEqual(['datum', 'boekstuk', 'omschrijving', 'rekening', 'debet', 'credit', 'btw_tarief']);
    const lines = rows.slice(1);
    const of = (document: string) => lines.filter((l) => l[1] === document).map((l) => [l[3], l[4], l[5], l[6]]);
    expect(of(credited.invoice)).toEqual([
      ['1300', '181,50', '0,00', ''],
      ['8000', '0,00', '150,00', '21'],
      ['1500', '0,00', '31,50', '21'],
    ]);
    expect(of(credit_note_number)).toEqual([
      ['1300', '0,00', '181,50', ''],
      ['8000', '150,00', '0,00', '21'],
      ['1500', '31,50', '0,00', '21'],
    ]);
    expect(of(byHand.reference)).toEqual([
      ['1100', '181,50', '0,00', ''],
      ['1300', '0,00', '181,50', ''],
    ]);
    expect(of('tr_journaalWorker')).toEqual([
      ['1150', '181,50', '0,00', ''],
      ['1300', '0,00', '181,50', ''],
    ]);
    expect(of(`tr_journaalWorker-terugbetaling-${reversals[1]!.id}`)).toEqual([
      ['1150', '0,00', '10,00', ''],
      ['1300', '10,00', '0,00', ''],
    ]);
    // The credit note as UBL, read through the Worker's database: positive amounts, naming its invoice.
    const ubl = await SELF.fetch(`${SITE}/orders/credit-note.xml?id=${credited.id}`, { headers: { cookie, ...ip } });
    expect(ubl.status).toBe(200);
    expect(ubl.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xml = await ubl.text();
    expect(xml).toContain(`<cbc:ID>${credit_note_number}</cbc:ID>`);
    expect(xml).toContain(`<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>${credited.invoice}</cbc:ID>`);
    expect(xml).toContain('<cbc:PayableAmount currencyID="EUR">181.50</cbc:PayableAmount>');
    expect(ublRuleProblems(xml)).toEqual([]);
    // Every document of the lane's shared database balances.
    const sums = new Map<string, number>();
    const cents = (amount: string) => Number(amount.replace(',', ''));
    for (const l of lines) sums.set(l[1]!, (sums.get(l[1]!) ?? 0) + cents(l[4]!) - cents(l[5]!));
    expect([...sums].filter(([, sum]) => sum !== 0)).toEqual([]);
  });

  it("stores a business customer's UBL once, attaches it to the invoice mail, and downloads the same bytes (docs/decisions/078)", async () => {
    cookie = await adminCookie('198.51.100.122');
    for (const [key, value] of Object.entries(VALID_INVOICE_SETTINGS)) expect((await post('/api/settings/update', { key, value })).status).toBe(200);
    const order = await invoicedOrder('Journaal Zakelijk BV', { customer_kvk_number: '8765 4321', customer_vat_id: 'nl009876543b02' });
    const [row] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect([row!.customerKvkNumber, row!.customerVatId]).toEqual(['87654321', 'NL009876543B02']);
    expect(row!.invoiceUblKey).toMatch(new RegExp(`^invoices/${order.invoice}-[0-9a-f]{16}\\.xml$`));
    const [mail] = await db
      .select({ attachments: mailOutbox.attachments })
      .from(mailOutbox)
      .where(eq(mailOutbox.relatedRef, invoiceMailRef(order.id)));
    expect((JSON.parse(mail!.attachments!) as { filename: string; fileKey: string }[]).map((a) => [a.filename, a.fileKey])).toEqual([
      [`Factuur-${order.invoice}.pdf`, row!.invoiceFileKey],
      [`Factuur-${order.invoice}.xml`, row!.invoiceUblKey],
      ['betaal-qr.png', row!.invoiceQrKey],
    ]);
    const download = async () =>
      new Uint8Array(await (await SELF.fetch(`${SITE}/orders/invoice.xml?id=${order.id}`, { headers: { cookie, ...ip } })).arrayBuffer());
    const first = await download();
    expect(new TextDecoder().decode(first)).toContain('<cbc:CompanyID schemeID="0106">87654321</cbc:CompanyID></cac:PartyLegalEntity>');
    expect(ublRuleProblems(new TextDecoder().decode(first))).toEqual([]);
    expect(await download()).toEqual(first);
  });
});
