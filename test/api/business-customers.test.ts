import { desc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, orders } from '../../src/db/schema';
import { CUSTOMER_KVK_MESSAGE, CUSTOMER_VAT_MESSAGE } from '../../src/core/business-ids';
import { invoicedOrderLocked } from '../../src/features/orders/orders.service';
import { createNodeSmtpTransport } from '../../src/platform/smtp-node';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { pdfText } from '../support/pdf-text';
import { attachmentsOf, decodeHeader, parseMime, startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, transports } from '../support/transports';
import { ublRuleProblems } from '../support/ubl-rules';

/**
 * docs/decisions/078: a business customer's KvK number and VAT id on the order, checked and stored compacted, printed on
 * the invoice and in its UBL, locked once invoiced; its invoice, reminder and credit note mails carry the stored UBL
 * beside the PDF, the very bytes the back-office downloads. Mail goes through a real SMTP server on loopback.
 */

const DAY = 24 * 60 * 60 * 1000;

let t: TestApp;
let sink: SmtpSink;
let admin: string;

type Op = 'create' | 'update';
const [rest, trpc] = transports<Op>(() => t, {
  rest: { create: ['POST', '/orders/create'], update: ['POST', '/orders/update', 'id'] },
  trpc: { create: ['mutation', 'orders.create'], update: ['mutation', 'orders.update', 'id'] },
});

beforeEach(async () => {
  t = await createTestApp();
  sink = await startSmtpSink();
  t.deps.mailTransport = createNodeSmtpTransport(sink.url);
  admin = await t.cookieFor('admin');
  await setSettings(t, admin, VALID_INVOICE_SETTINGS);
});

afterEach(async () => {
  await sink.stop();
  expect(t.errors).toEqual([]);
  await t.close();
});

const ORDER = { email: 'inkoop@wiersma.example.nl', phone: '0517 123456', address: 'Noorderhaven 12', postal_code: '8861 AL', city: 'Harlingen', amount: 2 };

async function newOrder(extra: Record<string, unknown> = {}): Promise<number> {
  const r = await rest.call('create', { cookie: admin, body: { name: 'Bakkerij Wiersma BV', ...ORDER, ...extra } });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  const [row] = await t.db.select({ id: orders.id }).from(orders).where(eq(orders.reference, r.json.order_reference));
  return row!.id;
}

const row = async (id: number) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const listed = async (id: number) => {
  const page = await t.request('/orders?page=1&per_page=200', { cookie: admin });
  return (page.json.orders as { id: number; customer_kvk_number: string | null; customer_vat_id: string | null }[]).find((o) => o.id === id)!;
};
const download = async (path: string) => {
  const response = await t.app.request(`http://127.0.0.1${path}`, { headers: { cookie: admin } });
  expect(response.status, path).toBe(200);
  return { type: response.headers.get('content-type'), bytes: new Uint8Array(await response.arrayBuffer()) };
};
/** The attachments of the newest mail to the customer, by file name. */
const lastMailAttachments = () => {
  const message = parseMime(sink.messages.at(-1)!.raw);
  return { subject: decodeHeader(message.headers.get('subject') ?? ''), files: attachmentsOf(message) };
};

