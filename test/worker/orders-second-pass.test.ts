import { env, SELF } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openD1Db } from '../../src/db/d1';
import { mailOutbox, orders } from '../../src/db/schema';
import { adminCookie, SITE } from './sign-in';
import { anyCode } from '../support/refusal';

const bindings = env as unknown as { DB: Parameters<typeof openD1Db>[0] };

/**
 * docs/architecture.md §6 'The people, second pass' inside workerd (D1, and Turso on the worker-turso
 * project): the public order's postcode, phone and quantity rules on both transports, the confirmation
 * with the total incl. VAT, the back-office edit that keeps an amount above 10, and the CSV whose sums
 * are the totals' (docs/decisions/056).
 */
describe('orders, second pass, inside workerd', () => {
  let visitor = 0;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    SELF.fetch(`${SITE}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': `203.0.113.${++visitor}`, ...headers },
      body: JSON.stringify(body),
    });
  const customer = (tablerId: number, extra: Record<string, unknown> = {}) => ({
    tabler_id: tablerId,
    name: 'Sjoukje Visser',
    email: 'sjoukje@example.nl',
    phone: '0517 123456',
    address: 'Noorderhaven 4',
    postal_code: '8861bm',
    city: 'Harlingen',
    amount: 2,
    ...extra,
  });

  it('refuses a bad postcode, phone or quantity on both transports, and keeps an amount above 10 through an edit', async () => {
    const cookie = await adminCookie('198.51.100.120');
    const tabler = ((await (await post('/tablers/create', { name: 'Worker Verkoper' }, { cookie })).json()) as { tabler: { id: number } }).tabler;
    const refusals = [
      [{ postal_code: 'ABCDE' }, 'Vul een geldige postcode in (1234 AB).'],
      [{ phone: 'bel me maar' }, 'Vul een geldig telefoonnummer in.'],
      [{ amount: '2.5' }, 'Aantal kerstpakketten moet een heel getal zijn, zoals 1, 2 of 3.'],
      [{ amount: -3 }, 'Aantal kerstpakketten is verplicht en moet groter dan 0 zijn.'],
    ] as const;
    for (const [extra, error] of refusals) {
      const rest = await post('/orders/create', customer(tabler.id, extra));
      expect([rest.status, await rest.json()]).toMatchObject([400, { success: false, error, code: anyCode }]);
      const twin = await post('/trpc/orders.create', customer(tabler.id, extra));
      expect([twin.status, ((await twin.json()) as { error: { message: string } }).error.message]).toEqual([400, error]);
    }
    const db = openD1Db(bindings.DB);
    expect(await db.select().from(orders)).toEqual([]);

    const created = await post('/orders/create', customer(tabler.id, { amount: 25, notes: 'Voor het hele kantoor' }));
    const { order_reference } = (await created.json()) as { order_reference: string };
    const [row] = await db.select().from(orders).where(eq(orders.reference, order_reference));
    expect(row).toMatchObject({ amount: 25, postalCode: '8861 BM', phone: '0517 123456' });
    const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'order-confirmation'));
    // 25 × € 75 = € 1.875 excl., € 2.268,75 incl. 21 % VAT.
    expect(mail!.textBody).toContain('Aantal kerstpakketten: 25 (€ 75 per pakket, exclusief btw)\nTotaal inclusief btw: € 2.268,75\n');
    expect(mail!.textBody).toContain('Opmerkingen:\nVoor het hele kantoor');

    const edit = { ...customer(tabler.id, { amount: 25, postal_code: '8861 BM' }), notes: 'Bezorgen bij de receptie' };
    const kept = await post(`/orders/update?id=${row!.id}`, edit, { cookie });
    expect([kept.status, await kept.json()]).toEqual([200, { success: true }]);
    const twin = await post('/trpc/orders.update', { id: row!.id, order: { ...edit, address: 'Noorderhaven 6' } }, { cookie });
    expect(twin.status).toBe(200);
    expect((await db.select().from(orders).where(eq(orders.id, row!.id)))[0]).toMatchObject({
      amount: 25,
      notes: 'Bezorgen bij de receptie',
      address: 'Noorderhaven 6',
    });
    const changed = await post(`/orders/update?id=${row!.id}`, { ...edit, amount: 24 }, { cookie });
    expect([changed.status, await changed.json()]).toMatchObject([
      400,
      { success: false, error: 'Het aantal is 1 tot en met 10.', code: 'AMOUNT_OUT_OF_RANGE' },
    ]);
  });

  it("exports the amounts, paid date, credited and delivered, and the file's sums are the totals'", async () => {
    const cookie = await adminCookie('198.51.100.121');
    const tabler = ((await (await post('/tablers/create', { name: 'Worker Teller' }, { cookie })).json()) as { tabler: { id: number } }).tabler;
    for (const [amount, paid] of [
      [1, true],
      [3, false],
      [7, true],
    ] as const) {
      expect((await post('/orders/create', customer(tabler.id, { amount, paid, name: `Teller ${amount}` }), { cookie })).status).toBe(200);
    }
    const csv = await SELF.fetch(`${SITE}/orders/export.csv`, { headers: { cookie } });
    expect(csv.status).toBe(200);
    const [header, ...lines] = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(header!.split(';').slice(-6)).toEqual(['Bedrag excl. btw', 'Bedrag incl. btw', 'Betaald op', 'Gecrediteerd', 'Bezorgd', 'Betaald bedrag']);
    // Each field of these lines is plain or one quoted amount, so ';' splits them.
    const rows = lines.map((line) => line.split(';').map((field) => field.replace(/^"(.*)"$/, '$1')));
    const cents = (text: string) => Math.round(Number(text.replace(',', '.')) * 100);
    const sum = (column: number) => rows.reduce((total, row) => total + cents(row[column]!), 0) / 100;
    const totals = (await (await SELF.fetch(`${SITE}/orders/totals`, { headers: { cookie } })).json()) as { revenue_excl: number; revenue_incl: number };
    expect([sum(14), sum(15)]).toEqual([totals.revenue_excl, totals.revenue_incl]);
    const mine = rows.filter((row) => row[1] === 'Worker Teller');
    expect(mine.map((row) => [row[8], row[10], row[14], row[15], row[16] !== '', row[17], row[18]])).toEqual([
      ['7', 'Ja', '525,00', '635,25', true, 'Nee', 'Nee'],
      ['3', 'Nee', '225,00', '272,25', false, 'Nee', 'Nee'],
      ['1', 'Ja', '75,00', '90,75', true, 'Nee', 'Nee'],
    ]);
  });
});
