import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../src/db/schema';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, transports } from '../support/transports';

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
    expect((await t.request('/tablers/create', { cookie: admin, body: { name: '' } })).json).toMatchObject({
      success: false,
      error: 'Naam is verplicht.',
      code: 'TABLER_NAME_REQUIRED',
    });
    expect((await t.request('/tablers/create', { cookie: admin, body: { name: '12' } })).json).toMatchObject({
      success: false,
      error: 'Een tablernaam heeft minimaal 3 tekens en bevat letters.',
      code: 'TABLER_NAME_INVALID',
    });
    const clash = await t.request('/tablers/create', { cookie: admin, body: { name: 'sjoerd' } });
    expect([clash.status, clash.json.error]).toEqual([
      409,
      'Deze naam lijkt te veel op die van Sjoerd de Vries: het bestelformulier kan ze dan niet uit elkaar houden.',
    ]);
    const renamed = await t.request(`/tablers/update?id=${id}`, { cookie: admin, body: { name: 'Sjoerd Vries' } });
    expect(renamed.json.tabler.name).toBe('Sjoerd Vries');
    expect((await t.request('/tablers/update?id=999', { cookie: admin, body: { name: 'Piet' } })).json).toMatchObject({
      success: false,
      error: 'Tabler niet gevonden.',
      code: 'TABLER_NOT_FOUND',
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
    expect([bad.status, bad.json]).toMatchObject([400, { success: false, error: 'Filter must be true or false', code: 'FIELD_NOT_ALLOWED' }]);
  });

  it('updates an order, marks it paid and deletes it; amounts above 10 are refused in the back-office', async () => {
    const tabler = (await t.request('/tablers/create', { cookie: admin, body: { name: 'Hendrik' } })).json.tabler.id as number;
    await t.request('/orders/create', { cookie: admin, body: order(tabler, 'Cees Visser') });
    const [row] = (await t.request('/orders?q=cees', { cookie: admin })).json as { id: number; reference: string }[];
    const updated = await t.request(`/orders/update?id=${row!.id}`, { cookie: admin, body: order(tabler, 'Cees Visser', { amount: 4, city: 'Midlum' }) });
    expect(updated.json).toEqual({ success: true });
    const tooMany = await t.request(`/orders/update?id=${row!.id}`, { cookie: admin, body: order(tabler, 'Cees Visser', { amount: 11 }) });
    expect(tooMany.json).toMatchObject({ success: false, error: 'Het aantal is 1 tot en met 10.', code: 'AMOUNT_OUT_OF_RANGE' });
    const paid = await t.request('/trpc/orders.setPaid', { cookie: admin, body: { id: row!.id, paid: true } });
    expect(paid.json.result.data).toEqual({ success: true });
    const [after] = (await t.request('/orders?q=cees', { cookie: admin })).json as { amount: number; city: string; paid: boolean; reference: string }[];
    expect(after).toMatchObject({ amount: 4, city: 'Midlum', paid: true, reference: row!.reference });
    expect((await t.request(`/orders/delete?id=${row!.id}`, { cookie: admin, method: 'POST' })).json).toEqual({ success: true });
    expect((await t.request(`/orders/delete?id=${row!.id}`, { cookie: admin, method: 'POST' })).json).toMatchObject({
      success: false,
      error: 'Bestelling niet gevonden.',
      code: 'ORDER_NOT_FOUND',
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

/**
 * docs/architecture.md §6 'The people, second pass' and docs/decisions/056: the back-office edit of orders
 * the public form took (up to 500 packages), amounts as typed, and `invoice_sent` as the row and the totals
 * both read it; over REST and tRPC.
 */
const both = transports<'update'>(() => t, {
  rest: { update: ['POST', '/orders/update', 'id'] },
  trpc: { update: ['mutation', 'orders.update', 'id'] },
});

describe.each(both)('$name back-office edit of an order', (tr) => {
  let tablerId: number;
  let visitor = 0;
  beforeAll(async () => {
    tablerId = (await t.request('/tablers/create', { cookie: admin, body: { name: `Wiebe ${tr.p}` } })).json.tabler.id;
    await setSettings(t, admin, VALID_INVOICE_SETTINGS);
  });

  /** An order as the public form takes it (from its own address, so the per-address limit never bites). */
  async function publicOrder(name: string, amount: number) {
    const r = await t.request('/orders/create', {
      body: order(tablerId, name, { amount, postal_code: '8861bj' }),
      headers: { 'x-test-client-ip': `10.77.${tr.p === 'r' ? 1 : 2}.${++visitor}` },
    });
    expect(r.json?.success, JSON.stringify(r.json)).toBe(true);
    const [row] = await t.db.select().from(orders).where(eq(orders.reference, r.json.order_reference));
    return row!;
  }
  // The body the edit dialog sends: the whole order, `order` for tRPC.
  const update = (id: number, body: Record<string, unknown>) => tr.call('update', { id, body: tr.name === 'REST' ? body : { order: body }, cookie: admin });
  const edited = (row: { id: number }) =>
    t.db
      .select()
      .from(orders)
      .where(eq(orders.id, row.id))
      .then(([r]) => r!);

  it('keeps 25 packages while the note and the address change, and refuses another amount above 10', async () => {
    const row = await publicOrder(`Groot ${tr.p}`, 25);
    expect(row.amount).toBe(25);
    const body = order(tablerId, row.name, { amount: 25, notes: 'Achterom, bel niet aan', address: 'Voorstraat 3', postal_code: '8861 BJ' });
    expect((await update(row.id, body)).status).toBe(200);
    expect(await edited(row)).toMatchObject({ amount: 25, notes: 'Achterom, bel niet aan', address: 'Voorstraat 3' });
    for (const amount of [24, 26, 11]) expectFailure(tr, await update(row.id, { ...body, amount }), 400, 'Het aantal is 1 tot en met 10.');
    expect((await edited(row)).amount).toBe(25);
    // Down into 1–10 is a change the back-office may make; back up to 25 then is not.
    expect((await update(row.id, { ...body, amount: 4 })).status).toBe(200);
    expect((await edited(row)).amount).toBe(4);
    expectFailure(tr, await update(row.id, { ...body, amount: 25 }), 400, 'Het aantal is 1 tot en met 10.');
  });

  it('refuses an amount that is no whole number, as sent, and stores nothing of that edit', async () => {
    const row = await publicOrder(`Half ${tr.p}`, 3);
    for (const amount of [2.5, '2.5', '2,5', 'abc']) {
      expectFailure(
        tr,
        await update(row.id, order(tablerId, row.name, { amount, notes: 'x' })),
        400,
        'Aantal kerstpakketten moet een heel getal zijn, zoals 1, 2 of 3.',
      );
    }
    expectFailure(tr, await update(row.id, order(tablerId, row.name, { amount: -3 })), 400, 'Aantal kerstpakketten is verplicht en moet groter dan 0 zijn.');
    expect(await edited(row)).toMatchObject({ amount: 3, notes: null });
  });

  it('counts a ticked "Factuur verstuurd" as sent in the list, its filter and the totals; an invoice keeps what its mail says', async () => {
    const before = (await t.request('/orders/totals', { cookie: admin })).json.invoices_sent as number;
    const ticked = await publicOrder(`Papier ${tr.p}`, 1);
    expect((await update(ticked.id, order(tablerId, ticked.name, { amount: 1, invoice_sent: true }))).status).toBe(200);
    const listed = (await t.request(`/orders?invoice_sent=true&q=${encodeURIComponent(ticked.name)}`, { cookie: admin })).json;
    expect(listed).toMatchObject([{ reference: ticked.reference, invoice_sent: true, invoice_number: null }]);
    expect((await t.request('/orders/totals', { cookie: admin })).json.invoices_sent).toBe(before + 1);

    // An invoice waiting in the outbox (no SMTP here) is not sent, whatever the form says.
    const invoiced = await publicOrder(`Wacht ${tr.p}`, 2);
    expect((await t.request(`/orders/sendInvoice?id=${invoiced.id}`, { cookie: admin, body: {} })).json).toMatchObject({ success: true, queued: true });
    const body = order(tablerId, invoiced.name, { amount: 2, postal_code: '8861bj', notes: 'Na 17:00', invoice_sent: true });
    // The postcode was typed '8861bj' and is stored '8861 BJ': the same postcode, no change to what the invoice printed.
    expect((await update(invoiced.id, body)).status).toBe(200);
    expect(await edited(invoiced)).toMatchObject({ invoiceSent: false, notes: 'Na 17:00', postalCode: '8861 BJ' });
    expect((await t.request('/orders/totals', { cookie: admin })).json.invoices_sent).toBe(before + 1);
  });
});
