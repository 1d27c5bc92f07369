import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, onlinePayments, orders, providerKeyRefusals, settings } from '../../src/db/schema';
import { createNodeSmtpTransport } from '../../src/platform/smtp-node';
import { startFakeMollie, type FakeMollie } from '../support/fake-mollie';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { pdfText } from '../support/pdf-text';
import { attachmentsOf, parseMime, startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, transports } from '../support/transports';

/**
 * Online payment through Mollie and the customer's order page (DESIGN §6, docs/decisions/066), against a stand-in
 * of Mollie's Payments API v2 on loopback (test/support/fake-mollie.ts). The stand-in's own webhook calls would go
 * to the configured origin, where no server listens here, so the tests deliver them to the app themselves.
 */

const KEY = `test_${'a1B2c3D4e5'.repeat(3)}`;
const OTHER_KEY = `test_${'Z9y8X7w6V5'.repeat(3)}`;
const ORIGIN = 'https://kerst.example.nl';
const WEBHOOK = '/api/payments/mollie/webhook';

let mollie: FakeMollie;
let t: TestApp | undefined;
let app: TestApp;
let sink: SmtpSink;
let adminCookie: string;

type Op = 'list' | 'refund';
const [rest, trpc] = transports<Op>(() => app, {
  rest: { list: ['GET', '/api/payments/online?page=1&per_page=20'], refund: ['POST', '/orders/refund', 'id'] },
  trpc: { list: ['query', 'onlinePayments.list'], refund: ['mutation', 'onlinePayments.refund', 'id'] },
});

beforeAll(async () => {
  // Mollie's clock is the app's, so a payment's expiry is measured as the server measures it.
  mollie = await startFakeMollie({ now: () => (t ? t.clock.now() : new Date()) });
});

afterAll(async () => {
  await mollie.close();
});

beforeEach(async () => {
  mollie.reset();
  mollie.deliverWebhooks = false;
  t = app = await createTestApp({ env: { MOLLIE_API_URL: mollie.url, PUBLIC_URL: ORIGIN } });
  sink = await startSmtpSink();
  app.deps.mailTransport = createNodeSmtpTransport(sink.url);
  adminCookie = await app.cookieFor('admin');
  await setSettings(app, adminCookie, { online_payments: 'true', mollie_api_key: KEY });
});

afterEach(async () => {
  await sink.stop();
  expect(app.errors).toEqual([]);
  await app.close();
  t = undefined;
});

let counter = 0;

/** An order taken by an admin (1 package: € 90,75 incl. 21 % VAT), with the token of its order page. */
async function newOrder(extra: Record<string, unknown> = {}): Promise<{ id: number; reference: string; token: string; url: string }> {
  counter++;
  const r = await app.request('/orders/create', {
    cookie: adminCookie,
    body: {
      name: `Klant ${counter}`,
      email: `klant${counter}@example.nl`,
      amount: 1,
      phone: '0612345678',
      address: 'Noorderhaven 12',
      postal_code: '8861 AL',
      city: 'Harlingen',
      ...extra,
    },
  });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  const url: string = r.json.order_url;
  expect(url).toMatch(/^https:\/\/kerst\.example\.nl\/bestelling\/[A-Za-z0-9_-]{43}$/);
  const [row] = await app.db.select({ id: orders.id }).from(orders).where(eq(orders.reference, r.json.order_reference));
  return { id: row!.id, reference: r.json.order_reference, token: url.slice(url.lastIndexOf('/') + 1), url };
}

