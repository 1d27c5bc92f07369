import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { idempotencyKeys, mailOutbox, orders, tablers } from '../../src/db/schema';
import { housekeeping } from '../../src/features/housekeeping/housekeeping';
import { startNodeServer } from '../../src/node';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * DESIGN §6 "The door", docs/decisions/068: POST /orders/create under an Idempotency-Key. The same key with the
 * same request answers the first answer again and makes and mails nothing; another request under the key is
 * 422 IDEMPOTENCY_KEY_REUSED; requests racing with one key make one order; a bad key is 400; the key outlives
 * a restart and is dropped by housekeeping after 30 days.
 */

const KEY = '3f0c9d1e-7a41-4b8e-9a53-1d2c3b4a5f60';
const ORDER_PAGE = /^http:\/\/127\.0\.0\.1:8787\/bestelling\/[A-Za-z0-9_-]{43}$/;
const BAD_KEY = 'Idempotency-Key must be 1 to 255 visible ASCII characters';

let t: TestApp;
let tablerId: number;

beforeEach(async () => {
  t = await createTestApp();
  const now = t.clock.now().toISOString();
  const [row] = await t.db.insert(tablers).values({ name: 'Jelle', createdAt: now, updatedAt: now }).returning();
  tablerId = row!.id;
});
afterEach(async () => {
  await t.close();
});

function body(changes: Record<string, unknown> = {}) {
  return {
    tabler_id: tablerId,
    name: 'Grietje de Vries',
    email: 'grietje@example.nl',
    phone: '0517-123456',
    address: 'Voorstraat 12',
    postal_code: '8861 BM',
    city: 'Harlingen',
    quantity: 2,
    notes: 'Bel bij de buren aan',
    ...changes,
  };
}

function create(payload: unknown, key: string | null = KEY, ip = '10.61.0.1') {
  return t.request('/orders/create', { body: payload, headers: { 'x-test-client-ip': ip, ...(key === null ? {} : { 'idempotency-key': key }) } });
}

const orderRows = () => t.db.select().from(orders).orderBy(asc(orders.id));
const confirmations = () => t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'order-confirmation'));

