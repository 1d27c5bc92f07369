/**
 * The shapes of the Mollie stand-in (test/support/fake-mollie.ts) and a client of its side door, for tests that run
 * inside workerd and cannot reach the stand-in's memory. Nothing here imports from `node:`, so a workerd test may import
 * this file; the stand-in itself re-exports the types.
 */

/** Mollie's amount object: an ISO 4217 currency and a string with exactly two decimals, e.g. "90.75". */
export interface MollieAmount {
  currency: string;
  value: string;
}

export type FakeMolliePaymentStatus = 'open' | 'pending' | 'authorized' | 'paid' | 'canceled' | 'expired' | 'failed';

export interface FakeMollieRefund {
  /** `re_` and ten letters or digits. */
  id: string;
  paymentId: string;
  amount: MollieAmount;
  description: string;
  metadata: unknown;
  /** A refund made through the API stays `pending` (Mollie sends it to the bank later); one made in the dashboard is `refunded`. */
  status: 'pending' | 'refunded';
  createdAt: string;
  /** Who asked for it: our server through the API, or the club in Mollie's dashboard. */
  via: 'api' | 'dashboard';
  idempotencyKey: string | null;
}

export interface FakeMollieChargeback {
  /** `chb_` and six letters or digits. */
  id: string;
  paymentId: string;
  amount: MollieAmount;
  createdAt: string;
}

/** A payment as the stand-in keeps it. The API answers a Mollie payment resource built from it (fields absent where Mollie omits them). */
export interface FakeMolliePayment {
  /** `tr_` and ten letters or digits. */
  id: string;
  /** From the API key's prefix (`test_` or `live_`); `test` for payments made with createDirect. */
  mode: 'test' | 'live';
  status: FakeMolliePaymentStatus;
  amount: MollieAmount;
  description: string;
  redirectUrl: string;
  webhookUrl: string | null;
  metadata: unknown;
  /** `ideal` once paid through the checkout, null before. */
  method: string | null;
  createdAt: string;
  /** createdAt + 15 minutes (iDEAL's expiry time) while the payment can still expire, null after. */
  expiresAt: string | null;
  paidAt: string | null;
  canceledAt: string | null;
  expiredAt: string | null;
  failedAt: string | null;
  /** The sum of all refunds, API and dashboard alike. */
  amountRefunded: MollieAmount;
  /** What can still be refunded: amount − refunded − charged back. */
  amountRemaining: MollieAmount;
  /** Present once the payment was charged back, null before. */
  amountChargedBack: MollieAmount | null;
  refunds: FakeMollieRefund[];
  chargebacks: FakeMollieChargeback[];
  /** The Idempotency-Key header of the request that created it. */
  idempotencyKey: string | null;
}

export interface RecordedMollieRequest {
  method: string;
  /** The path without the query string, e.g. `/v2/payments/tr_WDqYK6vllg/refunds`. */
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** The parsed JSON (or form) body, null for a request without one. */
  body: unknown;
}

export interface FakeMollieWebhookDelivery {
  paymentId: string;
  url: string;
  /** The receiver's HTTP status, or why no answer came (e.g. `ECONNREFUSED`, `TimeoutError`). */
  status: number | string;
}

/** ok: answer; fail: every API call answers 503; hang: API calls never answer. */
export type FakeMollieMode = 'ok' | 'fail' | 'hang';

/** A payment made outside our server, as createDirect takes it. */
export interface FakeMollieDirectPayment {
  amount: MollieAmount;
  description: string;
  redirectUrl: string;
  webhookUrl?: string;
  metadata?: unknown;
}

/** The statuses a customer or the dashboard can move an unfinished payment to (paid has its own call). */
export type FakeMollieSettableStatus = 'failed' | 'canceled' | 'expired' | 'pending' | 'open';

/**
 * The side door of a running stand-in, over fetch: `fakeMollieControl(env.MOLLIE_CONTROL_URL).pay(id)`.
 * Each method throws when the side door refuses (unknown payment, a change the payment's state does not allow).
 */
export function fakeMollieControl(controlUrl: string) {
  const base = controlUrl.replace(/\/$/, '');

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as T & { error?: string };
    if (!response.ok) throw new Error(`fake Mollie side door ${method} ${path}: ${response.status} ${answer.error ?? ''}`.trim());
    return answer;
  }
  const payment = (id: string) => `/payments/${encodeURIComponent(id)}`;

  return {
    reset: () => call<{ ok: true }>('POST', '/reset'),
    setMode: (mode: FakeMollieMode) => call<{ mode: FakeMollieMode }>('POST', '/mode', { mode }),
    setDeliverWebhooks: (on: boolean) => call<{ on: boolean }>('POST', '/deliver-webhooks', { on }),
    setKeys: (keys: string[]) => call<{ keys: string[] }>('POST', '/keys', { keys }),
    payments: () => call<FakeMolliePayment[]>('GET', '/payments'),
    payment: (id: string) => call<FakeMolliePayment>('GET', payment(id)),
    requests: () => call<RecordedMollieRequest[]>('GET', '/requests'),
    webhookDeliveries: () => call<FakeMollieWebhookDelivery[]>('GET', '/webhook-deliveries'),
    pay: (id: string) => call<FakeMolliePayment>('POST', `${payment(id)}/pay`),
    setStatus: (id: string, status: FakeMollieSettableStatus) => call<FakeMolliePayment>('POST', `${payment(id)}/status`, { status }),
    refundInDashboard: (id: string, value: string) => call<FakeMollieRefund>('POST', `${payment(id)}/refund`, { value }),
    chargeback: (id: string, value: string) => call<FakeMolliePayment>('POST', `${payment(id)}/chargeback`, { value }),
    /** Posts the payment's webhook again, as Mollie's retries do, whatever deliverWebhooks says. */
    deliverWebhook: (id: string) => call<FakeMollieWebhookDelivery>('POST', `${payment(id)}/webhook`),
    createDirect: (body: FakeMollieDirectPayment, status?: FakeMolliePaymentStatus) =>
      call<FakeMolliePayment>('POST', '/payments', { ...body, ...(status ? { status } : {}) }),
  };
}

export type FakeMollieControl = ReturnType<typeof fakeMollieControl>;
