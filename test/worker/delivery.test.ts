import { env, SELF } from 'cloudflare:test';
import { and, asc, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { extractText } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { openD1Db } from '../../src/db/d1';
import { auditLog, orders } from '../../src/db/schema';
import { adminCookie, SITE } from './sign-in';

const bindings = env as unknown as { DB: Parameters<typeof openD1Db>[0] };

/**
 * docs/decisions/023 inside workerd: the delivered mark (REST, tRPC and bulk) with its audit entry in the same
 * batch on D1 (or Turso on the worker-turso project), and the delivery list PDF made by the lazily loaded
 * pdf-lib with the Worker's trimmed standard fonts (wrangler.toml [alias]).
 */
describe('delivery day inside workerd', () => {
  const ip = { 'cf-connecting-ip': '198.51.100.80' };
  const post = (path: string, body: unknown, cookie: string) =>
    SELF.fetch(`${SITE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, ...ip }, body: JSON.stringify(body) });

  it('marks orders delivered and back, and prints the rest of the list in driving order', async () => {
    const cookie = await adminCookie('198.51.100.81');
    const tabler = (await (await post('/tablers/create', { name: 'Worker Bezorger' }, cookie)).json()) as { tabler: { id: number } };
    const tablerId = tabler.tabler.id;
    const db = openD1Db(bindings.DB);
    const ids: Record<string, number> = {};
    for (const [name, address, postal_code, notes] of [
      ['Wietske Tien', 'Voorstraat 10', '8861 BJ', null],
      ['Wietske Twee', 'Voorstraat 2', '8861 BJ', 'Bel aan bij de buren'],
      ['Anne Achter', 'Achterstraat 7', '8861 AA', null],
      ['Bauke Bezorgd', 'Voorstraat 4', '8861 BJ', null],
      ['Doutzen Dubbel', 'Voorstraat 6', '8861 BJ', null],
    ] as const) {
      const created = await post(
        '/orders/create',
        { tabler_id: tablerId, name, email: 'klant@example.nl', phone: '0517 123456', address, postal_code, city: 'Harlingen', amount: 2, notes },
        cookie,
      );
      const { order_reference } = (await created.json()) as { order_reference: string };
      const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.reference, order_reference));
      ids[name] = row!.id;
    }

    const marked = await post(`/orders/setDelivered?id=${ids['Bauke Bezorgd']}`, { delivered: true }, cookie);
    expect([marked.status, await marked.json()]).toEqual([200, { success: true }]);
    const [bauke] = await db.select().from(orders).where(eq(orders.id, ids['Bauke Bezorgd']!));
    expect(bauke!.delivered).toBe(true);
    expect(Date.parse(bauke!.deliveredAt!)).toBeGreaterThan(Date.now() - 60_000);
    const entries = await db
      .select({ details: auditLog.details, actor: auditLog.actorUsername })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'order.delivered'), eq(auditLog.target, `order:${bauke!.id} (${bauke!.reference})`)))
      .orderBy(asc(auditLog.id));
    expect(entries).toEqual([{ details: JSON.stringify({ delivered: [false, true] }), actor: 'admin' }]);
    const missing = await post('/orders/setDelivered?id=999999', { delivered: true }, cookie);
    expect([missing.status, await missing.json()]).toMatchObject([404, { success: false, error: 'Bestelling niet gevonden.', code: 'ORDER_NOT_FOUND' }]);

    // The SPA's twin, then the bulk action: Doutzen delivered by mistake, and taken back.
    const twin = await post('/trpc/delivery.setDelivered', { id: ids['Doutzen Dubbel'], delivered: true }, cookie);
    expect(((await twin.json()) as { result: { data: unknown } }).result.data).toEqual({ success: true });
    const bulk = await post('/orders/bulk', { ids: [ids['Doutzen Dubbel']], action: 'mark_undelivered' }, cookie);
    expect(((await bulk.json()) as { results: unknown[] }).results).toEqual([{ id: ids['Doutzen Dubbel'], success: true }]);
    const [doutzen] = await db.select().from(orders).where(eq(orders.id, ids['Doutzen Dubbel']!));
    expect([doutzen!.delivered, doutzen!.deliveredAt]).toEqual([false, null]);

    const response = await SELF.fetch(`${SITE}/orders/delivery-list.pdf?tabler_id=${tablerId}`, { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="bezorglijst-worker-bezorger.pdf"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
    const { text } = await extractText(bytes, { mergePages: true });
    const page = text.replace(/\s+/g, ' ');
    expect(page).toContain('Tabler: Worker Bezorger');
    expect(page).toContain('Te bezorgen: 4 bestellingen, 8 pakketten');
    expect(page).toContain('Opmerking: Bel aan bij de buren');
    expect(page).not.toContain('Bauke Bezorgd');
    const order = ['Anne Achter', 'Wietske Twee', 'Doutzen Dubbel', 'Wietske Tien'];
    expect(order.map((name) => page.indexOf(name))).toEqual(order.map((name) => page.indexOf(name)).sort((a, b) => a - b));
    expect(order.every((name) => page.includes(name))).toBe(true);

    const unknown = await SELF.fetch(`${SITE}/orders/delivery-list.pdf?tabler_id=999999`, { headers: { cookie } });
    expect([unknown.status, await unknown.json()]).toMatchObject([404, { success: false, error: 'Tabler niet gevonden.', code: 'TABLER_NOT_FOUND' }]);
  });
});