describe('POST /orders/create with an Idempotency-Key', () => {
  it('answers a repeated request with the first answer, and makes and mails one order', async () => {
    const first = await create(body());
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ success: true, order_reference: 'KP-2026-0001', order_url: expect.stringMatching(ORDER_PAGE) });

    // The same order, sent again after a lost answer; also spelt as the form spells it, from another address.
    const again = await create(body());
    const respelled = await create(body({ postal_code: undefined, postalCode: '8861bm' }), KEY, '10.61.0.2');
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(respelled.json).toEqual(first.json);

    expect((await orderRows()).map((o) => o.reference)).toEqual(['KP-2026-0001']);
    expect(await confirmations()).toHaveLength(1);
    // The answer's link opens the order (the same token both times, none of it stored).
    const token = String(first.json.order_url).split('/').pop();
    const page = await t.request(`/api/order-status/${token}`);
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({ reference: 'KP-2026-0001' });

    // A next order with another key gets the next reference: nothing was drawn for the repeats.
    expect((await create(body({ name: 'Anne Zijlstra' }), 'another-key')).json.order_reference).toBe('KP-2026-0002');
  });

  it('refuses the key with another request (422 IDEMPOTENCY_KEY_REUSED) and changes nothing', async () => {
    expect((await create(body())).status).toBe(200);
    for (const changed of [body({ quantity: 3 }), body({ name: 'Iemand Anders' }), body({ tabler_id: null })]) {
      const answer = await create(changed);
      expect(answer.status).toBe(422);
      expect(answer.json).toEqual({ success: false, error: 'This Idempotency-Key was already used for a different request.', code: 'IDEMPOTENCY_KEY_REUSED' });
    }
    expect(await orderRows()).toHaveLength(1);
    expect(await confirmations()).toHaveLength(1);
  });

  it('makes one order of requests racing with one key, and every one of them gets its answer', async () => {
    // The first three batches wait for each other, so three requests have all found the key unused before any
    // of them writes: all but one then lose on the key's row, and answer the winner's order.
    const batch = t.db.batch.bind(t.db);
    const arrived: (() => void)[] = [];
    let lost = 0;
    t.db.batch = (async (statements: Parameters<typeof batch>[0]) => {
      if (arrived.length < 3) {
        await new Promise<void>((resolve) => {
          arrived.push(resolve);
          if (arrived.length === 3) for (const go of arrived) go();
        });
      }
      return batch(statements).catch((failure: unknown) => {
        lost++;
        throw failure;
      });
    }) as unknown as typeof t.db.batch;
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => create(body(), KEY, `10.61.1.${i + 1}`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => JSON.stringify(a.json))).size).toBe(1);
    expect(answers[0]!.json.order_reference).toBe('KP-2026-0001');
    expect(await orderRows()).toHaveLength(1);
    expect(await confirmations()).toHaveLength(1);
    expect(lost).toBeGreaterThanOrEqual(2);
    expect(await t.db.select().from(idempotencyKeys)).toEqual([
      {
        clubId: 1,
        key: KEY,
        requestHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        orderId: (await orderRows())[0]!.id,
        orderReference: 'KP-2026-0001',
        createdAt: t.clock.now().toISOString(),
      },
    ]);
    // The losers' draws were rolled back with their batches: the series has no gap.
    expect((await create(body({ name: 'Anne Zijlstra' }), null)).json.order_reference).toBe('KP-2026-0002');
  });

  it('refuses an empty, too long or non-ASCII key with 400 and stores nothing', async () => {
    for (const key of ['', 'a'.repeat(256), 'met spatie', 'sleutel-ü']) {
      const answer = await t.app.request('http://127.0.0.1/orders/create', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-test-client-ip': '10.61.2.1', 'idempotency-key': key },
        body: JSON.stringify(body()),
      });
      expect(answer.status, key).toBe(400);
      expect(await answer.json()).toMatchObject({ success: false, error: BAD_KEY });
    }
    expect(await orderRows()).toEqual([]);
    // 255 visible characters is a key.
    expect((await create(body(), `${'~'.repeat(254)}!`)).status).toBe(200);
  });

  it('lets a repeat through the per-address limit, which counts orders made, not answers repeated', async () => {
    for (let i = 0; i < 25; i++) expect((await create(body(), KEY, '10.61.3.1')).status).toBe(200);
    expect(await orderRows()).toHaveLength(1);
  });

  it('makes an order per request without a key, as before', async () => {
    await create(body(), null);
    await create(body(), null);
    expect((await orderRows()).map((o) => o.reference)).toEqual(['KP-2026-0001', 'KP-2026-0002']);
  });

  it('answers an admin order under a key once too, with one audit entry', async () => {
    const cookie = await t.cookieFor('admin');
    const send = () => t.request('/orders/create', { cookie, body: body({ paid: true }), headers: { 'idempotency-key': 'admin-key' } });
    const [a, b] = [await send(), await send()];
    expect(b.json).toEqual(a.json);
    const audit = await t.request('/api/audit?action=order.created', { cookie });
    expect(JSON.stringify(audit.json).match(/order\.created/g)).toHaveLength(1);
  });

  it('forgets a key after 30 days (housekeeping), and not before', async () => {
    const first = await create(body());
    t.clock.advance(29 * 24 * 60 * 60 * 1000);
    await housekeeping(t.deps);
    expect((await create(body())).json).toEqual(first.json);
    t.clock.advance(2 * 24 * 60 * 60 * 1000);
    await housekeeping(t.deps);
    expect(await t.db.select().from(idempotencyKeys)).toEqual([]);
  });
});

describe('the Idempotency-Key across a restart of the Node server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kerstactie-idempotency-'));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('answers the same order after the server was stopped and started again on its data', async () => {
    const env = { DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'restart-admin-password', PUBLIC_URL: 'https://kerst.example.nl' };
    const send = async (port: number, id: number) =>
      (await fetch(`http://127.0.0.1:${port}/orders/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': KEY },
        body: JSON.stringify(body({ tabler_id: id })),
      }).then((r) => r.json())) as Record<string, unknown>;
    let server = await startNodeServer(env);
    const now = new Date().toISOString();
    const [tabler] = await server.deps.db.insert(tablers).values({ name: 'Jelle', createdAt: now, updatedAt: now }).returning();
    const first = await send(server.port, tabler!.id);
    expect(first).toMatchObject({ success: true, order_reference: expect.stringMatching(/^KP-\d{4}-0001$/) });
    await server.close();
    server = await startNodeServer(env);
    try {
      expect(await send(server.port, tabler!.id)).toEqual(first);
      expect(await server.deps.db.select({ id: orders.id }).from(orders)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