const status = (token: string) => app.request(`/api/order-status/${token}`);
const pay = (token: string, headers: Record<string, string> = {}) => app.request(`/api/order-status/${token}/pay`, { method: 'POST', headers });
const webhook = (id: string) =>
  app.request(WEBHOOK, { method: 'POST', rawBody: `id=${encodeURIComponent(id)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
const orderRow = async (id: number) => (await app.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const paymentRows = () => app.db.select().from(onlinePayments).orderBy(asc(onlinePayments.id));
const auditActions = async (prefix = 'payment.') =>
  (await app.db.select().from(auditLog).orderBy(asc(auditLog.id))).filter((e) => e.action.startsWith(prefix)).map((e) => e.action);

/** Pays an order at Mollie: the customer opens the checkout and chooses paid. Returns the payment's id. */
async function payAtMollie(token: string): Promise<string> {
  const answer = await pay(token);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  const id = (answer.json.checkout_url as string).split('/').pop()!;
  await mollie.pay(id);
  return id;
}

describe('the order page', () => {
  it("answers the order's state, public and kept by no cache, and 404 for a token nobody was given", async () => {
    const order = await newOrder({ amount: 2 });
    const answer = await status(order.token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.json).toEqual({
      reference: order.reference,
      name: `Klant ${counter}`,
      amount: 2,
      amount_incl: 181.5,
      paid: false,
      paid_at: null,
      cancelled: false,
      invoice_number: null,
      refunded_amount: 0,
      can_pay: true,
    });
    // The last one differs from the real token in its last character (a random token may end in 'A' itself).
    const altered = `${order.token.slice(0, -1)}${order.token.endsWith('A') ? 'B' : 'A'}`;
    for (const token of ['x'.repeat(43), 'kort', altered]) {
      const unknown = await status(token);
      expect([unknown.status, unknown.json]).toEqual([
        404,
        { success: false, error: 'Deze bestelling is niet gevonden. Controleer de link in je e-mail.', code: 'ORDER_PAGE_NOT_FOUND' },
      ]);
    }
    // Only the token's digest is stored.
    expect(JSON.stringify(await app.db.select().from(orders))).not.toContain(order.token);
  });

  it('offers payment only while online payments are on with a key, and the order is open', async () => {
    const order = await newOrder();
    await setSettings(app, adminCookie, { online_payments: 'false' });
    expect((await status(order.token)).json.can_pay).toBe(false);
    const off = await pay(order.token);
    expect([off.status, off.json.code, off.json.error]).toEqual([
      409,
      'ONLINE_PAYMENTS_OFF',
      'Online betalen is voor deze bestelling niet mogelijk. Betaal met een overschrijving zoals op je factuur staat.',
    ]);
    await setSettings(app, adminCookie, { online_payments: 'true', mollie_api_key: '' });
    expect((await pay(order.token)).json.code).toBe('ONLINE_PAYMENTS_OFF');
    await setSettings(app, adminCookie, { mollie_api_key: KEY });
    await app.request(`/orders/update?id=${order.id}`, { cookie: adminCookie, body: { ...(await orderBody(order.id)), paid: true } });
    expect((await status(order.token)).json).toMatchObject({ paid: true, can_pay: false });
    const paid = await pay(order.token);
    expect([paid.status, paid.json.code, paid.json.error]).toEqual([409, 'ALREADY_PAID', 'Deze bestelling is al betaald.']);
    expect(mollie.requests).toEqual([]);
  });

  it('serves the stored invoice once it is sent, and 404 before', async () => {
    await setSettings(app, adminCookie, VALID_INVOICE_SETTINGS);
    const order = await newOrder();
    const before = await app.request(`/api/order-status/${order.token}/invoice.pdf`);
    expect([before.status, before.json.code]).toEqual([404, 'DOCUMENT_NOT_FOUND']);
    expect((await app.request(`/orders/sendInvoice?id=${order.id}`, { method: 'POST', cookie: adminCookie })).json.success).toBe(true);
    const pdf = await app.request(`/api/order-status/${order.token}/invoice.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe('attachment; filename="Factuur-F2026-0001.pdf"');
    expect((await status(order.token)).json.invoice_number).toBe('F2026-0001');
  });
});

