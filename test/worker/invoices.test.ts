import { env, SELF } from 'cloudflare:test';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openD1Db } from '../../src/db/d1';
import { mailOutbox, orders, sequences } from '../../src/db/schema';
import { createR2FileStore } from '../../src/platform/files-r2';
import { CREDITED_NOT_PAYABLE } from '../../src/features/orders/orders.service';
import { VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { pdfText } from '../support/pdf-text';
import { adminCookie } from './sign-in';

const bindings = env as unknown as { APKS: Parameters<typeof createR2FileStore>[0]; DB: Parameters<typeof openD1Db>[0]; MAIL_SINK_URL: string };

/**
 * docs/decisions/018–026 inside workerd: invoices on D1 with their PDFs in R2 — the placeholder refusal, the stored
 * PDF, the credit note in the same number series, reminders, bulk actions, totals and the treasurer.
 */
describe('invoices, credit notes and reminders inside workerd (D1, R2)', () => {
  const site = 'https://kerst.example';
  const post = (path: string, body: unknown, cookie: string) =>
    SELF.fetch(`${site}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'cf-connecting-ip': '198.51.100.40' },
      body: JSON.stringify(body),
    });
  const get = (path: string, cookie: string) => SELF.fetch(`${site}${path}`, { headers: { cookie } });
  const setValidInvoiceSettings = async (cookie: string) => {
    for (const [key, value] of Object.entries(VALID_INVOICE_SETTINGS)) expect((await post('/api/settings/update', { key, value }, cookie)).status).toBe(200);
  };

  it('refuses placeholders, stores the PDF in R2, credits in the same series, reminds and sums', async () => {
    const cookie = await adminCookie('198.51.100.41');
    const created = await post(
      '/orders/create',
      {
        name: 'Łukasz Wiśniewski',
        email: 'sietske@example.nl',
        phone: '0612345678',
        address: 'Noorderhaven 1',
        postal_code: '8861 AA',
        city: 'Harlingen',
        amount: 3,
      },
      cookie,
    );
    const { order_reference } = (await created.json()) as { order_reference: string };
    const db = openD1Db(bindings.DB);
    const [row] = await db.select().from(orders).where(eq(orders.reference, order_reference));
    const id = row!.id;

    const refused = await post(`/orders/sendInvoice?id=${id}`, {}, cookie);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      success: false,
      error: 'Vul eerst het IBAN van de club in (instelling club_iban): er staat nog een voorbeeldwaarde.',
      code: 'INVOICE_SETTINGS_INCOMPLETE',
    });
    const badIban = await post('/api/settings/update', { key: 'club_iban', value: 'NL91ABNA0417164301' }, cookie);
    expect(badIban.status).toBe(400);
    await setValidInvoiceSettings(cookie);

    const sent = (await (await post(`/orders/sendInvoice?id=${id}`, {}, cookie)).json()) as { invoice_number: string; queued: boolean };
    // SMTP_URL points at the test run's SMTP server: the invoice leaves at once.
    expect(sent.queued).toBe(false);
    const invoiceNumber = sent.invoice_number;
    const pdf = await get(`/orders/invoice.pdf?id=${id}`, cookie);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    // The embedded font prints the name as typed (docs/decisions/059); not delivered yet, so no delivery date.
    const text = await pdfText(bytes);
    expect(text).toContain('Factuur aan Łukasz Wiśniewski Noorderhaven 1');
    expect(text).not.toContain('Leverdatum');

    const locked = await post(
      `/orders/update?id=${id}`,
      {
        name: 'Łukasz Wiśniewski',
        email: 'sietske@example.nl',
        phone: '0612345678',
        address: 'Noorderhaven 1',
        postal_code: '8861 AA',
        city: 'Harlingen',
        amount: 5,
      },
      cookie,
    );
    expect(locked.status).toBe(409);

    // On the day of invoicing a reminder is refused with the due date, unless confirmed (docs/decisions/059).
    const early = await post(`/orders/sendReminder?id=${id}`, {}, cookie);
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ success: false, due_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    const reminder = await post(`/orders/sendReminder?id=${id}`, { force: true }, cookie);
    expect(reminder.status).toBe(200);
    const totals = (await (await get('/orders/totals', cookie)).json()) as { orders: number; revenue_incl: number; open: { amount_incl: number } };
    expect(totals.open.amount_incl).toBeGreaterThanOrEqual(272.25);
    // The trigger put the issued sums' net amount beside them, which the totals sum (docs/decisions/075).
    const [issued] = await db.select({ net: orders.invoiceNetCents, amounts: orders.invoiceAmounts }).from(orders).where(eq(orders.id, id));
    expect(issued!.net).toBe((JSON.parse(issued!.amounts!) as { netCents: number }).netCents);

    const credit = (await (await post(`/orders/creditInvoice?id=${id}`, {}, cookie)).json()) as { success: boolean; credit_note_number: string };
    expect(credit.success).toBe(true);
    const number = (n: string) => Number(n.slice(-4));
    expect(number(credit.credit_note_number)).toBe(number(invoiceNumber) + 1);
    const creditPdf = await get(`/orders/credit-note.pdf?id=${id}`, cookie);
    expect(creditPdf.status).toBe(200);
    expect(await pdfText(new Uint8Array(await creditPdf.arrayBuffer()))).toContain('Creditnota aan Łukasz Wiśniewski');
    expect((await post(`/orders/creditInvoice?id=${id}`, {}, cookie)).status).toBe(409);

    const mails = await db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));
    const kinds = mails.filter((m) => m.relatedRef?.endsWith(`:${id}`)).map((m) => m.kind);
    expect(kinds).toEqual(['invoice', 'reminder', 'credit-note']);
    const invoiceMail = mails.find((m) => m.kind === 'invoice' && m.relatedRef === `order:${id}`)!;
    // The files are reached through the keys on the order's row, which never repeat (docs/decisions/049).
    const [stored] = await db.select().from(orders).where(eq(orders.id, id));
    expect(stored!.invoiceFileKey).toMatch(new RegExp(`^invoices/${invoiceNumber}-[0-9a-f]{16}\\.pdf$`));
    expect(stored!.invoiceQrKey).toMatch(new RegExp(`^invoices/${invoiceNumber}-[0-9a-f]{16}-betaal-qr\\.png$`));
    expect(JSON.parse(invoiceMail.attachments)).toEqual([
      { filename: `Factuur-${invoiceNumber}.pdf`, contentType: 'application/pdf', fileKey: stored!.invoiceFileKey },
      { filename: 'betaal-qr.png', contentType: 'image/png', fileKey: stored!.invoiceQrKey, contentId: 'betaal-qr' },
    ]);

    // A credited order is not paid afterwards (the audit's finding): the bulk action reports the refusal.
    const bulk = (await (await post('/orders/bulk', { ids: [id], action: 'mark_paid' }, cookie)).json()) as { results: { id: number; success: boolean }[] };
    expect(bulk.results).toMatchObject([{ id, success: false, error: CREDITED_NOT_PAYABLE, code: 'CREDITED_NOT_PAYABLE' }]);
    const after = (await (await get('/orders/totals', cookie)).json()) as { orders: number };
    expect(after.orders).toBe(totals.orders - 1);
  });

  it('after a D1 rollback with R2 kept, numbers go on past every number drawn and each order keeps its own PDF', async () => {
    const cookie = await adminCookie('198.51.100.42');
    await setValidInvoiceSettings(cookie);
    const db = openD1Db(bindings.DB);
    const files = createR2FileStore(bindings.APKS);
    const create = async (name: string) => {
      const body = {
        name,
        email: `${name.toLowerCase()}@example.nl`,
        phone: '0612345678',
        address: 'Voorstraat 9',
        postal_code: '8861 BJ',
        city: 'Harlingen',
        amount: 1,
      };
      const { order_reference } = (await (await post('/orders/create', body, cookie)).json()) as { order_reference: string };
      const [row] = await db.select().from(orders).where(eq(orders.reference, order_reference));
      return row!.id;
    };
    const send = async (id: number) => ((await (await post(`/orders/sendInvoice?id=${id}`, {}, cookie)).json()) as { invoice_number: string }).invoice_number;
    const credit = async (id: number) =>
      ((await (await post(`/orders/creditInvoice?id=${id}`, {}, cookie)).json()) as { credit_note_number: string }).credit_note_number;
    const row = async (id: number) => (await db.select().from(orders).where(eq(orders.id, id)))[0]!;
    const stored = async (key: string | null) => {
      const file = await files.get(key!);
      return new Uint8Array(await new Response(file!.body).arrayBuffer());
    };
    const download = async (path: string) => new Uint8Array(await (await get(path, cookie)).arrayBuffer());
    const sequence = (n: string) => Number(n.split('-')[1]);

    const anna = await create('Anna');
    const bert = await create('Bert');
    const carla = await create('Carla');
    const dirk = await create('Dirk');
    const annaNumber = await send(anna);
    const year = Number(annaNumber.slice(1, 5));
    // The moment Time Travel will go back to.
    const [counter] = await db
      .select()
      .from(sequences)
      .where(and(eq(sequences.name, 'invoice'), eq(sequences.year, year)));
    const bertNumber = await send(bert);
    await send(carla);
    const carlaCredit = await credit(carla);
    const bertBefore = await row(bert);
    const bertFile = await stored(bertBefore.invoiceFileKey);
    const carlaFile = await stored((await row(carla)).invoiceFileKey);

    // The rollback: D1 as it was before Bert's and Carla's documents; R2 keeps every file.
    await db
      .update(orders)
      .set({
        invoiceNumber: null,
        invoiceDate: null,
        invoiceTotalCents: null,
        invoiceAmounts: null,
        invoiceSent: false,
        invoiceFileKey: null,
        invoiceQrKey: null,
        creditNoteNumber: null,
        creditNoteDate: null,
        creditNoteFileKey: null,
        cancelled: false,
      })
      .where(inArray(orders.id, [bert, carla]));
    await db.delete(mailOutbox).where(inArray(mailOutbox.relatedRef, [`order:${bert}`, `order:${carla}`, `credit:${carla}`]));
    await db
      .update(sequences)
      .set({ value: counter!.value })
      .where(and(eq(sequences.name, 'invoice'), eq(sequences.year, year)));

    const dirkNumber = await send(dirk);
    expect(sequence(dirkNumber)).toBe(sequence(carlaCredit) + 1);
    const bertAgain = await send(bert);
    expect(sequence(bertAgain)).toBe(sequence(carlaCredit) + 2);
    expect(bertAgain).not.toBe(bertNumber);
    const annaCredit = await credit(anna);
    expect(sequence(annaCredit)).toBe(sequence(carlaCredit) + 3);

    // Every order reaches its own file, under a key of its own; the files of before the rollback are untouched.
    const bertAfter = await row(bert);
    expect(bertAfter.invoiceFileKey).not.toBe(bertBefore.invoiceFileKey);
    expect(await stored(bertBefore.invoiceFileKey)).toEqual(bertFile);
    const dirkPdf = await download(`/orders/invoice.pdf?id=${dirk}`);
    const bertPdf = await download(`/orders/invoice.pdf?id=${bert}`);
    expect(dirkPdf).toEqual(await stored((await row(dirk)).invoiceFileKey));
    expect(bertPdf).toEqual(await stored(bertAfter.invoiceFileKey));
    for (const earlier of [bertFile, carlaFile]) {
      expect(dirkPdf).not.toEqual(earlier);
      expect(bertPdf).not.toEqual(earlier);
    }
    const mails = await db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.relatedRef, [`order:${dirk}`, `order:${bert}`]));
    const attached = mails.map((m) => (JSON.parse(m.attachments) as { fileKey: string }[])[0]!.fileKey).sort();
    expect(attached).toEqual([bertAfter.invoiceFileKey, (await row(dirk)).invoiceFileKey].sort());
    expect((await files.list(`series/invoice/${year}/`)).length).toBeGreaterThanOrEqual(sequence(annaCredit));
  });

  it('answers a bulk send once every invoice is numbered and queued, and its waitUntil delivers each once (docs/decisions/053)', async () => {
    const cookie = await adminCookie('198.51.100.43');
    await setValidInvoiceSettings(cookie);
    const db = openD1Db(bindings.DB);
    const count = 40;
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const body = {
        name: `Bulk ${i}`,
        email: `bulkfactuur-${i}@example.nl`,
        phone: '0612345678',
        address: 'Kade 2',
        postal_code: '8861 AA',
        city: 'Harlingen',
        amount: 1,
      };
      const { order_reference } = (await (await post('/orders/create', body, cookie)).json()) as { order_reference: string };
      const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.reference, order_reference));
      ids.push(row!.id);
    }

    // Asked newest first, as the table lists them: numbered oldest first all the same (docs/decisions/059).
    const newestFirst = [...ids].reverse();
    const answer = await post('/orders/bulk', { ids: newestFirst, action: 'send_invoice' }, cookie);
    expect(await answer.json()).toEqual({ success: true, results: newestFirst.map((id) => ({ id, success: true })) });
    const numbered = await db.select().from(orders).where(inArray(orders.id, ids)).orderBy(asc(orders.id));
    const numbers = numbered.map((o) => o.invoiceNumber);
    expect(new Set(numbers).size).toBe(count);
    expect(numbers).toEqual(numbers.toSorted());
    expect(numbers.every((n) => /^F\d{4}-\d{4}$/.test(n ?? ''))).toBe(true);
    const relatedRefs = ids.map((id) => `order:${id}`);
    expect(await db.select({ id: mailOutbox.id }).from(mailOutbox).where(inArray(mailOutbox.relatedRef, relatedRefs))).toHaveLength(count);

    // No cron runs here: the bulk request's own waitUntil drains what it queued, at MAIL_RATE_PER_MINUTE.
    // Each recipient's messages so far: one after the invoices, two after the reminders.
    const delivered = async (refs: string[], each: number) => {
      const deadline = Date.now() + 25_000;
      for (;;) {
        const rows = await db.select({ status: mailOutbox.status }).from(mailOutbox).where(inArray(mailOutbox.relatedRef, refs));
        const messages = (await (await fetch(`${bindings.MAIL_SINK_URL}/messages`)).json()) as { to: string[] }[];
        const recipients = messages.flatMap((m) => m.to.filter((to) => to.startsWith('bulkfactuur-')));
        if ((rows.every((r) => r.status === 'sent') && recipients.length >= count * each) || Date.now() > deadline) return { rows, recipients };
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const everyone = ids.map((_, i) => `bulkfactuur-${i}@example.nl`).sort();
    const invoices = await delivered(relatedRefs, 1);
    expect(invoices.recipients.sort()).toEqual(everyone);
    expect(invoices.rows.map((r) => r.status)).toEqual(Array(count).fill('sent'));

    const reminded = await post('/orders/bulk', { ids, action: 'send_reminder', force: true }, cookie);
    expect(await reminded.json()).toEqual({ success: true, results: ids.map((id) => ({ id, success: true })) });
    const reminders = await delivered(
      ids.map((id) => `reminder:${id}`),
      2,
    );
    expect(reminders.recipients.sort()).toEqual([...everyone, ...everyone].sort());
    expect(reminders.rows.map((r) => r.status)).toEqual(Array(count).fill('sent'));
  }, 120_000);
});
