import { randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  FakeMollieChargeback,
  FakeMollieDirectPayment,
  FakeMollieMode,
  FakeMolliePayment,
  FakeMolliePaymentStatus,
  FakeMollieRefund,
  FakeMollieSettableStatus,
  FakeMollieWebhookDelivery,
  MollieAmount,
  RecordedMollieRequest,
} from './fake-mollie-control';

export type {
  FakeMollieChargeback,
  FakeMollieDirectPayment,
  FakeMollieMode,
  FakeMolliePayment,
  FakeMolliePaymentStatus,
  FakeMollieRefund,
  FakeMollieSettableStatus,
  FakeMollieWebhookDelivery,
  MollieAmount,
  RecordedMollieRequest,
} from './fake-mollie-control';
export { fakeMollieControl } from './fake-mollie-control';

/**
 * A stand-in for Mollie's Payments API v2 on loopback, built from Mollie's documentation (docs.mollie.com: create
 * payment, get payment, create payment refund, handling errors, API idempotency, webhooks, payment status changes,
 * testing). Three doors on one port:
 *   /v2/…        the API, as our server calls it (Bearer key, JSON, `application/hal+json` answers and problem bodies);
 *   /checkout/…  a test-mode checkout page where a browser picks the payment's outcome, like Mollie's in test mode;
 *   /_control/…  a JSON side door (no auth) for tests inside workerd, which cannot reach this process's memory
 *                (test/support/fake-mollie-control.ts is its client).
 *
 * Like Mollie it posts `id=<payment id>` to the webhook URL when a payment reaches paid, failed, canceled or expired,
 * and on a dashboard refund or a chargeback; never for open or pending. It does not retry: `deliverWebhook` posts again.
 */
export interface FakeMollie {
  /** The API base, `http://127.0.0.1:<port>/v2` — what MOLLIE_API_URL is set to. */
  url: string;
  /** The side door's base, `http://127.0.0.1:<port>/_control`. */
  controlUrl: string;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Accepted API keys (Authorization: Bearer <key>); any other key → 401. Empty = any key of the right form (test_/live_ + ≥30 letters or digits). */
  apiKeys: Set<string>;
  payments: Map<string, FakeMolliePayment>;
  /** Every API call, in order (also those answered 503 or left hanging); not the checkout or the side door. */
  requests: RecordedMollieRequest[];
  /** ok; fail: every API call answers 503; hang: API calls never answer. The side door and the checkout always work. */
  mode: FakeMollieMode;
  /** When true (the default), a state change posts the webhook like Mollie does. */
  deliverWebhooks: boolean;
  webhookDeliveries: FakeMollieWebhookDelivery[];
  /** The checkout page of a payment, as `_links.checkout` gives it. */
  checkoutUrl(id: string): string;
  /** The customer pays: status paid, paidAt now. */
  pay(id: string): Promise<FakeMolliePayment>;
  /** The customer (or time) ends or moves an unfinished payment; webhook for failed, canceled and expired only. */
  setStatus(id: string, status: FakeMollieSettableStatus): Promise<FakeMolliePayment>;
  /** The club refunds in Mollie's dashboard. */
  refundInDashboard(id: string, value: string): Promise<FakeMollieRefund>;
  /** The customer's bank reverses (part of) the payment: amountChargedBack grows, the status stays paid. */
  chargeback(id: string, value: string): Promise<FakeMolliePayment>;
  /** Posts the payment's webhook again, as Mollie's retries do, whatever deliverWebhooks says. */
  deliverWebhook(id: string): Promise<FakeMollieWebhookDelivery>;
  /** A payment made outside our server (e.g. one whose metadata names no order of ours). Posts no webhook. */
  createDirect(body: FakeMollieDirectPayment, status?: FakeMolliePaymentStatus): FakeMolliePayment;
  /** Forgets payments, requests, deliveries and idempotency keys; mode ok; webhooks on; keys cleared; drops hanging calls. */
  reset(): void;
  close(): Promise<void>;
}

