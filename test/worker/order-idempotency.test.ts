import { env, SELF } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openD1Db } from '../../src/db/d1';
import { mailOutbox, orders } from '../../src/db/schema';
import { adminCookie, SITE } from './sign-in';

const bindings = env as unknown as { DB: Parameters<typeof openD1Db>[0] };

/**
 * DESIGN §6 "The door" inside workerd (D1, and Turso on the worker-turso project; docs/decisions/068): the same
 * Idempotency-Key and request answer one order, another request under the key is 422, racing requests make
 * one order and one mail. The database is shared with other files: every count is of this file's own rows.
 */
describe('POST /orders/create with an Idempotency-Key, inside workerd', () => {
  let visitor = 0;
  const create = (body: unknown, key: string) =>
    SELF.fetch(`${SITE}/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': `203.0.113.${(++visitor % 200) + 20}`, 'idempotency-key': key },
      body: JSON.stringify(body),
    });

  it('answers a repeat with the first answer, refuses the key with another request, and makes one order of a race', async () => {
    const cookie = await adminCookie('198.51.100.121');
    const made = await SELF.fetch(`${SITE}/tablers/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: `Deur ${crypto.randomUUID().slice(0, 8)}` }),
    });
    const tabler = ((await made.json()) as { tabler: { id: number } }).tabler;
    const run = crypto.randomUUID();
    const customer = (name: string, amount = 2) => ({
      tabler_id: tabler.id,
      name,
      email: `${run}@example.nl`,
      phone: '0517 123456',
      address: 'Noorderhaven 4',
      postal_code: '8861 BM',
      city: 'Harlingen',
      amount,
    });
    const db = openD1Db(bindings.DB);
    const named = async (name: string) => db.select({ reference: orders.reference }).from(orders).where(eq(orders.name, name));

    const once = `once-${run}`;
    const first = await create(customer(`Eerste ${run}`), once);
    const body = await first.json();
    expect([first.status, body]).toEqual([200, { success: true, order_reference: expect.stringMatching(/^KP-\d{4}-\d{4}$/), order_url: expect.any(String) }]);
    const again = await create(customer(`Eerste ${run}`), once);
    expect([again.status, await again.json()]).toEqual([200, body]);
    const other = await create(customer(`Eerste ${run}`, 3), once);
    expect([other.status, await other.json()]).toEqual([
      422,
      { success: false, error: 'This Idempotency-Key was already used for a different request.', code: 'IDEMPOTENCY_KEY_REUSED' },
    ]);
    expect(await named(`Eerste ${run}`)).toHaveLength(1);

    const raced = `race-${run}`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => create(customer(`Race ${run}`), raced).then(async (r) => [r.status, await r.json()])));
    expect(answers.map(([status]) => status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map(([, json]) => JSON.stringify(json))).size).toBe(1);
    expect(await named(`Race ${run}`)).toHaveLength(1);
    const mails = await db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, `${run}@example.nl`));
    expect(mails.filter((m) => m.kind === 'order-confirmation')).toHaveLength(2);
  });
});
