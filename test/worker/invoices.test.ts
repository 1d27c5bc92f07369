import { env, SELF } from 'cloudflare:test';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openD1Db } from '../../src/db/d1';
import { mailOutbox, orders } from '../../src/db/schema';
import type { createR2FileStore } from '../../src/platform/files-r2';
import { adminCookie } from './sign-in';

const bindings = env as unknown as { APKS: Parameters<typeof createR2FileStore>[0]; DB: Parameters<typeof openD1Db>[0] };

/**
 * issue 13 inside workerd: invoices on D1 with their PDFs in R2 — the placeholder refusal, the stored
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

  it('refuses placeholders, stores the PDF in R2, credits in the same series, reminds and sums', async () => {
    const cookie = await adminCookie('198.51.100.41');
    const created = await post(
      '/orders/create',
      {
        name: 'Sietske Bakker',
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
    expect(await refused.json()).toEqual({
      success: false,
      error: 'Vul eerst het IBAN van de club in (instelling club_iban): er staat nog een voorbeeldwaarde.',
    });
    const badIban = await post('/api/settings/update', { key: 'club_iban', value: 'NL91ABNA0417164301' }, cookie);
    expect(badIban.status).toBe(400);
    for (const [key, value] of [
      ['club_iban', 'NL91ABNA0417164300'],
      ['club_kvk_number', '12345678'],
      ['club_vat_id', 'NL123456789B01'],
    ]) {
      expect((await post('/api/settings/update', { key, value }, cookie)).status).toBe(200);
    }

    const sent = (await (await post(`/orders/sendInvoice?id=${id}`, {}, cookie)).json()) as { invoice_number: string; queued: boolean };
    // SMTP_URL points at the test run's SMTP server: the invoice leaves at once.
    expect(sent.queued).toBe(false);
    const invoiceNumber = sent.invoice_number;
    const pdf = await get(`/orders/invoice.pdf?id=${id}`, cookie);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');

    const locked = await post(
      `/orders/update?id=${id}`,
      {
        name: 'Sietske Bakker',
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

    const reminder = await post(`/orders/sendReminder?id=${id}`, {}, cookie);
    expect(reminder.status).toBe(200);
    const totals = (await (await get('/orders/totals', cookie)).json()) as { orders: number; revenue_incl: number; open: { amount_incl: number } };
    expect(totals.open.amount_incl).toBeGreaterThanOrEqual(272.25);

    const credit = (await (await post(`/orders/creditInvoice?id=${id}`, {}, cookie)).json()) as { success: boolean; credit_note_number: string };
    expect(credit.success).toBe(true);
    const number = (n: string) => Number(n.slice(-4));
    expect(number(credit.credit_note_number)).toBe(number(invoiceNumber) + 1);
    const creditPdf = await get(`/orders/credit-note.pdf?id=${id}`, cookie);
    expect(creditPdf.status).toBe(200);
    expect((await post(`/orders/creditInvoice?id=${id}`, {}, cookie)).status).toBe(409);

    const mails = await db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));
    const kinds = mails.filter((m) => m.relatedRef?.endsWith(`:${id}`)).map((m) => m.kind);
    expect(kinds).toEqual(['invoice', 'reminder', 'credit-note']);
    const invoiceMail = mails.find((m) => m.kind === 'invoice' && m.relatedRef === `order:${id}`)!;
    expect(JSON.parse(invoiceMail.attachments)).toEqual([
      { filename: `Factuur-${invoiceNumber}.pdf`, contentType: 'application/pdf', fileKey: `invoices/${invoiceNumber}.pdf` },
      { filename: 'betaal-qr.png', contentType: 'image/png', fileKey: `invoices/${invoiceNumber}-betaal-qr.png`, contentId: 'betaal-qr' },
    ]);

    const bulk = (await (await post('/orders/bulk', { ids: [id], action: 'mark_paid' }, cookie)).json()) as { results: { id: number; success: boolean }[] };
    expect(bulk.results).toEqual([{ id, success: true }]);
    const after = (await (await get('/orders/totals', cookie)).json()) as { orders: number };
    expect(after.orders).toBe(totals.orders - 1);
  });
});