/** Thrown by the JS methods (and answered by the side door with its status) when a change is not possible. */
export class FakeMollieRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// iDEAL's expiry time (docs.mollie.com "Payment status changes").
const EXPIRY = 15 * MINUTE;
// How long Mollie keeps an idempotency key (docs.mollie.com "API idempotency").
const IDEMPOTENCY_WINDOW = 24 * HOUR;
// Mollie gives up on a webhook call after 15 seconds (docs.mollie.com "Webhooks").
const WEBHOOK_TIMEOUT = 15_000;
const PROFILE_ID = 'pfl_FakeMollie1';
const UNFINISHED: ReadonlySet<FakeMolliePaymentStatus> = new Set(['open', 'pending', 'authorized']);
const SETTABLE: ReadonlySet<string> = new Set(['failed', 'canceled', 'expired', 'pending', 'open']);
const STATUSES: ReadonlySet<string> = new Set([...UNFINISHED, 'paid', 'canceled', 'expired', 'failed']);
const CHECKOUT_CHOICES = ['paid', 'failed', 'canceled', 'expired', 'open'] as const;
const KEY_FORM = /^(test|live)_[A-Za-z0-9]{30,}$/;
const MONEY = /^\d+\.\d{2}$/;
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const DOCS = {
  auth: 'https://docs.mollie.com/overview/authentication',
  errors: 'https://docs.mollie.com/overview/handling-errors',
  getPayment: 'https://docs.mollie.com/reference/v2/payments-api/get-payment',
  createPayment: 'https://docs.mollie.com/reference/v2/payments-api/create-payment',
  refund: 'https://docs.mollie.com/reference/v2/refunds-api/get-payment-refund',
};
const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized Request',
  404: 'Not Found',
  409: 'Conflict',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

function randomId(prefix: string, length: number): string {
  let id = prefix;
  for (let i = 0; i < length; i++) id += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return id;
}

/** Mollie writes times as `2018-03-20T13:13:37+00:00`. */
function stamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

function toCents(value: string): number {
  const [euros, cents] = value.split('.') as [string, string];
  return Number(euros) * 100 + Number(cents);
}

