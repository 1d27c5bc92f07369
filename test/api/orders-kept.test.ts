import { inArray, sql } from 'drizzle-orm';
import { asClubId, clubDb } from '../../src/db/club-db';
import { orders } from '../../src/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { createTwoClubs, type TwoClubs } from '../support/two-clubs';

/**
 * docs/decisions/074: what triggers keep for the orders page. order_counts always equals the orders counted by club
 * and flags, whatever wrote them, and a page filtered by flags alone answers its total from it; an order's
 * tabler_sort is always its tabler's folded name; its invoice_net_cents the net amount of its issued sums (075).
 */
describe('what the orders page keeps', () => {
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
    // The issued sums' net amount beside them, for the totals (docs/decisions/075): set on the two invoices, on no other.
    const nets = await t.database.all<{ id: number; net: number | null; issued: number | null }>(
      sql`SELECT id, invoice_net_cents AS net, json_extract(invoice_amounts, '$.netCents') AS issued FROM orders ORDER BY id`,
    );
    expect(new Set(nets.filter((row) => row.net !== null).map((row) => row.id))).toEqual(new Set([a1, a2]));
    expect(nets.every((row) => row.net === row.issued)).toBe(true);

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

  it("keeps each order's tabler sort key its tabler's folded name through renames, moves and deletes", async () => {
    const sortKeys = () =>
      t.database.all<{ id: number; kept: string | null; name: string | null }>(
        sql`SELECT o.id, o.tabler_sort AS kept, t.search_name AS name FROM orders o LEFT JOIN tablers t ON t.id = o.tabler_id ORDER BY o.id`,
      );
    const piet = (await t.asA('/tablers/create', { body: { name: 'Piet Élzinga' } })).json.tabler.id as number;
    const jan = (await t.asA('/tablers/create', { body: { name: 'Jan Bakker' } })).json.tabler.id as number;
    for (const [i, tabler] of [piet, jan, piet].entries()) {
      expect((await t.asA('/orders/create', { body: { ...order(`Besteller ${i}`), tabler_id: tabler } })).status).toBe(200);
    }
    const ours = async () => (await sortKeys()).filter((row) => row.kept !== null || row.name !== null);
    expect((await ours()).map((row) => row.kept)).toEqual(['piet elzinga', 'jan bakker', 'piet elzinga']);
    expect((await t.asA(`/tablers/update?id=${piet}`, { body: { name: 'Pieter Zijlstra' } })).status).toBe(200);
    const [first] = (await t.asA('/orders?page=1&per_page=1&sort=tabler_name&dir=desc')).json.orders as { tabler_name: string }[];
    expect(first!.tabler_name).toBe('Pieter Zijlstra');
    const [moved] = (await ours()).filter((row) => row.kept === 'jan bakker');
    expect((await t.asA(`/orders/update?id=${moved!.id}`, { body: { ...order('Besteller 1'), tabler_id: piet } })).json).toEqual({ success: true });
    expect((await t.asA(`/tablers/delete?id=${jan}`, { body: {} })).status).toBe(200);
    const rows = await sortKeys();
    expect(rows.every((row) => row.kept === row.name)).toBe(true);
    expect(rows.filter((row) => row.kept === 'pieter zijlstra')).toHaveLength(3);
  });

  it("keeps a cross-joined table to the handle's club, also after a later where (docs/decisions/071, 074)", async () => {
    const dbA = clubDb(t.database, asClubId(1));
    const ofA = (await dbA.select({ id: orders.id }).from(orders)).map((row) => row.id).sort((a, b) => a - b);
    const ofB = (await t.dbB.select({ id: orders.id }).from(orders)).map((row) => row.id).sort((a, b) => a - b);
    expect(ofA.length).toBeGreaterThan(0);
    expect(ofB.length).toBeGreaterThan(0);
    const one = sql`(SELECT 1 AS ${sql.identifier('x')})`;
    const crossed = await t.dbB.select({ id: orders.id }).from(one).crossJoin(orders).orderBy(orders.id);
    expect(crossed.map((row) => row.id)).toEqual(ofB);
    // A later where adds to the club's condition; naming all of A's ids still finds none of them.
    const named = await t.dbB
      .select({ id: orders.id })
      .from(one)
      .crossJoin(orders)
      .where(inArray(orders.id, [...ofA, ...ofB]));
    expect(named.map((row) => row.id).sort((a, b) => a - b)).toEqual(ofB);
  });
});
