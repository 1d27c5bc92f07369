import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let admin: string;
let plain: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.cookieFor('admin');
  await t.createUser('orders_plain');
  plain = await t.cookieFor('orders_plain');
});
afterAll(async () => t.close());
afterEach(() => expect(t.errors).toEqual([]));

const order = (tablerId: number | null, name: string, extra: Record<string, unknown> = {}) => ({
  tabler_id: tablerId,
  name,
  email: 'klant@example.nl',
  phone: '0517 123456',
  address: 'Voorstraat 1',
  postal_code: '8861 BJ',
  city: 'Harlingen',
  amount: 2,
  ...extra,
});

describe('tablers and orders in the back-office', () => {
  it('creates, renames and deletes tablers with the gate rules, and keeps their orders as Onbekend', async () => {
    const created = await t.request('/tablers/create', { cookie: admin, body: { name: '  Sjoerd de Vries ' } });
    expect(created.json).toMatchObject({ success: true, tabler: { name: 'Sjoerd de Vries' } });
    const id = created.json.tabler.id as number;
    expect((await t.request('/tablers/create', { cookie: admin, body: { name: '' } })).json).toEqual({ success: false, error: 'Naam is verplicht.' });
    expect((await t.request('/tablers/create', { cookie: admin, body: { name: '12' } })).json).toEqual({
      success: false,
      error: 'Een tablernaam heeft minimaal 3 tekens en bevat letters.',
    });
    const clash = await t.request('/tablers/create', { cookie: admin, body: { name: 'sjoerd' } });
    expect([clash.status, clash.json.error]).toEqual([
      409,
      'Deze naam lijkt te veel op die van Sjoerd de Vries: het bestelformulier kan ze dan niet uit elkaar houden.',
    ]);
    const renamed = await t.request(`/tablers/update?id=${id}`, { cookie: admin, body: { name: 'Sjoerd Vries' } });
    expect(renamed.json.tabler.name).toBe('Sjoerd Vries');
    expect((await t.request('/tablers/update?id=999', { cookie: admin, body: { name: 'Piet' } })).json).toEqual({
      success: false,
      error: 'Tabler niet gevonden.',
    });

    expect((await t.request('/orders/create', { cookie: admin, body: order(id, 'Élise Bakker') })).status).toBe(200);
    expect((await t.request(`/tablers/delete?id=${id}`, { cookie: admin, method: 'POST' })).json).toEqual({ success: true });
    const orders = await t.request('/orders?tabler_id=none', { cookie: admin });
    expect(orders.json).toHaveLength(1);
    expect(orders.json[0]).toMatchObject({ tabler_id: null, tabler_name: null, name: 'Élise Bakker' });
  });

  it('filters orders on the server: paid, invoice sent, tabler and text (accents and case ignored)', async () => {
    const tabler = (await t.request('/tablers/create', { cookie: admin, body: { name: 'Wytze' } })).json.tabler.id as number;
    await t.request('/orders/create', { cookie: admin, body: order(tabler, 'Anna Zijlstra', { paid: true }) });
    await t.request('/orders/create', { cookie: admin, body: order(tabler, 'Ben Hoekstra', { notes: 'Bezorgen na 17:00' }) });
    const names = async (query: string) => ((await t.request(`/orders${query}`, { cookie: admin })).json as { name: string }[]).map((o) => o.name).sort();
    expect(await names('?paid=true')).toEqual(['Anna Zijlstra']);
    expect(await names(`?tabler_id=${tabler}&paid=false`)).toEqual(['Ben Hoekstra']);
    expect(await names('?q=ELISE')).toEqual(['Élise Bakker']);
    expect(await names('?q=17:00')).toEqual(['Ben Hoekstra']);
    expect(await names('?q=wytze')).toEqual(['Anna Zijlstra', 'Ben Hoekstra']);
    expect(await names('?invoice_sent=true')).toEqual([]);
    const bad = await t.request('/orders?paid=maybe', { cookie: admin });
    expect([bad.status, bad.json]).toEqual([400, { success: false, error: 'Filter must be true or false' }]);
  });

  it('updates an order, marks it paid and deletes it; amounts above 10 are refused in the back-office', async () => {
    const tabler = (await t.request('/tablers/create', { cookie: admin, body: { name: 'Hendrik' } })).json.tabler.id as number;
    await t.request('/orders/create', { cookie: admin, body: order(tabler, 'Cees Visser') });
    const [row] = (await t.request('/orders?q=cees', { cookie: admin })).json as { id: number; reference: string }[];
    const updated = await t.request(`/orders/update?id=${row!.id}`, { cookie: admin, body: order(tabler, 'Cees Visser', { amount: 4, city: 'Midlum' }) });
    expect(updated.json).toEqual({ success: true });
    const tooMany = await t.request(`/orders/update?id=${row!.id}`, { cookie: admin, body: order(tabler, 'Cees Visser', { amount: 11 }) });
    expect(tooMany.json).toEqual({ success: false, error: 'Het aantal is 1 tot en met 10.' });
    const paid = await t.request('/trpc/orders.setPaid', { cookie: admin, body: { id: row!.id, paid: true } });
    expect(paid.json.result.data).toEqual({ success: true });
    const [after] = (await t.request('/orders?q=cees', { cookie: admin })).json as { amount: number; city: string; paid: boolean; reference: string }[];
    expect(after).toMatchObject({ amount: 4, city: 'Midlum', paid: true, reference: row!.reference });
    expect((await t.request(`/orders/delete?id=${row!.id}`, { cookie: admin, method: 'POST' })).json).toEqual({ success: true });
    expect((await t.request(`/orders/delete?id=${row!.id}`, { cookie: admin, method: 'POST' })).json).toEqual({
      success: false,
      error: 'Bestelling niet gevonden.',
    });
  });

  it('keeps every back-office call for admins', async () => {
    for (const [cookie, status] of [
      ['', 401],
      [plain, 403],
    ] as const) {
      expect((await t.request('/orders', { cookie })).status).toBe(status);
      expect((await t.request('/tablers/create', { cookie, body: { name: 'Nope' } })).status).toBe(status);
      expect((await t.request('/orders/update?id=1', { cookie, body: {} })).status).toBe(status);
      expect((await t.request('/orders/delete?id=1', { cookie, method: 'POST' })).status).toBe(status);
      expect((await t.request('/tablers/delete?id=1', { cookie, method: 'POST' })).status).toBe(status);
    }
  });
});
