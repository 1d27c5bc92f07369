import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { createTwoClubs, type TwoClubs } from '../support/two-clubs';

/**
 * docs/decisions/074: order_counts, kept by triggers, always equals the orders counted by club and flags, whatever
 * wrote them; and a page filtered by flags alone answers its total from it.
 */
describe('the kept order counts', () => {
  let t: TwoClubs;
  const order = (name: string, amount = 1) => ({
    name,
    email: 'klant@example.nl',
    phone: '0612345678',
    address: 'Kade 1',
    postal_code: '8861 AA',
    city: 'Harlingen',
    amount,
  });

  beforeAll(async () => {
    t = await createTwoClubs();
    await setSettings(t, t.adminA, VALID_INVOICE_SETTINGS);
  });
  afterAll(async () => t.close());

  const kept = () =>
    t.database.all(sql`SELECT club_id, paid, invoice_sent, cancelled, delivered, orders FROM order_counts WHERE orders <> 0 ORDER BY 1, 2, 3, 4, 5`);
  const counted = () =>
    t.database.all(sql`SELECT club_id, paid, invoice_sent, cancelled, delivered, count(*) AS orders FROM orders GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`);
  const ids = async (as: TwoClubs['asA']) => ((await as('/orders')).json as { id: number; name: string }[]).map((o) => o.id);

  it('follows every write of an order, in each club apart, and pages filtered by flags count from it', async () => {
    for (let i = 0; i < 6; i++) expect((await t.asA('/orders/create', { body: order(`Klant A${i}`, i + 1) })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await t.asB('/orders/create', { body: order(`Klant B${i}`) })).status).toBe(200);
    expect(await kept()).toEqual(await counted());

    const [a0, a1, a2, a3, a4, a5] = await ids(t.asA);
    expect((await t.asA(`/orders/update?id=${a0}`, { body: { ...order('Klant A0 Betaald'), paid: true } })).json).toEqual({ success: true });
    expect((await t.asA(`/orders/sendInvoice?id=${a1}`, { body: {} })).status).toBe(200);
    expect((await t.asA(`/orders/sendInvoice?id=${a2}`, { body: {} })).status).toBe(200);
    expect((await t.asA(`/orders/creditInvoice?id=${a2}`, { body: {} })).status).toBe(200);
    expect((await t.asA(`/orders/setDelivered?id=${a3}`, { body: { delivered: true } })).json).toEqual({ success: true });
    expect((await t.asA('/orders/bulk', { body: { ids: [a4!, a5!], action: 'mark_paid', force: true } })).status).toBe(200);
    expect((await t.asA(`/orders/delete?id=${a5}`, { body: {} })).json).toEqual({ success: true });
    expect(await kept()).toEqual(await counted());

    // The flags' totals on a page equal the orders listed with the same filter, in each club.
    for (const query of ['', 'paid=true', 'paid=false', 'invoice_sent=true', 'cancelled=true', 'delivered=true&paid=false', 'paid=true&cancelled=false']) {
      for (const as of [t.asA, t.asB]) {
        const listed = (await as(`/orders?${query}`)).json as unknown[];
        const page = (await as(`/orders?page=1&per_page=2&${query}`)).json as { total: number };
        expect(page.total, query).toBe(listed.length);
      }
    }
    expect(((await t.asA('/orders?page=1&per_page=2')).json as { total: number }).total).toBe(5);
    expect(((await t.asB('/orders?page=1&per_page=2')).json as { total: number }).total).toBe(3);
  });
});