describe('a business customer on the order', () => {
  it('stores the KvK number and VAT id compacted, over REST and tRPC, and refuses what is neither', async () => {
    for (const tr of [rest, trpc]) {
      const created = await tr.call('create', {
        cookie: admin,
        body: { name: `${tr.p} Wiersma`, ...ORDER, customer_kvk_number: ' 8765 4321 ', customer_vat_id: 'nl 0098.76.543 b02' },
      });
      expect(created.status, JSON.stringify(created.json)).toBe(200);
      const [stored] = await t.db
        .select()
        .from(orders)
        .where(eq(orders.name, `${tr.p} Wiersma`));
      expect([stored!.customerKvkNumber, stored!.customerVatId]).toEqual(['87654321', 'NL009876543B02']);
      expect(await listed(stored!.id)).toMatchObject({ customer_kvk_number: '87654321', customer_vat_id: 'NL009876543B02' });

      for (const [field, value, message] of [
        ['customer_kvk_number', '1234567', CUSTOMER_KVK_MESSAGE],
        ['customer_kvk_number', 'KVK12345678', CUSTOMER_KVK_MESSAGE],
        ['customer_vat_id', 'NL123456789', CUSTOMER_VAT_MESSAGE],
        ['customer_vat_id', 'US123456789', CUSTOMER_VAT_MESSAGE],
        ['customer_vat_id', 'X'.repeat(41), CUSTOMER_VAT_MESSAGE],
      ] as const) {
        const refused = await tr.call('create', { cookie: admin, body: { name: `${tr.p} Fout`, ...ORDER, [field]: value } });
        expectFailure(tr, refused, 400, message);
      }
      // A Belgian customer's VAT id is an EU one.
      const belgian = await tr.call('create', { cookie: admin, body: { name: `${tr.p} Brouwerij`, ...ORDER, customer_vat_id: 'BE 0123.456.789' } });
      expect(belgian.status).toBe(200);
      const [be] = await t.db
        .select()
        .from(orders)
        .where(eq(orders.name, `${tr.p} Brouwerij`));
      expect([be!.customerKvkNumber, be!.customerVatId]).toEqual([null, 'BE0123456789']);
    }
    expect(await t.db.select().from(orders).where(eq(orders.name, 'r Fout'))).toEqual([]);
  });

  it('keeps the numbers when an update leaves them out, and clears them with empty or null', async () => {
    const id = await newOrder({ customer_kvk_number: '87654321', customer_vat_id: 'NL009876543B02' });
    const base = { name: 'Bakkerij Wiersma BV', ...ORDER };
    expect((await rest.call('update', { cookie: admin, id, body: { ...base, phone: '0517 654321' } })).json).toEqual({ success: true });
    expect([(await row(id)).phone, (await row(id)).customerKvkNumber, (await row(id)).customerVatId]).toEqual(['0517 654321', '87654321', 'NL009876543B02']);
    expect((await trpc.call('update', { cookie: admin, id, body: { id, order: { ...base, customer_kvk_number: '' } } })).status).toBe(200);
    expect((await rest.call('update', { cookie: admin, id, body: { ...base, customer_vat_id: null } })).json).toEqual({ success: true });
    expect(await listed(id)).toMatchObject({ customer_kvk_number: null, customer_vat_id: null });
  });

  it('prints them on the invoice, locks them once it is issued, and names them in the UBL', async () => {
    const id = await newOrder({ customer_kvk_number: '87654321', customer_vat_id: 'NL009876543B02' });
    expect((await t.request(`/orders/sendInvoice?id=${id}`, { method: 'POST', cookie: admin })).json.invoice_number).toBe('F2026-0001');
    const pdf = await pdfText((await download(`/orders/invoice.pdf?id=${id}`)).bytes);
    expect(pdf).toContain(
      'Factuur aan Bakkerij Wiersma BV Noorderhaven 12 8861 AL Harlingen inkoop@wiersma.example.nl KvK-nummer: 87654321 Btw-id: NL009876543B02',
    );
    const xml = new TextDecoder().decode((await download(`/orders/invoice.xml?id=${id}`)).bytes);
    expect(ublRuleProblems(xml)).toEqual([]);
    const buyer = xml.slice(xml.indexOf('<cac:AccountingCustomerParty>'), xml.indexOf('</cac:AccountingCustomerParty>'));
    expect(buyer).toContain(
      '<cac:PartyTaxScheme><cbc:CompanyID>NL009876543B02</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>',
    );
    expect(buyer).toContain(
      '<cac:PartyLegalEntity><cbc:RegistrationName>Bakkerij Wiersma BV</cbc:RegistrationName><cbc:CompanyID schemeID="0106">87654321</cbc:CompanyID></cac:PartyLegalEntity>',
    );

    for (const change of [{ customer_vat_id: 'NL001111111B01' }, { customer_kvk_number: null }]) {
      for (const tr of [rest, trpc]) {
        const order = { name: 'Bakkerij Wiersma BV', ...ORDER, ...change };
        const refused = await tr.call('update', { cookie: admin, id, body: tr.name === 'REST' ? order : { id, order } });
        expectFailure(tr, refused, 409, invoicedOrderLocked('F2026-0001'));
      }
    }
    expect([(await row(id)).customerKvkNumber, (await row(id)).customerVatId]).toEqual(['87654321', 'NL009876543B02']);
    // The same numbers again are no change: the phone may still be edited.
    const same = { name: 'Bakkerij Wiersma BV', ...ORDER, phone: '0517 000000', customer_kvk_number: '8765 4321', customer_vat_id: 'NL009876543B02' };
    expect((await rest.call('update', { cookie: admin, id, body: same })).json).toEqual({ success: true });
  });
});

