import { env, SELF } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openD1Db } from '../../src/db/d1';
import { auditLog, bankEntries, orders } from '../../src/db/schema';
import statementV08 from '../fixtures/camt053/rabobank-v08.xml?raw';
import { adminCookie } from './sign-in';

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
    expect((await db.select().from(orders).where(eq(orders.id, order!.id)))[0]).toMatchObject({ paid: false, paidAt: null });

    const confirm = await SELF.fetch(`${site}/api/payments/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, ...ip },
      body: JSON.stringify({ import_id: preview.import_id }),
    });
    expect(confirm.status).toBe(200);
    const matched = preview.entries.filter((e) => e.status === 'matched').length;
    expect(await confirm.json()).toEqual({ success: true, marked_paid: matched });
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
    expect(confirmed.map((a) => JSON.parse(a.details))).toEqual([{ import_id: preview.import_id, marked_paid: matched }]);

    const again = await importStatement(statement, cookie);
    expect(again.entries.find((e) => e.entry_ref === 'RABO-2026-12-10-000001')).toMatchObject({ status: 'already_imported', order_id: order!.id });
    const second = await SELF.fetch(`${site}/trpc/payments.confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, ...ip },
      body: JSON.stringify({ import_id: again.import_id }),
    });
    expect(((await second.json()) as { result: { data: unknown } }).result.data).toEqual({ success: true, marked_paid: 0 });
  });

  it('refuses a file that is not a CAMT.053 statement with the Dutch explanation', async () => {
    const cookie = await adminCookie('198.51.100.61');
    const form = new FormData();
    form.append('file', new Blob(['<!DOCTYPE html><html><body>Inloggen</body></html>'], { type: 'text/html' }), 'afschrift.html');
    const response = await SELF.fetch(`${site}/api/payments/import`, { method: 'POST', headers: { cookie, ...ip }, body: form as never }); // workerd's FormData at run time; typed by the DOM lib here
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      success: false,
      error: 'Dit bestand is geen CAMT.053-bankafschrift (XML). Download het afschrift als CAMT.053 bij je bank.',
    });
  });
});
