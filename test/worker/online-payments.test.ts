import { env, SELF } from 'cloudflare:test';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openD1Db } from '../../src/db/d1';
import { auditLog, onlinePayments, orders } from '../../src/db/schema';
import { fakeMollieControl } from '../support/fake-mollie-control';
import { adminCookie, SITE } from './sign-in';

const bindings = env as unknown as { DB: Parameters<typeof openD1Db>[0]; MOLLIE_CONTROL_URL: string };
const mollie = fakeMollieControl(bindings.MOLLIE_CONTROL_URL);
const KEY = `test_${'w0rKeR1234'.repeat(3)}`;
const ip = { 'cf-connecting-ip': '198.51.100.90' };

/**
 * Online payment through Mollie inside workerd (DESIGN §6, docs/decisions/066): the fetch client, the 10 s
 * time-out's AbortSignal, the webhook's form body and the reconciling batch's changes() guards run in the Worker,
 * on D1 (and on Turso in the other lane), against the Mollie stand-in on loopback.
 */
describe('online payment inside workerd', () => {
  let cookie: string;
  const db = openD1Db(bindings.DB);

  async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
    return SELF.fetch(`${SITE}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, ...ip, ...headers },
      body: JSON.stringify(body),
    });
  }
  const webhook = (id: string) =>
    SELF.fetch(`${SITE}/api/payments/mollie/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...ip },
      body: `id=${id}`,
    });
  const orderOf = async (id: number) => (await db.select().from(orders).where(eq(orders.id, id)))[0]!;

  async function newOrder(name: string): Promise<{ id: number; token: string; reference: string; url: string }> {
    const created = await post('/orders/create', {
      name,
      email: 'klant@example.nl',
      phone: '0612345678',
      address: 'Zoutsloot 3',
      postal_code: '8861 AB',
      city: 'Harlingen',
      amount: 2,
    });
    const answer = (await created.json()) as { order_reference: string; order_url: string };
    expect(answer.order_url).toMatch(/^https:\/\/kerst\.example\/bestelling\/[A-Za-z0-9_-]{43}$/);
    const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.reference, answer.order_reference));
    return { id: row!.id, token: answer.order_url.split('/').pop()!, reference: answer.order_reference, url: answer.order_url };
  }

  async function pay(token: string) {
    const answer = await SELF.fetch(`${SITE}/api/order-status/${token}/pay`, { method: 'POST', headers: ip });
    return { status: answer.status, json: (await answer.json()) as { checkout_url?: string; code?: string } };
  }

  beforeAll(async () => {
    await mollie.reset();
    // The Worker's origin has no listener here: the tests deliver Mollie's calls themselves.
    await mollie.setDeliverWebhooks(false);
    cookie = await adminCookie('198.51.100.91');
    for (const [key, value] of [
      ['online_payments', 'true'],
      ['mollie_api_key', KEY],
    ]) {
      expect((await post('/api/settings/update', { key, value })).status).toBe(200);
    }
  });

  it("pays an order: the payment asked for on the club's origin, the webhook fetched and reconciled once however often it comes", async () => {
    const order = await newOrder('Workerd Betaler');
    const first = await pay(order.token);
    expect(first.status).toBe(200);
    const id = first.json.checkout_url!.split('/').pop()!;
    const [created] = (await mollie.requests()).filter((r) => r.method === 'POST' && r.path === '/v2/payments');
    expect(created).toMatchObject({
      authorization: `Bearer ${KEY}`,
      idempotencyKey: expect.stringMatching(/^kerstactie-order-\d+-18150-0$/),
      body: {
        amount: { currency: 'EUR', value: '181.50' },
        description: `Kerstpakket ${order.reference}`,
        redirectUrl: order.url,
        webhookUrl: 'https://kerst.example/api/payments/mollie/webhook',
        metadata: { order_id: order.id, reference: order.reference },
      },
    });
    await mollie.pay(id);
    const answers = await Promise.all([webhook(id), webhook(id), webhook(id)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await webhook(id).then((a) => a.status)).toBe(200);
    expect(await orderOf(order.id)).toMatchObject({ paid: true, paymentMethod: 'online' });
    const received = await db.select().from(auditLog).where(eq(auditLog.action, 'payment.received'));
    expect(received.filter((e) => e.target.startsWith(`order:${order.id} `))).toHaveLength(1);

    // A refund made in Mollie's dashboard, then a chargeback: each seen once, the order unpaid again.
    await mollie.refundInDashboard(id, '20.00');
    await webhook(id);
    await mollie.chargeback(id, '161.50');
    await webhook(id);
    await webhook(id);
    expect(await orderOf(order.id)).toMatchObject({ paid: false, paymentMethod: null, refundedCents: 2000 });
    expect(await db.select().from(onlinePayments).where(eq(onlinePayments.providerId, id))).toMatchObject([
      { refundedCents: 2000, chargedBackCents: 16150, applied: true, status: 'paid' },
    ]);
    const actions = (await db.select().from(auditLog).orderBy(asc(auditLog.id)))
      .filter((e) => e.target.startsWith(`order:${order.id} `) && e.action.startsWith('payment.'))
      .map((e) => e.action);
    expect(actions).toEqual(['payment.received', 'payment.refunded', 'payment.charged_back']);
  });

  it('reconciles a lost webhook when the customer opens the order page, and refunds from the back-office', async () => {
    const order = await newOrder('Workerd Terugkomer');
    const id = (await pay(order.token)).json.checkout_url!.split('/').pop()!;
    await mollie.pay(id);
    const page = await SELF.fetch(`${SITE}/api/order-status/${order.token}`, { headers: ip });
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.json()).toMatchObject({ reference: order.reference, paid: true, amount_incl: 181.5, refunded_amount: 0, can_pay: false });
    const refund = await post(`/orders/refund?id=${order.id}`, { amount: 50 });
    expect([refund.status, await refund.json()]).toEqual([200, { success: true, refunded_amount: 50 }]);
    const again = await SELF.fetch(`${SITE}/api/order-status/${order.token}`, { headers: ip });
    expect(await again.json()).toMatchObject({ paid: true, refunded_amount: 50 });
  });

  it('answers 502 and writes nothing while Mollie is down; the webhook answers 503 so Mollie calls again', async () => {
    const order = await newOrder('Workerd Wachter');
    const id = (await pay(order.token)).json.checkout_url!.split('/').pop()!;
    await mollie.pay(id);
    await mollie.setMode('fail');
    try {
      const other = await newOrder('Workerd Zonder Mollie');
      const refused = await pay(other.token);
      expect([refused.status, refused.json.code]).toEqual([502, 'PAYMENT_PROVIDER_FAILED']);
      expect(await db.select().from(onlinePayments).where(eq(onlinePayments.orderId, other.id))).toEqual([]);
      const down = await webhook(id);
      expect(down.status).toBe(503);
      expect((await orderOf(order.id)).paid).toBe(false);
    } finally {
      await mollie.setMode('ok');
    }
    expect((await webhook(id)).status).toBe(200);
    expect((await orderOf(order.id)).paid).toBe(true);
  });
});
