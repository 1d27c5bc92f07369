import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeMollieControl } from './fake-mollie-control';
import { type FakeMollie, startFakeMollie } from './fake-mollie';

const TEST_KEY = 'test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM';
const LIVE_KEY = 'live_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM';
const PAYMENT = {
  amount: { currency: 'EUR', value: '90.75' },
  description: 'Bestelling K-2026-0042',
  redirectUrl: 'https://kerst.example.org/bestelling/abc',
  metadata: { orderId: 42 },
};

/** A tiny webhook receiver: remembers what Mollie posted and answers `status`. */
interface Receiver {
  url: string;
  calls: { contentType: string | undefined; body: string }[];
  status: number;
  server: Server;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', calls: [], status: 200, server: createServer() };
  receiver.server.on('request', (request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      receiver.calls.push({ contentType: request.headers['content-type'], body });
      response.writeHead(receiver.status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/api/payments/mollie-webhook`;
  return receiver;
}

describe('the Mollie stand-in', () => {
  let clock = new Date('2026-12-01T10:00:00.000Z');
  let mollie: FakeMollie;
  let receiver: Receiver;

  const api = (path: string, init: { method?: string; body?: unknown; key?: string | null; idempotencyKey?: string; signal?: AbortSignal } = {}) =>
    fetch(`${mollie.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.key === null ? {} : { authorization: `Bearer ${init.key ?? TEST_KEY}` }),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.idempotencyKey ? { 'idempotency-key': init.idempotencyKey } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  const create = async (body: unknown = PAYMENT, idempotencyKey?: string) => (await api('/payments', { body, idempotencyKey })).json();

  beforeAll(async () => {
    mollie = await startFakeMollie({ now: () => clock });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await mollie.close();
    await new Promise((resolve) => receiver.server.close(resolve));
  });
  beforeEach(() => {
    mollie.reset();
    receiver.calls.length = 0;
    receiver.status = 200;
    clock = new Date('2026-12-01T10:00:00.000Z');
  });

  it('creates an open payment with its checkout link and expiry, and records the call', async () => {
    const response = await api('/payments', { body: { ...PAYMENT, webhookUrl: receiver.url }, idempotencyKey: 'order-42-attempt-1' });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/hal+json; charset=utf-8');
    const payment = await response.json();
    expect(payment.id).toMatch(/^tr_[A-Za-z0-9]{10}$/);
    expect(payment).toMatchObject({
      resource: 'payment',
      mode: 'test',
      status: 'open',
      amount: { currency: 'EUR', value: '90.75' },
      description: 'Bestelling K-2026-0042',
      metadata: { orderId: 42 },
      redirectUrl: 'https://kerst.example.org/bestelling/abc',
      webhookUrl: receiver.url,
      createdAt: '2026-12-01T10:00:00+00:00',
      expiresAt: '2026-12-01T10:15:00+00:00',
      sequenceType: 'oneoff',
      _links: {
        self: { href: `${mollie.url}/payments/${payment.id}`, type: 'application/hal+json' },
        checkout: { href: `${mollie.origin}/checkout/${payment.id}`, type: 'text/html' },
        dashboard: { type: 'text/html' },
      },
    });
    // Not paid yet: no paidAt, and no refund amounts until refunds are possible.
    expect(payment).not.toHaveProperty('paidAt');
    expect(payment).not.toHaveProperty('amountRefunded');
    expect(payment).not.toHaveProperty('amountChargedBack');
    expect(mollie.payments.get(payment.id)).toMatchObject({ idempotencyKey: 'order-42-attempt-1', webhookUrl: receiver.url, paidAt: null });
    expect(mollie.requests).toEqual([
      {
        method: 'POST',
        path: '/v2/payments',
        authorization: `Bearer ${TEST_KEY}`,
        idempotencyKey: 'order-42-attempt-1',
        body: { ...PAYMENT, webhookUrl: receiver.url },
      },
    ]);
  });

  it('takes a form-encoded body as Mollie does, and leaves webhookUrl out when none was given', async () => {
    const response = await fetch(`${mollie.url}/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'amount[currency]=EUR&amount[value]=10.00&description=Order%2066&redirectUrl=https%3A%2F%2Fexample.org%2Fdone',
    });
    expect(response.status).toBe(201);
    const payment = await response.json();
    expect(payment).toMatchObject({ amount: { currency: 'EUR', value: '10.00' }, description: 'Order 66', metadata: null });
    expect(payment).not.toHaveProperty('webhookUrl');
  });

  it('answers the first answer again for the same idempotency key and parameters, and refuses the key for other ones', async () => {
    const first = await create(PAYMENT, 'key-1');
    const again = await api('/payments', {
      body: { metadata: { orderId: 42 }, redirectUrl: PAYMENT.redirectUrl, description: PAYMENT.description, amount: { value: '90.75', currency: 'EUR' } },
      idempotencyKey: 'key-1',
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).id).toBe(first.id);
    expect(mollie.payments.size).toBe(1);

    const other = await api('/payments', { body: { ...PAYMENT, description: 'Another order' }, idempotencyKey: 'key-1' });
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ status: 400, title: 'Bad Request', _links: { documentation: { type: 'text/html' } } });
    expect(mollie.payments.size).toBe(1);

    // Without a key every call is a new payment; after 24 hours the key is forgotten.
    const a = await create(PAYMENT);
    const b = await create(PAYMENT);
    expect(new Set([first.id, a.id, b.id]).size).toBe(3);
    clock = new Date(clock.getTime() + 24 * 3600_000 + 1000);
    expect((await create(PAYMENT, 'key-1')).id).not.toBe(first.id);
  });

  it('does not keep a refused answer under an idempotency key, so the corrected call goes through', async () => {
    const refused = await api('/payments', { body: { ...PAYMENT, description: '' }, idempotencyKey: 'key-2' });
    expect(refused.status).toBe(422);
    const retried = await api('/payments', { body: PAYMENT, idempotencyKey: 'key-2' });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('gets a payment, and answers 404 with a problem body for an unknown id or a payment of the other mode', async () => {
    const created = await create();
    const got = await api(`/payments/${created.id}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(created);

    const missing = await api('/payments/tr_nothere000');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/hal+json; charset=utf-8');
    expect(await missing.json()).toEqual({
      status: 404,
      title: 'Not Found',
      detail: 'No payment with id tr_nothere000 exists.',
      _links: { documentation: { href: 'https://docs.mollie.com/overview/handling-errors', type: 'text/html' } },
    });
    expect((await api(`/payments/${created.id}`, { key: LIVE_KEY })).status).toBe(404);
    expect((await api('/customers')).status).toBe(404);
  });

  it('answers 401 for a missing, malformed or unknown key', async () => {
    const created = await create();
    for (const key of [null, 'test_short', 'secret_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM']) {
      const response = await api(`/payments/${created.id}`, { key });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({
        status: 401,
        title: 'Unauthorized Request',
        _links: { documentation: { href: 'https://docs.mollie.com/overview/authentication', type: 'text/html' } },
      });
    }
    mollie.apiKeys.add(LIVE_KEY);
    expect((await api(`/payments/${created.id}`)).status).toBe(401);
    const live = await api('/payments', { key: LIVE_KEY, body: PAYMENT });
    expect(live.status).toBe(201);
    expect((await live.json()).mode).toBe('live');
  });

  it('refuses invalid input with 422 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ ...PAYMENT, amount: undefined }, 'amount'],
      [{ ...PAYMENT, amount: { currency: 'USD', value: '10.00' } }, 'amount.currency'],
      [{ ...PAYMENT, amount: { currency: 'EUR', value: 10 } }, 'amount.value'],
      [{ ...PAYMENT, amount: { currency: 'EUR', value: '10.5' } }, 'amount.value'],
      [{ ...PAYMENT, amount: { currency: 'EUR', value: '1,00' } }, 'amount.value'],
      [{ ...PAYMENT, amount: { currency: 'EUR', value: '0.00' } }, 'amount.value'],
      [{ ...PAYMENT, description: ' ' }, 'description'],
      [{ ...PAYMENT, redirectUrl: '/bestelling/abc' }, 'redirectUrl'],
      [{ ...PAYMENT, webhookUrl: 'not a url' }, 'webhookUrl'],
      [{ ...PAYMENT, metadata: { note: 'x'.repeat(1100) } }, 'metadata'],
    ];
    for (const [body, field] of cases) {
      const response = await api('/payments', { body });
      expect(response.status, field).toBe(422);
      expect(await response.json()).toMatchObject({ status: 422, title: 'Unprocessable Entity', field, detail: expect.any(String) });
    }
    expect(mollie.payments.size).toBe(0);
    const broken = await fetch(`${mollie.url}/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: '{"amount":',
    });
    expect(broken.status).toBe(400);
  });

  it('refunds a paid payment within what is left, and keeps it paid', async () => {
    const { id } = await create();
    const early = await api(`/payments/${id}/refunds`, { body: { amount: { currency: 'EUR', value: '10.00' } } });
    expect(early.status).toBe(422);

    await mollie.pay(id);
    const refund = await api(`/payments/${id}/refunds`, {
      body: { amount: { currency: 'EUR', value: '30.25' }, description: 'Eén pakket minder' },
      idempotencyKey: 'r1',
    });
    expect(refund.status).toBe(201);
    const refunded = await refund.json();
    expect(refunded.id).toMatch(/^re_[A-Za-z0-9]{10}$/);
    expect(refunded).toMatchObject({
      resource: 'refund',
      status: 'pending',
      paymentId: id,
      amount: { currency: 'EUR', value: '30.25' },
      description: 'Eén pakket minder',
      createdAt: '2026-12-01T10:00:00+00:00',
    });
    const replay = await api(`/payments/${id}/refunds`, {
      body: { amount: { currency: 'EUR', value: '30.25' }, description: 'Eén pakket minder' },
      idempotencyKey: 'r1',
    });
    expect((await replay.json()).id).toBe(refunded.id);

    const payment = await (await api(`/payments/${id}`)).json();
    expect(payment).toMatchObject({
      status: 'paid',
      paidAt: '2026-12-01T10:00:00+00:00',
      method: 'ideal',
      amountRefunded: { currency: 'EUR', value: '30.25' },
      amountRemaining: { currency: 'EUR', value: '60.50' },
      _links: { refunds: { href: `${mollie.url}/payments/${id}/refunds` } },
    });
    expect(payment._links).not.toHaveProperty('checkout');
    expect(payment).not.toHaveProperty('expiresAt');

    const tooMuch = await api(`/payments/${id}/refunds`, { body: { amount: { currency: 'EUR', value: '60.51' } } });
    expect(tooMuch.status).toBe(422);
    expect(await tooMuch.json()).toMatchObject({ field: 'amount' });
    const wrongCurrency = await api(`/payments/${id}/refunds`, { body: { amount: { currency: 'GBP', value: '1.00' } } });
    expect(await wrongCurrency.json()).toMatchObject({ status: 422, field: 'amount.currency' });
    // The same amount again within the hour is taken for a duplicate.
    const duplicate = await api(`/payments/${id}/refunds`, { body: { amount: { currency: 'EUR', value: '30.25' } } });
    expect(duplicate.status).toBe(409);
    clock = new Date(clock.getTime() + 3600_000 + 1000);
    expect((await api(`/payments/${id}/refunds`, { body: { amount: { currency: 'EUR', value: '30.25' } } })).status).toBe(201);

    const dashboard = await mollie.refundInDashboard(id, '30.25');
    expect(dashboard).toMatchObject({ via: 'dashboard', status: 'refunded', amount: { value: '30.25' } });
    expect(mollie.payments.get(id)).toMatchObject({ status: 'paid', amountRefunded: { value: '90.75' }, amountRemaining: { value: '0.00' } });
    await expect(mollie.refundInDashboard(id, '0.01')).rejects.toThrow('Only 0.00');
  });

  it('shows a chargeback in amountChargedBack while the payment stays paid', async () => {
    const { id } = await create({ ...PAYMENT, webhookUrl: receiver.url });
    await expect(mollie.chargeback(id, '10.00')).rejects.toThrow('not paid');
    await mollie.pay(id);
    await mollie.chargeback(id, '40.00');
    await mollie.chargeback(id, '50.75');
    const payment = await (await api(`/payments/${id}`)).json();
    expect(payment).toMatchObject({
      status: 'paid',
      amountChargedBack: { currency: 'EUR', value: '90.75' },
      amountRefunded: { currency: 'EUR', value: '0.00' },
      amountRemaining: { currency: 'EUR', value: '0.00' },
    });
    expect(mollie.payments.get(id)!.chargebacks.map((c) => c.id)).toEqual([expect.stringMatching(/^chb_/), expect.stringMatching(/^chb_/)]);
    await expect(mollie.chargeback(id, '0.01')).rejects.toThrow('more than');
    expect(receiver.calls).toHaveLength(3);
  });

  it('posts the webhook as a form with the payment id when a payment reaches a final status, and records each delivery', async () => {
    const { id } = await create({ ...PAYMENT, webhookUrl: receiver.url });
    await mollie.setStatus(id, 'pending');
    expect(receiver.calls).toEqual([]);
    await mollie.pay(id);
    expect(receiver.calls).toEqual([{ contentType: 'application/x-www-form-urlencoded', body: `id=${id}` }]);
    receiver.status = 503;
    await mollie.refundInDashboard(id, '5.00');
    expect(mollie.webhookDeliveries).toEqual([
      { paymentId: id, url: receiver.url, status: 200 },
      { paymentId: id, url: receiver.url, status: 503 },
    ]);
    receiver.status = 200;
    expect(await mollie.deliverWebhook(id)).toEqual({ paymentId: id, url: receiver.url, status: 200 });
    await expect(mollie.pay(id)).rejects.toThrow(`Payment ${id} is paid already.`);

    const quiet = await create({ ...PAYMENT, webhookUrl: receiver.url });
    mollie.deliverWebhooks = false;
    await mollie.setStatus(quiet.id, 'expired');
    expect(receiver.calls).toHaveLength(3);
    expect(mollie.payments.get(quiet.id)).toMatchObject({ status: 'expired', expiredAt: '2026-12-01T10:00:00+00:00', expiresAt: null });

    mollie.deliverWebhooks = true;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await create({ ...PAYMENT, webhookUrl: `http://127.0.0.1:${port}/hook` });
    await mollie.setStatus(unreachable.id, 'failed');
    expect(mollie.webhookDeliveries.at(-1)).toMatchObject({ paymentId: unreachable.id, status: 'ECONNREFUSED' });
  });

  it('lets a browser choose the outcome on the checkout page and sends it back to the redirect URL', async () => {
    const { id } = await create({ ...PAYMENT, webhookUrl: receiver.url });
    const page = await fetch(mollie.checkoutUrl(id));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Bestelling K-2026-0042');
    expect(html).toContain('€\u00a090,75');
    for (const status of ['paid', 'failed', 'canceled', 'expired', 'open']) expect(html).toContain(`value="${status}" required> ${status}</label>`);
    expect(html).toContain('<button type="submit">Continue</button>');

    const stay = await fetch(mollie.checkoutUrl(id), { method: 'POST', body: new URLSearchParams({ status: 'open' }), redirect: 'manual' });
    expect(stay.status).toBe(303);
    expect(mollie.payments.get(id)!.status).toBe('open');
    expect(receiver.calls).toEqual([]);

    const paid = await fetch(mollie.checkoutUrl(id), { method: 'POST', body: new URLSearchParams({ status: 'paid' }), redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(PAYMENT.redirectUrl);
    expect(mollie.payments.get(id)).toMatchObject({ status: 'paid', paidAt: '2026-12-01T10:00:00+00:00' });
    expect(receiver.calls).toEqual([{ contentType: 'application/x-www-form-urlencoded', body: `id=${id}` }]);

    // A finished payment's checkout only sends the browser back.
    const after = await fetch(mollie.checkoutUrl(id), { redirect: 'manual' });
    expect(after.status).toBe(303);
    expect((await fetch(mollie.checkoutUrl('tr_nothere000'))).status).toBe(404);
    const bad = await create();
    expect((await fetch(mollie.checkoutUrl(bad.id), { method: 'POST', body: new URLSearchParams({ status: 'refunded' }) })).status).toBe(400);
  });

  it('answers 503 in fail mode and nothing in hang mode, while the side door keeps working', async () => {
    mollie.mode = 'fail';
    const failed = await api('/payments', { body: PAYMENT });
    expect(failed.status).toBe(503);
    expect(await failed.json()).toMatchObject({ status: 503, title: 'Service Unavailable' });
    expect(mollie.payments.size).toBe(0);

    mollie.mode = 'hang';
    const started = Date.now();
    await expect(api('/payments', { body: PAYMENT, signal: AbortSignal.timeout(200) })).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(mollie.requests.map((r) => r.path)).toEqual(['/v2/payments', '/v2/payments']);
    const control = fakeMollieControl(mollie.controlUrl);
    expect(await control.payments()).toEqual([]);
    await control.setMode('ok');
    expect((await api('/payments', { body: PAYMENT })).status).toBe(201);
  });

  it('is driven over its side door by the control client', async () => {
    const control = fakeMollieControl(mollie.controlUrl);
    const direct = await control.createDirect({ ...PAYMENT, metadata: { source: 'elsewhere' }, webhookUrl: receiver.url });
    expect(direct).toMatchObject({ status: 'open', mode: 'test', metadata: { source: 'elsewhere' }, idempotencyKey: null });
    expect((await control.createDirect(PAYMENT, 'paid')).paidAt).toBe('2026-12-01T10:00:00+00:00');
    expect(receiver.calls).toEqual([]);

    expect((await control.pay(direct.id)).status).toBe('paid');
    expect((await control.refundInDashboard(direct.id, '0.75')).amount).toEqual({ currency: 'EUR', value: '0.75' });
    expect((await control.chargeback(direct.id, '90.00')).amountChargedBack).toEqual({ currency: 'EUR', value: '90.00' });
    expect((await control.payment(direct.id)).amountRemaining).toEqual({ currency: 'EUR', value: '0.00' });
    expect((await control.webhookDeliveries()).map((d) => d.status)).toEqual([200, 200, 200]);
    expect((await control.deliverWebhook(direct.id)).status).toBe(200);
    await expect(control.setStatus(direct.id, 'expired')).rejects.toThrow('409');
    await expect(control.pay('tr_nothere000')).rejects.toThrow('404 No payment with id tr_nothere000 exists.');

    await control.setKeys([LIVE_KEY]);
    expect((await api('/payments', { body: PAYMENT })).status).toBe(401);
    await control.setDeliverWebhooks(false);
    expect(mollie.deliverWebhooks).toBe(false);
    expect((await control.requests()).map((r) => r.authorization)).toEqual([`Bearer ${TEST_KEY}`]);

    await control.reset();
    expect(mollie.payments.size).toBe(0);
    expect(mollie.apiKeys.size).toBe(0);
    expect(mollie.deliverWebhooks).toBe(true);
    expect(await control.webhookDeliveries()).toEqual([]);
  });
});