describe('paying', () => {
  it("asks Mollie for a payment of the order's total with the club's key, URLs on the club's origin and an idempotency key, and reuses it", async () => {
    const order = await newOrder();
    // A request naming another host changes none of the links (DESIGN §6 "Links the server writes").
    const answer = await pay(order.token, { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const [payment] = [...mollie.payments.values()];
    expect(answer.json).toEqual({ checkout_url: mollie.checkoutUrl(payment!.id) });
    expect(mollie.requests).toHaveLength(1);
    const [created] = mollie.requests;
    expect(created).toMatchObject({ method: 'POST', path: '/v2/payments', authorization: `Bearer ${KEY}` });
    expect(created!.idempotencyKey).toMatch(/^kerstactie-order-\d+-9075-0$/);
    expect(created!.body).toEqual({
      amount: { currency: 'EUR', value: '90.75' },
      description: `Kerstpakket ${order.reference}`,
      redirectUrl: order.url,
      webhookUrl: `${ORIGIN}/api/payments/mollie/webhook`,
      metadata: { order_id: order.id, reference: order.reference },
    });
    // A second click while the payment is open takes the customer to the same checkout.
    expect((await pay(order.token)).json).toEqual(answer.json);
    expect(mollie.requests).toHaveLength(1);
    expect(await paymentRows()).toMatchObject([{ providerId: payment!.id, orderId: order.id, status: 'open', amountCents: 9075, paidAt: null }]);
    // The order itself waits for Mollie's word.
    expect(await orderRow(order.id)).toMatchObject({ paid: false, paymentMethod: null });
  });

  it('makes one payment when the customer clicks twice at once', async () => {
    const order = await newOrder();
    const answers = await Promise.all([pay(order.token), pay(order.token), pay(order.token)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.json.checkout_url)).size).toBe(1);
    expect(mollie.payments.size).toBe(1);
    expect(await paymentRows()).toHaveLength(1);
  });

  it('asks for a new payment after the last one failed or expired', async () => {
    const order = await newOrder();
    const first = (await pay(order.token)).json.checkout_url.split('/').pop();
    await mollie.setStatus(first, 'expired');
    expect((await webhook(first)).status).toBe(200);
    const second = (await pay(order.token)).json.checkout_url.split('/').pop();
    expect(second).not.toBe(first);
    expect(mollie.requests.filter((r) => r.path === '/v2/payments').map((r) => r.idempotencyKey!.split('-').pop())).toEqual(['0', '1']);
    expect((await paymentRows()).map((p) => p.status)).toEqual(['expired', 'open']);
  });

  it('answers 502 with a Dutch error when Mollie fails, refuses the key or does not answer in 10 s, and changes nothing', async () => {
    const order = await newOrder();
    const failed = 'Online betalen lukt op dit moment niet. Probeer het later opnieuw, of betaal met een overschrijving zoals op je factuur staat.';
    mollie.mode = 'fail';
    const down = await pay(order.token);
    expect([down.status, down.json]).toEqual([502, { success: false, error: failed, code: 'PAYMENT_PROVIDER_FAILED' }]);
    mollie.mode = 'ok';
    mollie.apiKeys.add(OTHER_KEY);
    const refused = await pay(order.token);
    expect([refused.status, refused.json.code]).toEqual([502, 'PAYMENT_PROVIDER_FAILED']);
    // The settings screen is told, by a digest of the key, never the key.
    const keyStatus = await app.request('/trpc/onlinePayments.keyStatus', { cookie: adminCookie });
    expect(keyStatus.json.result.data).toEqual({ key_set: true, refused_at: '2026-11-22T10:00:00.000Z' });
    expect(JSON.stringify(await app.db.select().from(providerKeyRefusals))).not.toContain(KEY);
    mollie.apiKeys.clear();
    mollie.mode = 'hang';
    const started = Date.now();
    const hung = await pay(order.token);
    expect([hung.status, hung.json.code]).toEqual([502, 'PAYMENT_PROVIDER_FAILED']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_900);
    expect(await paymentRows()).toEqual([]);
    expect(await orderRow(order.id)).toMatchObject({ paid: false, paymentMethod: null });
    // A call that works clears the warning.
    mollie.mode = 'ok';
    expect((await pay(order.token)).status).toBe(200);
    expect((await app.request('/trpc/onlinePayments.keyStatus', { cookie: adminCookie })).json.result.data).toEqual({ key_set: true, refused_at: null });
  }, 30_000);
});

describe('the webhook: fetched from Mollie and reconciled', () => {
  it('marks the order paid once, however often and however concurrently Mollie calls', async () => {
    const order = await newOrder();
    const id = await payAtMollie(order.token);
    const answers = await Promise.all([webhook(id), webhook(id), webhook(id), webhook(id)]);
    expect(answers.map((a) => [a.status, a.json])).toEqual(Array(4).fill([200, { success: true }]));
    expect((await webhook(id)).status).toBe(200);
    const paidAt = new Date(mollie.payments.get(id)!.paidAt!).toISOString();
    expect(await orderRow(order.id)).toMatchObject({ paid: true, paidAt, paymentMethod: 'online', refundedCents: 0 });
    expect(await auditActions()).toEqual(['payment.received']);
    // Each call asked Mollie; none believed its body.
    expect(mollie.requests.filter((r) => r.method === 'GET').length).toBe(5);
    const list = await app.request('/orders', { cookie: adminCookie });
    expect(list.json.find((o: { id: number }) => o.id === order.id)).toMatchObject({ paid: true, payment_method: 'online', refunded_amount: 0 });
  });

  it('takes out-of-order news as Mollie has it now: a refund made in the dashboard before the first call arrived', async () => {
    const order = await newOrder();
    const id = await payAtMollie(order.token);
    await mollie.refundInDashboard(id, '20.00');
    await webhook(id);
    await webhook(id);
    expect(await orderRow(order.id)).toMatchObject({ paid: true, paymentMethod: 'online', refundedCents: 2000 });
    expect(await auditActions()).toEqual(['payment.received', 'payment.refunded']);
    await mollie.refundInDashboard(id, '70.75');
    await webhook(id);
    expect((await status(order.token)).json).toMatchObject({ paid: true, refunded_amount: 90.75, can_pay: false });
    expect(await auditActions()).toEqual(['payment.received', 'payment.refunded', 'payment.refunded']);
  });

  it('makes the order unpaid again on a chargeback, once', async () => {
    const order = await newOrder();
    const id = await payAtMollie(order.token);
    await webhook(id);
    await mollie.chargeback(id, '90.75');
    await webhook(id);
    await webhook(id);
    expect(await orderRow(order.id)).toMatchObject({ paid: false, paidAt: null, paymentMethod: null });
    expect(await auditActions()).toEqual(['payment.received', 'payment.charged_back']);
    expect((await paymentRows())[0]).toMatchObject({ chargedBackCents: 9075, applied: true });
  });

  it('flags a double payment for a refund when the order was paid by transfer meanwhile, and leaves the order as it was', async () => {
    const order = await newOrder();
    const id = (await pay(order.token)).json.checkout_url.split('/').pop();
    await app.request(`/orders/update?id=${order.id}`, { cookie: adminCookie, body: { ...(await orderBody(order.id)), paid: true } });
    const paidByHand = await orderRow(order.id);
    expect(paidByHand.paymentMethod).toBe('manual');
    await mollie.pay(id);
    await webhook(id);
    await webhook(id);
    expect(await orderRow(order.id)).toMatchObject({ paid: true, paidAt: paidByHand.paidAt, paymentMethod: 'manual' });
    expect(await auditActions()).toEqual(['payment.double']);
    for (const tr of [rest, trpc]) {
      const list = await tr.call('list', { cookie: adminCookie, body: { page: '1', per_page: '20' } });
      expect(list.status).toBe(200);
      expect(list.data).toEqual({
        payments: [
          {
            id: expect.any(Number),
            provider_id: id,
            order_id: order.id,
            reference: order.reference,
            status: 'paid',
            amount: 90.75,
            refunded_amount: 0,
            charged_back_amount: 0,
            double_payment: true,
            created_at: '2026-11-22T10:00:00.000Z',
            paid_at: new Date(mollie.payments.get(id)!.paidAt!).toISOString(),
          },
        ],
        total: 1,
        page: 1,
        per_page: 20,
      });
    }
  });

  it('reconciles a lost webhook when the customer comes back to the order page', async () => {
    const order = await newOrder();
    await payAtMollie(order.token);
    expect((await status(order.token)).json).toMatchObject({ paid: true, can_pay: false });
    expect(await orderRow(order.id)).toMatchObject({ paid: true, paymentMethod: 'online' });
    expect(await auditActions()).toEqual(['payment.received']);
  });

  it('ignores a payment whose metadata names no order of this club, and an id Mollie does not know', async () => {
    const order = await newOrder();
    const stranger = mollie.createDirect(
      {
        amount: { currency: 'EUR', value: '90.75' },
        description: 'Iets anders',
        redirectUrl: 'https://elders.example/',
        metadata: { order_id: order.id, reference: 'KP-2026-9999' },
      },
      'paid',
    );
    expect((await webhook(stranger.id)).status).toBe(200);
    expect((await webhook('tr_Onbekend123')).status).toBe(200);
    expect(await paymentRows()).toEqual([]);
    expect((await orderRow(order.id)).paid).toBe(false);
    const bad = await webhook('order-1');
    expect([bad.status, bad.json.code]).toEqual([400, 'PAYMENT_ID_INVALID']);
  });

  it('answers 503 while Mollie cannot be asked, so Mollie calls again, and applies the payment then', async () => {
    const order = await newOrder();
    const id = await payAtMollie(order.token);
    mollie.mode = 'fail';
    const down = await webhook(id);
    expect([down.status, down.json.code]).toEqual([503, 'PAYMENT_PROVIDER_UNAVAILABLE']);
    expect((await orderRow(order.id)).paid).toBe(false);
    // The order page shows what the server knows while Mollie is away.
    expect((await status(order.token)).json).toMatchObject({ paid: false });
    mollie.mode = 'ok';
    expect((await webhook(id)).status).toBe(200);
    expect((await orderRow(order.id)).paid).toBe(true);
  });

  it('needs no session and passes the cross-site refusal (Mollie posts it from its servers)', async () => {
    const order = await newOrder();
    const id = await payAtMollie(order.token);
    const answer = await app.request(WEBHOOK, {
      method: 'POST',
      rawBody: `id=${id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://www.mollie.com', 'sec-fetch-site': 'cross-site' },
    });
    expect(answer.status).toBe(200);
    expect((await orderRow(order.id)).paid).toBe(true);
  });
});

describe('refunds from the back-office', () => {
  it.each([
    ['REST', rest],
    ['tRPC', trpc],
  ] as const)('%s: refunds part, then the rest, through Mollie; refuses more than is left; audits each', async (_name, tr) => {
    const order = await newOrder();
    const id = await payAtMollie(order.token);
    await webhook(id);
    const part = await tr.call('refund', { cookie: adminCookie, id: order.id, body: { amount: 10.25 } });
    expect([part.status, part.data]).toEqual([200, { success: true, refunded_amount: 10.25 }]);
    const asked = mollie.requests.filter((r) => r.path === `/v2/payments/${id}/refunds`);
    expect(asked.map((r) => r.body)).toEqual([{ amount: { currency: 'EUR', value: '10.25' }, description: `Terugbetaling ${order.reference}` }]);
    expect(asked[0]!.idempotencyKey).toBeTruthy();
    expectFailure(
      tr,
      await tr.call('refund', { cookie: adminCookie, id: order.id, body: { amount: 90 } }),
      409,
      'Je kunt op deze bestelling nog ten hoogste € 80,50 terugbetalen.',
      'REFUND_TOO_LARGE',
    );
    const rest2 = await tr.call('refund', { cookie: adminCookie, id: order.id, body: {} });
    expect(rest2.data).toEqual({ success: true, refunded_amount: 90.75 });
    expectFailure(
      tr,
      await tr.call('refund', { cookie: adminCookie, id: order.id, body: {} }),
      409,
      'De online betaling van deze bestelling is al helemaal terugbetaald.',
      'NOTHING_TO_REFUND',
    );
    expect(mollie.payments.get(id)!.amountRefunded).toEqual({ currency: 'EUR', value: '90.75' });
    expect(await auditActions()).toEqual(['payment.received', 'payment.refund_requested', 'payment.refunded', 'payment.refund_requested', 'payment.refunded']);
    const entries = (await app.db.select().from(auditLog)).filter((e) => e.action === 'payment.refund_requested');
    expect(entries.map((e) => e.actorUsername)).toEqual(['admin', 'admin']);
    // The webhook Mollie sends for the refunds changes nothing more.
    await webhook(id);
    expect((await orderRow(order.id)).refundedCents).toBe(9075);
    expect((await status(order.token)).json.refunded_amount).toBe(90.75);
  });

  it('refuses an order without a paid online payment, and is for the back-office only', async () => {
    const order = await newOrder();
    expectFailure(
      rest,
      await rest.call('refund', { cookie: adminCookie, id: order.id, body: {} }),
      409,
      'Deze bestelling heeft geen online betaling die kan worden terugbetaald.',
      'NO_ONLINE_PAYMENT',
    );
    expect((await rest.call('refund', { id: order.id, body: {} })).status).toBe(401);
    expect((await rest.call('list', {})).status).toBe(401);
    const bad = await rest.call('refund', { cookie: adminCookie, id: order.id, body: { amount: 1.234 } });
    expect(bad.status).toBe(400);
  });
});

describe('the key and the links', () => {
  it('refuses a key that is not a Mollie key, and never answers the key in clear', async () => {
    const wrong = await app.request('/api/settings/update', { cookie: adminCookie, body: { key: 'mollie_api_key', value: 'sk_live_123' } });
    expect([wrong.status, wrong.json.code]).toEqual([400, 'MOLLIE_KEY_INVALID']);
    const list = await app.request('/api/settings', { cookie: adminCookie });
    expect(list.text).not.toContain(KEY);
    expect(list.json.settings.find((s: { key: string }) => s.key === 'mollie_api_key')).toMatchObject({ type: 'password', value: '' });
    const [stored] = await app.db.select().from(settings).where(eq(settings.key, 'mollie_api_key'));
    expect(stored!.value).toMatch(/^enc:v1:/);
    const audit = await app.request('/api/audit?per_page=200', { cookie: adminCookie });
    expect(audit.text).not.toContain(KEY);
    const order = await newOrder();
    expect((await status(order.token)).text).not.toContain(KEY);
    expect((await pay(order.token)).text).not.toContain(KEY);
  });

  it('puts the order page link beside the transfer in invoice and reminder mails and in the invoice PDF', async () => {
    await setSettings(app, adminCookie, VALID_INVOICE_SETTINGS);
    const order = await newOrder();
    expect((await app.request(`/orders/sendInvoice?id=${order.id}`, { method: 'POST', cookie: adminCookie })).json.success).toBe(true);
    const [invoiceMail] = await app.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'invoice'));
    const link = invoiceMail!.textBody.match(
      /Liever online betalen\? Dat kan met iDEAL op je bestelpagina:\n(https:\/\/kerst\.example\.nl\/bestelling\/[A-Za-z0-9_-]{43})\n/,
    )?.[1];
    expect(link).toBeDefined();
    expect(invoiceMail!.htmlBody).toContain(`<a href="${link}">${link}</a>`);
    // The link in the mail opens the same order.
    expect((await status(link!.split('/').pop()!)).json.reference).toBe(order.reference);
    const pdf = attachmentsOf(parseMime(sink.messages[0]!.raw)).find((a) => a.type === 'application/pdf')!;
    const text = await pdfText(pdf.content);
    expect(text).toContain('Liever online betalen (iDEAL)? Dat kan op je bestelpagina:');
    const pdfLink = text.match(/https:\/\/kerst\.example\.nl\/bestelling\/[A-Za-z0-9_-]{43}/)?.[0];
    expect((await status(pdfLink!.split('/').pop()!)).json.reference).toBe(order.reference);
    app.clock.advance(30 * 24 * 60 * 60 * 1000);
    adminCookie = await app.cookieFor('admin');
    const reminded = await app.request(`/orders/sendReminder?id=${order.id}`, { method: 'POST', cookie: adminCookie, body: {} });
    expect(reminded.json, JSON.stringify(reminded.json)).toMatchObject({ success: true });
    const [reminder] = await app.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'reminder'));
    expect(reminder!.textBody).toMatch(/Liever online betalen\? Dat kan met iDEAL op je bestelpagina:\nhttps:\/\/kerst\.example\.nl\/bestelling\//);
  });

  it('leaves the link out of mails and PDFs while online payments are off', async () => {
    await setSettings(app, adminCookie, { ...VALID_INVOICE_SETTINGS, online_payments: 'false' });
    const order = await newOrder();
    await app.request(`/orders/sendInvoice?id=${order.id}`, { method: 'POST', cookie: adminCookie });
    const [invoiceMail] = await app.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'invoice'));
    expect(invoiceMail!.textBody).not.toContain('online betalen');
    const pdf = attachmentsOf(parseMime(sink.messages[0]!.raw)).find((a) => a.type === 'application/pdf')!;
    expect(await pdfText(pdf.content)).not.toContain('bestelling/');
  });
});

/** The order as the edit form sends it back unchanged. */
async function orderBody(id: number) {
  const row = await orderRow(id);
  return { name: row.name, email: row.email, phone: row.phone, address: row.address, postal_code: row.postalCode, city: row.city, amount: row.amount };
}