describe('the UBL beside the PDF', () => {
  it("mails a business customer's invoice, resend, reminder and credit note with the stored UBL, byte for byte the download", async () => {
    const id = await newOrder({ customer_vat_id: 'NL009876543B02' });
    expect((await t.request(`/orders/sendInvoice?id=${id}`, { method: 'POST', cookie: admin })).json.queued).toBe(false);
    const invoiceMail = lastMailAttachments();
    expect(invoiceMail.subject).toBe('Factuur F2026-0001 – kerstactie Ronde Tafel 144 Harlingen');
    expect(invoiceMail.files.map((file) => [file.filename, file.type])).toEqual([
      ['Factuur-F2026-0001.pdf', 'application/pdf'],
      ['Factuur-F2026-0001.xml', 'application/xml'],
    ]);
    const stored = await download(`/orders/invoice.xml?id=${id}`);
    expect(stored.type).toBe('application/xml; charset=utf-8');
    expect(invoiceMail.files[1]!.content).toEqual(stored.bytes);
    expect(new TextDecoder().decode(stored.bytes)).toContain('<cbc:ID>F2026-0001</cbc:ID>');
    const key = (await row(id)).invoiceUblKey!;
    expect(key).toMatch(/^invoices\/F2026-0001-[0-9a-f]{16}\.xml$/);

    // The club's name changes afterwards: the issued UBL does not, in the resend nor the download.
    await setSettings(t, admin, { club_name: 'Ronde Tafel 144 Harlingen-Franeker' });
    await t.request(`/orders/sendInvoice?id=${id}`, { method: 'POST', cookie: admin });
    expect(lastMailAttachments().files[1]!.content).toEqual(stored.bytes);
    expect((await download(`/orders/invoice.xml?id=${id}`)).bytes).toEqual(stored.bytes);

    t.clock.advance(15 * DAY);
    expect((await t.request(`/orders/sendReminder?id=${id}`, { method: 'POST', cookie: admin, body: {} })).json.success).toBe(true);
    const reminder = lastMailAttachments();
    expect(reminder.subject).toBe('Herinnering: factuur F2026-0001 – kerstactie Ronde Tafel 144 Harlingen-Franeker');
    expect(reminder.files.map((file) => file.filename)).toEqual(['Factuur-F2026-0001.pdf', 'Factuur-F2026-0001.xml']);
    expect(reminder.files[1]!.content).toEqual(stored.bytes);

    expect((await t.request(`/orders/creditInvoice?id=${id}`, { method: 'POST', cookie: admin })).json.credit_note_number).toBe('F2026-0002');
    const credit = lastMailAttachments();
    expect(credit.files.map((file) => [file.filename, file.type])).toEqual([
      ['Creditnota-F2026-0002.pdf', 'application/pdf'],
      ['Creditnota-F2026-0002.xml', 'application/xml'],
    ]);
    expect(credit.files[1]!.content).toEqual((await download(`/orders/credit-note.xml?id=${id}`)).bytes);
    expect(new TextDecoder().decode(credit.files[1]!.content)).toContain('<cac:InvoiceDocumentReference><cbc:ID>F2026-0001</cbc:ID>');
    expect(ublRuleProblems(new TextDecoder().decode(credit.files[1]!.content))).toEqual([]);
  });

  it("sends a private customer's mails as before, and stores its UBL only once it is downloaded", async () => {
    const id = await newOrder();
    await t.request(`/orders/sendInvoice?id=${id}`, { method: 'POST', cookie: admin });
    expect(lastMailAttachments().files.map((file) => file.filename)).toEqual(['Factuur-F2026-0001.pdf']);
    expect((await row(id)).invoiceUblKey).toBeNull();
    const first = await download(`/orders/invoice.xml?id=${id}`);
    expect((await row(id)).invoiceUblKey).toMatch(/^invoices\/F2026-0001-[0-9a-f]{16}\.xml$/);
    expect((await download(`/orders/invoice.xml?id=${id}`)).bytes).toEqual(first.bytes);
  });

  it('makes the UBL again under a new key when its file is gone, and mails that one', async () => {
    const id = await newOrder({ customer_kvk_number: '87654321' });
    await t.request(`/orders/sendInvoice?id=${id}`, { method: 'POST', cookie: admin });
    const lost = (await row(id)).invoiceUblKey!;
    await t.deps.files.delete(lost);
    await t.request(`/orders/sendInvoice?id=${id}`, { method: 'POST', cookie: admin });
    const again = (await row(id)).invoiceUblKey!;
    expect(again).not.toBe(lost);
    expect(await t.deps.files.exists(again)).toBe(true);
    const [mail] = await t.db.select({ attachments: mailOutbox.attachments }).from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(1);
    expect(JSON.parse(mail!.attachments!).map((a: { fileKey: string }) => a.fileKey)).toContain(again);
    expect(lastMailAttachments().files[1]!.content).toEqual((await download(`/orders/invoice.xml?id=${id}`)).bytes);
  });
});
