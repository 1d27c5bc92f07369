import { env, SELF } from 'cloudflare:test';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openD1Db } from '../../src/db/d1';
import { adminCookie } from './sign-in';

const bindings = env as unknown as { DB: Parameters<typeof openD1Db>[0] };

/**
 * docs/decisions/034 inside workerd: order search, paging and name sorting on D1 (and on Turso, through the
 * worker-turso project), where the trigram index of drizzle/0004_orders_fts.sql must exist and be kept
 * in step by its triggers just as on libSQL. The Node tests in depth: test/api/orders-scale.test.ts.
 */
describe('order search inside workerd', () => {
  const site = 'https://kerst.example';
  const headers = (cookie: string) => ({ 'content-type': 'application/json', cookie, 'cf-connecting-ip': '198.51.100.60' });
  const post = async (path: string, body: unknown, cookie: string) => {
    const response = await SELF.fetch(`${site}${path}`, { method: 'POST', headers: headers(cookie), body: JSON.stringify(body) });
    const json = (await response.json()) as Record<string, unknown>;
    expect(json, path).toMatchObject({ success: true });
    return json;
  };
  const page = async (query: string, cookie: string) =>
    (await (await SELF.fetch(`${site}/orders?${query}`, { headers: { cookie } })).json()) as { orders: { id: number; name: string }[]; total: number };

  it('finds orders through the trigram index whatever the accents, sorts names folded, and forgets deleted ones', async () => {
    const cookie = await adminCookie('198.51.100.62');
    const tabler = (await post('/tablers/create', { name: 'Hâns Zoeker' }, cookie)).tabler as { id: number };
    const order = (name: string, extra: Record<string, unknown> = {}) =>
      post(
        '/orders/create',
        { name, email: 'klant@example.nl', phone: '0517 123456', address: 'Voorstraat 1', postal_code: '8861 BJ', city: 'Harlingen', amount: 1, ...extra },
        cookie,
      );
    for (const name of ['Zoë Visser', 'Ëlsa de Vries', 'elsa Bakker', 'Émile Dijkstra']) await order(name);
    const withTabler = await order('Bram Meijer', { tabler_id: tabler.id, notes: '50% korting' });

    const names = async (query: string) => (await page(`page=1&per_page=50&${query}`, cookie)).orders.map((o) => o.name);
    expect(await names('q=ELSA&sort=name&dir=asc')).toEqual(['elsa Bakker', 'Ëlsa de Vries']);
    expect(await names('q=%C3%A9mile')).toEqual(['Émile Dijkstra']);
    expect(await names('q=50%25')).toEqual(['Bram Meijer']);
    // Two characters have no trigram: the scan finds them all the same.
    expect(await names('q=zo&sort=name&dir=asc')).toEqual(['Bram Meijer', 'Zoë Visser']);
    // The tabler's name, folded.
    expect(await names('q=hans%20zoe')).toEqual(['Bram Meijer']);
    expect(await names('sort=name&dir=asc')).toEqual(['Bram Meijer', 'elsa Bakker', 'Ëlsa de Vries', 'Émile Dijkstra', 'Zoë Visser']);

    const db = openD1Db(bindings.DB);
    const [{ id }] = (await db.all<{ id: number }>(sql`SELECT id FROM orders WHERE reference = ${withTabler.order_reference as string}`)) as [{ id: number }];
    await post(`/orders/delete?id=${id}`, {}, cookie);
    expect(await names('q=korting')).toEqual([]);
    await db.run(sql`INSERT INTO orders_fts(orders_fts, rank) VALUES ('integrity-check', 1)`);
    expect((await page('page=1&per_page=2&sort=name&dir=desc&q=harlingen', cookie)).total).toBe(4);
    // A page (one statement, the count on every row) carries the same rows as the whole list: every column under its own name.
    const whole = (await (await SELF.fetch(`${site}/orders?sort=name&dir=asc`, { headers: { cookie } })).json()) as { paid: boolean }[];
    expect((await page('page=1&per_page=50&sort=name&dir=asc', cookie)).orders).toEqual(whole);
    expect(whole[0]).toMatchObject({ name: 'elsa Bakker', email: 'klant@example.nl', city: 'Harlingen', tabler_name: null, amount: 1, paid: false });
    // The statement of a shape is kept prepared: the next request's values are its own, flags included.
    const zoe = (await db.all<{ id: number }>(sql`SELECT id FROM orders WHERE name = 'Zoë Visser'`))[0]!.id;
    await post('/orders/bulk', { ids: [zoe], action: 'mark_paid' }, cookie);
    expect(await names('paid=true&q=harlingen&sort=name&dir=asc')).toEqual(['Zoë Visser']);
    expect(await names('paid=false&q=harlingen&sort=name&dir=asc')).toEqual(['elsa Bakker', 'Ëlsa de Vries', 'Émile Dijkstra']);
    expect(await page('page=3&per_page=2&paid=false&q=harlingen&sort=name&dir=asc', cookie)).toEqual({ orders: [], total: 3, page: 3, per_page: 2 });
  });
});