function money(currency: string, cents: number): MollieAmount {
  return { currency, value: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}` };
}

function problem(status: number, detail: string, field?: string): Answer {
  return {
    status,
    body: {
      status,
      title: TITLES[status] ?? 'Error',
      detail,
      ...(field ? { field } : {}),
      _links: { documentation: { href: status === 401 ? DOCS.auth : DOCS.errors, type: 'text/html' } },
    },
  };
}

/** Sorted keys, so `{a,b}` and `{b,a}` count as the same parameters for an idempotency key. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Mollie takes form bodies too (its curl examples send `amount[value]=5.95`): one level of brackets. */
function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const nested = /^([^[\]]+)\[([^[\]]+)\]$/.exec(key);
    if (!nested) {
      out[key] = value;
      continue;
    }
    const [, outer, inner] = nested as unknown as [string, string, string];
    const holder = out[outer];
    if (holder && typeof holder === 'object') (holder as Record<string, string>)[inner] = value;
    else out[outer] = { [inner]: value };
  }
  return out;
}

function isAbsoluteUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

type Checked<T> = { ok: true; value: T } | { ok: false; field: string; detail: string };

/** An amount object as Mollie wants it: a currency and a string value with exactly two decimals, above zero. */
function checkAmount(input: unknown, currency: string): Checked<number> {
  if (!input || typeof input !== 'object') return { ok: false, field: 'amount', detail: 'An amount object with a currency and a value is required.' };
  const { currency: given, value } = input as Record<string, unknown>;
  if (typeof given !== 'string' || given === '') return { ok: false, field: 'amount.currency', detail: 'The amount needs a currency.' };
  if (given !== currency) return { ok: false, field: 'amount.currency', detail: `The currency ${given} is not supported here; use ${currency}.` };
  if (typeof value !== 'string') return { ok: false, field: 'amount.value', detail: 'The amount value must be a string, such as "10.00".' };
  if (!MONEY.test(value)) return { ok: false, field: 'amount.value', detail: `The amount value "${value}" needs exactly two decimals, such as "10.00".` };
  const cents = toCents(value);
  if (cents <= 0) return { ok: false, field: 'amount.value', detail: 'The amount is lower than the minimum of 0.01.' };
  return { ok: true, value: cents };
}

function checkPaymentInput(input: unknown): Checked<FakeMollieDirectPayment> {
  const body = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const amount = checkAmount(body.amount, 'EUR');
  if (!amount.ok) return amount;
  if (typeof body.description !== 'string' || body.description.trim() === '') {
    return { ok: false, field: 'description', detail: 'A description of the payment is required.' };
  }
  if (!isAbsoluteUrl(body.redirectUrl)) return { ok: false, field: 'redirectUrl', detail: 'The redirect URL must be an absolute http(s) URL.' };
  if (body.webhookUrl !== undefined && body.webhookUrl !== null && body.webhookUrl !== '' && !isAbsoluteUrl(body.webhookUrl)) {
    return { ok: false, field: 'webhookUrl', detail: 'The webhook URL must be an absolute http(s) URL.' };
  }
  // "You can use up to approximately 1kB" (create payment, metadata).
  if (body.metadata !== undefined && JSON.stringify(body.metadata).length > 1024) {
    return { ok: false, field: 'metadata', detail: 'The metadata is larger than 1024 characters.' };
  }
  return {
    ok: true,
    value: {
      amount: money('EUR', amount.value),
      description: body.description,
      redirectUrl: body.redirectUrl as string,
      ...(typeof body.webhookUrl === 'string' && body.webhookUrl !== '' ? { webhookUrl: body.webhookUrl } : {}),
      ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return error.name;
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') return code;
    return error.message;
  }
  return String(error);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export async function startFakeMollie(options: { now?: () => Date } = {}): Promise<FakeMollie> {
  const now = options.now ?? (() => new Date());
  const hanging = new Set<ServerResponse>();
  const idempotency = new Map<string, { endpoint: string; fingerprint: string; at: number; answer: Answer }>();

  const find = (id: string): FakeMolliePayment => {
    const payment = fake.payments.get(id);
    if (!payment) throw new FakeMollieRefusal(404, `No payment with id ${id} exists.`);
    return payment;
  };

  /** Brings the derived amounts in line with the refunds and chargebacks (all sums in cents). */
  const recount = (payment: FakeMolliePayment) => {
    const { currency } = payment.amount;
    const refunded = payment.refunds.reduce((sum, refund) => sum + toCents(refund.amount.value), 0);
    const chargedBack = payment.chargebacks.reduce((sum, chargeback) => sum + toCents(chargeback.amount.value), 0);
    payment.amountRefunded = money(currency, refunded);
    payment.amountChargedBack = chargedBack > 0 ? money(currency, chargedBack) : null;
    payment.amountRemaining = money(currency, Math.max(0, toCents(payment.amount.value) - refunded - chargedBack));
  };

  const newPayment = (input: FakeMollieDirectPayment, mode: 'test' | 'live', idempotencyKey: string | null): FakeMolliePayment => {
    const created = now();
    const payment: FakeMolliePayment = {
      id: randomId('tr_', 10),
      mode,
      status: 'open',
      amount: { ...input.amount },
      description: input.description,
      redirectUrl: input.redirectUrl,
      webhookUrl: input.webhookUrl ?? null,
      metadata: input.metadata ?? null,
      method: null,
      createdAt: stamp(created),
      expiresAt: stamp(new Date(created.getTime() + EXPIRY)),
      paidAt: null,
      canceledAt: null,
      expiredAt: null,
      failedAt: null,
      amountRefunded: money(input.amount.currency, 0),
      amountRemaining: { ...input.amount },
      amountChargedBack: null,
      refunds: [],
      chargebacks: [],
      idempotencyKey,
    };
    fake.payments.set(payment.id, payment);
    return payment;
  };

  /** Moves a payment to a new status with the timestamp Mollie gives it; a finished payment can no longer expire. */
  const applyStatus = (payment: FakeMolliePayment, status: FakeMolliePaymentStatus) => {
    const at = stamp(now());
    payment.status = status;
    if (status === 'paid') {
      payment.paidAt = at;
      payment.method = 'ideal';
    }
    if (status === 'canceled') payment.canceledAt = at;
    if (status === 'expired') payment.expiredAt = at;
    if (status === 'failed') payment.failedAt = at;
    if (!UNFINISHED.has(status)) payment.expiresAt = null;
    recount(payment);
  };

  const requireUnfinished = (payment: FakeMolliePayment) => {
    if (!UNFINISHED.has(payment.status)) throw new FakeMollieRefusal(409, `Payment ${payment.id} is ${payment.status} already.`);
  };
  const requirePaid = (payment: FakeMolliePayment) => {
    if (payment.status !== 'paid') throw new FakeMollieRefusal(422, `Payment ${payment.id} is ${payment.status}, not paid.`);
  };
  const requireValue = (value: unknown): number => {
    if (typeof value !== 'string' || !MONEY.test(value) || toCents(value) <= 0) {
      throw new FakeMollieRefusal(422, `The value ${JSON.stringify(value)} is not an amount such as "10.00".`);
    }
    return toCents(value);
  };

  const deliver = async (payment: FakeMolliePayment): Promise<FakeMollieWebhookDelivery> => {
    if (!payment.webhookUrl) throw new FakeMollieRefusal(409, `Payment ${payment.id} has no webhook URL.`);
    const url = payment.webhookUrl;
    let status: number | string;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ id: payment.id }).toString(),
        // Mollie does not follow a 301/302 with its POST (docs.mollie.com "Webhooks"); the status is what counts.
        redirect: 'manual',
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT),
      });
      await response.arrayBuffer().catch(() => undefined);
      status = response.status;
    } catch (error) {
      status = describeFailure(error);
    }
    const delivery: FakeMollieWebhookDelivery = { paymentId: payment.id, url, status };
    fake.webhookDeliveries.push(delivery);
    return delivery;
  };
  const notify = async (payment: FakeMolliePayment) => {
    if (fake.deliverWebhooks && payment.webhookUrl) await deliver(payment);
  };

  const fake: FakeMollie = {
    url: '',
    controlUrl: '',
    origin: '',
    apiKeys: new Set(),
    payments: new Map(),
    requests: [],
    mode: 'ok',
    deliverWebhooks: true,
    webhookDeliveries: [],
    checkoutUrl: (id) => `${fake.origin}/checkout/${id}`,

    async pay(id) {
      const payment = find(id);
      requireUnfinished(payment);
      applyStatus(payment, 'paid');
      await notify(payment);
      return payment;
    },

    async setStatus(id, status) {
      if (!SETTABLE.has(status)) throw new FakeMollieRefusal(400, `The status ${JSON.stringify(status)} cannot be set; use ${[...SETTABLE].join(', ')}.`);
      const payment = find(id);
      requireUnfinished(payment);
      if (payment.status === status) return payment;
      applyStatus(payment, status);
      // Open and pending are not statuses Mollie calls the webhook for (docs.mollie.com "Payment status changes").
      if (!UNFINISHED.has(status)) await notify(payment);
      return payment;
    },

    async refundInDashboard(id, value) {
      const payment = find(id);
      requirePaid(payment);
      const cents = requireValue(value);
      if (cents > toCents(payment.amountRemaining.value)) {
        throw new FakeMollieRefusal(422, `Only ${payment.amountRemaining.value} of payment ${id} can still be refunded.`);
      }
      const refund: FakeMollieRefund = {
        id: randomId('re_', 10),
        paymentId: id,
        amount: money(payment.amount.currency, cents),
        description: '',
        metadata: null,
        status: 'refunded',
        createdAt: stamp(now()),
        via: 'dashboard',
        idempotencyKey: null,
      };
      payment.refunds.push(refund);
      recount(payment);
      await notify(payment);
      return refund;
    },

    async chargeback(id, value) {
      const payment = find(id);
      requirePaid(payment);
      const cents = requireValue(value);
      const chargedBack = payment.amountChargedBack ? toCents(payment.amountChargedBack.value) : 0;
      if (chargedBack + cents > toCents(payment.amount.value)) {
        throw new FakeMollieRefusal(422, `A chargeback of ${value} would take back more than payment ${id} was.`);
      }
      const chargeback: FakeMollieChargeback = {
        id: randomId('chb_', 6),
        paymentId: id,
        amount: money(payment.amount.currency, cents),
        createdAt: stamp(now()),
      };
      payment.chargebacks.push(chargeback);
      recount(payment);
      await notify(payment);
      return payment;
    },

    deliverWebhook: async (id) => deliver(find(id)),

    createDirect(body, status = 'open') {
      const checked = checkPaymentInput(body);
      if (!checked.ok) throw new FakeMollieRefusal(422, `${checked.field}: ${checked.detail}`);
      const payment = newPayment(checked.value, 'test', null);
      if (status !== 'open') applyStatus(payment, status);
      return payment;
    },

    reset() {
      fake.payments.clear();
      fake.requests.length = 0;
      fake.webhookDeliveries.length = 0;
      fake.mode = 'ok';
      fake.deliverWebhooks = true;
      fake.apiKeys.clear();
      idempotency.clear();
      for (const response of hanging) response.destroy();
      hanging.clear();
    },

    close: async () => undefined,
  };

  // ——— The API ———

  const paymentResource = (payment: FakeMolliePayment): Record<string, unknown> => {
    const self = `${fake.url}/payments/${payment.id}`;
    const hal = (href: string) => ({ href, type: 'application/hal+json' });
    const html = (href: string) => ({ href, type: 'text/html' });
    const optional = (present: boolean, fields: Record<string, unknown>) => (present ? fields : {});
    return {
      resource: 'payment',
      id: payment.id,
      mode: payment.mode,
      createdAt: payment.createdAt,
      amount: { ...payment.amount },
      description: payment.description,
      method: payment.method,
      metadata: payment.metadata,
      status: payment.status,
      // Omitted once the payment is final; iDEAL payments cannot be canceled through the API.
      ...optional(UNFINISHED.has(payment.status), { isCancelable: false }),
      ...optional(payment.expiresAt !== null, { expiresAt: payment.expiresAt }),
      ...optional(payment.paidAt !== null, { paidAt: payment.paidAt }),
      ...optional(payment.canceledAt !== null, { canceledAt: payment.canceledAt }),
      ...optional(payment.expiredAt !== null, { expiredAt: payment.expiredAt }),
      ...optional(payment.failedAt !== null, { failedAt: payment.failedAt }),
      // "Only available when refunds are available for this payment": a refunded or charged-back payment stays paid.
      ...optional(payment.status === 'paid', { amountRefunded: { ...payment.amountRefunded }, amountRemaining: { ...payment.amountRemaining } }),
      ...optional(payment.amountChargedBack !== null, { amountChargedBack: { ...payment.amountChargedBack } }),
      profileId: PROFILE_ID,
      sequenceType: 'oneoff',
      redirectUrl: payment.redirectUrl,
      ...optional(payment.webhookUrl !== null, { webhookUrl: payment.webhookUrl }),
      _links: {
        self: hal(self),
        ...optional(payment.status === 'open', { checkout: html(fake.checkoutUrl(payment.id)) }),
        dashboard: html(`${fake.origin}/dashboard/payments/${payment.id}`),
        ...optional(payment.refunds.length > 0, { refunds: hal(`${self}/refunds`) }),
        ...optional(payment.chargebacks.length > 0, { chargebacks: hal(`${self}/chargebacks`) }),
        documentation: html(DOCS.getPayment),
      },
    };
  };

  const refundResource = (refund: FakeMollieRefund): Record<string, unknown> => {
    const payment = `${fake.url}/payments/${refund.paymentId}`;
    return {
      resource: 'refund',
      id: refund.id,
      amount: { ...refund.amount },
      status: refund.status,
      createdAt: refund.createdAt,
      description: refund.description,
      metadata: refund.metadata,
      paymentId: refund.paymentId,
      _links: {
        self: { href: `${payment}/refunds/${refund.id}`, type: 'application/hal+json' },
        payment: { href: payment, type: 'application/hal+json' },
        documentation: { href: DOCS.refund, type: 'text/html' },
      },
    };
  };

  /** The payment a key may see: a test key sees test payments only, a live key live ones. */
  const visiblePayment = (id: string, mode: 'test' | 'live'): FakeMolliePayment | undefined => {
    const payment = fake.payments.get(id);
    return payment && payment.mode === mode ? payment : undefined;
  };
  const noPayment = (id: string) => problem(404, `No payment with id ${id} exists.`);

  const createPayment = (body: unknown, mode: 'test' | 'live', idempotencyKey: string | undefined): Answer => {
    const checked = checkPaymentInput(body);
    if (!checked.ok) return problem(422, checked.detail, checked.field);
    return { status: 201, body: paymentResource(newPayment(checked.value, mode, idempotencyKey ?? null)) };
  };

  const createRefund = (id: string, body: unknown, mode: 'test' | 'live', idempotencyKey: string | undefined): Answer => {
    const payment = visiblePayment(id, mode);
    if (!payment) return noPayment(id);
    const input = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const amount = checkAmount(input.amount, payment.amount.currency);
    if (!amount.ok) return problem(422, amount.detail, amount.field);
    if (input.description !== undefined && typeof input.description !== 'string') {
      return problem(422, 'The description must be a string.', 'description');
    }
    if (payment.status !== 'paid') return problem(422, `Payment ${id} is ${payment.status} and cannot be refunded.`);
    if (amount.value > toCents(payment.amountRemaining.value)) {
      return problem(422, `The amount is more than the ${payment.amountRemaining.value} that can still be refunded.`, 'amount');
    }
    // Mollie refuses a refund of the same amount on the same payment within an hour (docs.mollie.com "Refunds").
    const hourAgo = now().getTime() - HOUR;
    if (payment.refunds.some((refund) => toCents(refund.amount.value) === amount.value && Date.parse(refund.createdAt) > hourAgo)) {
      return problem(409, 'A refund of this amount was made on this payment less than an hour ago.');
    }
    const refund: FakeMollieRefund = {
      id: randomId('re_', 10),
      paymentId: id,
      amount: money(payment.amount.currency, amount.value),
      description: typeof input.description === 'string' ? input.description : '',
      metadata: input.metadata ?? null,
      status: 'pending',
      createdAt: stamp(now()),
      via: 'api',
      idempotencyKey: idempotencyKey ?? null,
    };
    payment.refunds.push(refund);
    recount(payment);
    return { status: 201, body: refundResource(refund) };
  };

  /**
   * docs.mollie.com "API idempotency": the same key within 24 hours answers the first answer again with
   * `Idempotent-Replayed: true`; the same key on another endpoint or with other parameters is a 400. Only successful
   * answers are kept, so a request refused for its input (or by an outage) can be sent again with the same key.
   */
  const idempotent = (apiKey: string, key: string | undefined, endpoint: string, body: unknown, run: () => Answer): Answer => {
    if (key === undefined) return run();
    const slot = `${apiKey}\n${key}`;
    const fingerprint = canonical(body);
    const at = now().getTime();
    const kept = idempotency.get(slot);
    if (kept && at - kept.at < IDEMPOTENCY_WINDOW) {
      if (kept.endpoint !== endpoint || kept.fingerprint !== fingerprint) {
        return problem(400, `The idempotency key ${key} was already used for another request.`);
      }
      return { ...kept.answer, headers: { 'Idempotent-Replayed': 'true' } };
    }
    const answer = run();
    if (answer.status >= 200 && answer.status < 300) idempotency.set(slot, { endpoint, fingerprint, at, answer });
    return answer;
  };

  const authenticate = (authorization: string | undefined): { key: string; mode: 'test' | 'live' } | undefined => {
    const key = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    if (!key) return undefined;
    if (fake.apiKeys.size > 0 ? !fake.apiKeys.has(key) : !KEY_FORM.test(key)) return undefined;
    return { key, mode: key.startsWith('live_') ? 'live' : 'test' };
  };

  const sendApi = (response: ServerResponse, answer: Answer) => {
    response.writeHead(answer.status, { 'content-type': 'application/hal+json; charset=utf-8', ...answer.headers });
    response.end(JSON.stringify(answer.body));
  };

  const handleApi = async (request: IncomingMessage, response: ServerResponse, path: string) => {
    const method = request.method ?? 'GET';
    const text = await readBody(request);
    const contentType = header(request, 'content-type') ?? '';
    let body: unknown = null;
    let unreadable: Answer | undefined;
    if (text !== '') {
      if (contentType.includes('json')) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
          unreadable = problem(400, 'The request body is not valid JSON.');
        }
      } else if (contentType.includes('application/x-www-form-urlencoded')) {
        body = parseForm(text);
      } else {
        body = text;
        unreadable = problem(415, 'Send the request body as JSON.');
      }
    }
    const idempotencyKey = header(request, 'idempotency-key');
    const authorization = header(request, 'authorization');
    fake.requests.push({ method, path, authorization, idempotencyKey, body });

    if (fake.mode === 'hang') {
      hanging.add(response);
      response.on('close', () => hanging.delete(response));
      return;
    }
    if (fake.mode === 'fail') return sendApi(response, problem(503, 'The service is temporarily unavailable.'));
    const caller = authenticate(authorization);
    if (!caller) return sendApi(response, problem(401, 'The API key is missing or not valid.'));
    if (unreadable) return sendApi(response, unreadable);

    const segments = path.split('/').filter(Boolean); // ['v2', 'payments', id, 'refunds', refundId]
    const [, collection, id, sub, subId] = segments;
    if (collection === 'payments') {
      // Sending an idempotency key with a GET is harmless: Mollie ignores it there.
      if (method === 'POST' && segments.length === 2) {
        return sendApi(
          response,
          idempotent(caller.key, idempotencyKey, 'POST /v2/payments', body, () => createPayment(body, caller.mode, idempotencyKey)),
        );
      }
      if (method === 'GET' && segments.length === 3 && id) {
        const payment = visiblePayment(id, caller.mode);
        return sendApi(response, payment ? { status: 200, body: paymentResource(payment) } : noPayment(id));
      }
      if (method === 'POST' && segments.length === 4 && id && sub === 'refunds') {
        return sendApi(
          response,
          idempotent(caller.key, idempotencyKey, `POST /v2/payments/${id}/refunds`, body, () => createRefund(id, body, caller.mode, idempotencyKey)),
        );
      }
      if (method === 'GET' && segments.length === 5 && id && sub === 'refunds' && subId) {
        const refund = visiblePayment(id, caller.mode)?.refunds.find((r) => r.id === subId);
        return sendApi(response, refund ? { status: 200, body: refundResource(refund) } : problem(404, `No refund with id ${subId} exists.`));
      }
    }
    return sendApi(response, problem(404, `There is no ${method} ${path}.`));
  };

  // ——— The checkout page ———

  const sendHtml = (response: ServerResponse, status: number, title: string, main: string) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem">` +
        `<main>${main}</main></body></html>`,
    );
  };
  const redirect = (response: ServerResponse, location: string) => {
    response.writeHead(303, { location });
    response.end();
  };

  const handleCheckout = async (request: IncomingMessage, response: ServerResponse, id: string) => {
    const payment = fake.payments.get(id);
    if (!payment) return sendHtml(response, 404, 'Payment not found', `<h1>Payment not found</h1><p>No payment with id ${escapeHtml(id)} exists.</p>`);
    // Once the payment is no longer open there is nothing to choose: back to the shop, as Mollie does.
    if (payment.status !== 'open') return redirect(response, payment.redirectUrl);
    if (request.method === 'POST') {
      const choice = new URLSearchParams(await readBody(request)).get('status');
      if (!CHECKOUT_CHOICES.includes(choice as (typeof CHECKOUT_CHOICES)[number])) {
        return sendHtml(response, 400, 'Choose a status', '<h1>Choose a status</h1><p>Go back and pick one of the statuses.</p>');
      }
      // The webhook is posted (and answered) before the browser is sent back, so the shop already knows when it arrives.
      if (choice === 'paid') await fake.pay(id);
      else if (choice !== 'open') await fake.setStatus(id, choice as FakeMollieSettableStatus);
      return redirect(response, payment.redirectUrl);
    }
    const amount = new Intl.NumberFormat('nl-NL', { style: 'currency', currency: payment.amount.currency }).format(toCents(payment.amount.value) / 100);
    const choices = CHECKOUT_CHOICES.map((status) => `<p><label><input type="radio" name="status" value="${status}" required> ${status}</label></p>`).join('');
    sendHtml(
      response,
      200,
      'Test mode checkout',
      `<h1>Test mode checkout</h1><p>${escapeHtml(payment.description)}</p><p><strong>${escapeHtml(amount)}</strong></p>` +
        `<form method="post" action="/checkout/${encodeURIComponent(id)}"><fieldset><legend>Payment status</legend>${choices}</fieldset>` +
        `<p><button type="submit">Continue</button></p></form>`,
    );
  };

  // ——— The side door ———

  const handleControl = async (method: string, path: string, text: string): Promise<Answer> => {
    const body = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
    const ok = (value: unknown): Answer => ({ status: 200, body: value });
    const route = `${method} ${path}`;
    if (route === 'POST /reset') {
      fake.reset();
      return ok({ ok: true });
    }
    if (route === 'POST /mode') {
      if (body.mode !== 'ok' && body.mode !== 'fail' && body.mode !== 'hang') throw new FakeMollieRefusal(400, 'mode is ok, fail or hang.');
      fake.mode = body.mode;
      return ok({ mode: fake.mode });
    }
    if (route === 'POST /deliver-webhooks') {
      if (typeof body.on !== 'boolean') throw new FakeMollieRefusal(400, 'on is true or false.');
      fake.deliverWebhooks = body.on;
      return ok({ on: fake.deliverWebhooks });
    }
    if (route === 'POST /keys') {
      if (!Array.isArray(body.keys) || !body.keys.every((key) => typeof key === 'string')) throw new FakeMollieRefusal(400, 'keys is a list of strings.');
      fake.apiKeys.clear();
      for (const key of body.keys) fake.apiKeys.add(key);
      return ok({ keys: [...fake.apiKeys] });
    }
    if (route === 'GET /payments') return ok([...fake.payments.values()]);
    if (route === 'GET /requests') return ok(fake.requests);
    if (route === 'GET /webhook-deliveries') return ok(fake.webhookDeliveries);
    if (route === 'POST /payments') {
      const { status, ...payment } = body;
      if (status !== undefined && !STATUSES.has(status as string)) {
        throw new FakeMollieRefusal(400, `The status ${JSON.stringify(status)} does not exist.`);
      }
      return ok(fake.createDirect(payment as unknown as FakeMollieDirectPayment, status as FakeMolliePaymentStatus | undefined));
    }
    const one = /^\/payments\/([^/]+)(?:\/([a-z]+))?$/.exec(path);
    if (one) {
      const id = decodeURIComponent(one[1]!);
      const action = one[2];
      if (method === 'GET' && action === undefined) return ok(find(id));
      if (method === 'POST' && action === 'pay') return ok(await fake.pay(id));
      if (method === 'POST' && action === 'status') return ok(await fake.setStatus(id, body.status as FakeMollieSettableStatus));
      if (method === 'POST' && action === 'refund') return ok(await fake.refundInDashboard(id, body.value as string));
      if (method === 'POST' && action === 'chargeback') return ok(await fake.chargeback(id, body.value as string));
      if (method === 'POST' && action === 'webhook') return ok(await fake.deliverWebhook(id));
    }
    throw new FakeMollieRefusal(404, `The side door has no ${route}.`);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const { pathname } = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = request.method ?? 'GET';
    try {
      if (pathname === '/v2' || pathname.startsWith('/v2/')) return await handleApi(request, response, pathname);
      const checkout = /^\/checkout\/([^/]+)$/.exec(pathname);
      if (checkout && (method === 'GET' || method === 'POST')) return await handleCheckout(request, response, decodeURIComponent(checkout[1]!));
      if (pathname.startsWith('/_control/')) {
        let answer: Answer;
        try {
          answer = await handleControl(method, pathname.slice('/_control'.length), await readBody(request));
        } catch (error) {
          if (!(error instanceof FakeMollieRefusal) && !(error instanceof SyntaxError)) throw error;
          answer = { status: error instanceof FakeMollieRefusal ? error.status : 400, body: { error: error.message } };
        }
        response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify(answer.body));
        return;
      }
      sendApi(response, problem(404, `There is nothing at ${pathname}.`));
    } catch (error) {
      if (!response.headersSent) sendApi(response, problem(500, error instanceof Error ? error.message : String(error)));
      else response.destroy();
    }
  };

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // The vitest process must be able to end while this listens.
  server.unref();
  const { port } = server.address() as AddressInfo;
  fake.origin = `http://127.0.0.1:${port}`;
  fake.url = `${fake.origin}/v2`;
  fake.controlUrl = `${fake.origin}/_control`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      fake.reset();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
