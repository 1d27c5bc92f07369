import * as z from 'zod';

/**
 * A thin client of Mollie's Payments API v2 (create payment, get payment, create refund) over `fetch`, so it
 * runs alike in workerd and on Node (docs/decisions/066: @mollie/api-client needs Node's http and crypto
 * modules). Every call gives up after `timeoutMs`; what went wrong comes back as a value, never thrown.
 */

/** Money as Mollie takes it: a currency and a string with two decimals ("90.75"). */
export interface MollieAmount {
  currency: string;
  value: string;
}

export function mollieAmount(cents: number): MollieAmount {
  const whole = Math.trunc(cents / 100);
  return { currency: 'EUR', value: `${whole}.${String(cents % 100).padStart(2, '0')}` };
}

/** Mollie's "90.75" as 9075 cents (any number of decimals rounded to cents). */
export function centsOf(amount: MollieAmount | null | undefined): number {
  if (!amount) return 0;
  return Math.round(Number(amount.value) * 100);
}

const amountSchema = z.object({ currency: z.string(), value: z.string() });

const paymentSchema = z.object({
  id: z.string(),
  status: z.string(),
  amount: amountSchema,
  amountRefunded: amountSchema.nullish(),
  amountChargedBack: amountSchema.nullish(),
  paidAt: z.string().nullish(),
  expiresAt: z.string().nullish(),
  metadata: z.unknown().optional(),
  _links: z
    .object({ checkout: z.object({ href: z.string() }).nullish() })
    .partial()
    .optional(),
});

export type MolliePayment = z.infer<typeof paymentSchema>;

const refundSchema = z.object({ id: z.string(), status: z.string(), amount: amountSchema });

export type MollieRefund = z.infer<typeof refundSchema>;

export interface NewMolliePayment {
  amount: MollieAmount;
  description: string;
  redirectUrl: string;
  webhookUrl: string;
  metadata: Record<string, unknown>;
}

/**
 * Why a call came back without what was asked: no answer in time, a network error or a 5xx (`unreachable`),
 * a 401 for the key (`key_refused`), an unknown id (`not_found`), or a refusal of the request itself
 * (`rejected`, Mollie's 4xx with its detail, e.g. a refund above what is left).
 */
export type MollieFailure =
  | { kind: 'unreachable'; detail: string }
  | { kind: 'key_refused' }
  | { kind: 'not_found' }
  | { kind: 'rejected'; status: number; detail: string };

export type MollieResult<T> = { ok: true; value: T } | { ok: false; failure: MollieFailure };

export interface MollieClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
}

export const MOLLIE_TIMEOUT_MS = 10_000;

const problemSchema = z.object({ detail: z.string().optional(), title: z.string().optional() });

async function call<T>(
  options: MollieClientOptions,
  method: 'GET' | 'POST',
  path: string,
  schema: z.ZodType<T>,
  body?: unknown,
  idempotencyKey?: string,
): Promise<MollieResult<T>> {
  const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}`, Accept: 'application/hal+json, application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  let response: Response;
  try {
    response = await fetch(`${options.baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? MOLLIE_TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return { ok: false, failure: { kind: 'unreachable', detail: timedOut ? 'no answer in time' : String(error) } };
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    json = null;
  }
  if (response.status === 401) return { ok: false, failure: { kind: 'key_refused' } };
  if (response.status === 404) return { ok: false, failure: { kind: 'not_found' } };
  if (response.status >= 500 || response.status === 429) return { ok: false, failure: { kind: 'unreachable', detail: `HTTP ${response.status}` } };
  if (!response.ok) {
    const problem = problemSchema.safeParse(json);
    const detail = (problem.success && (problem.data.detail ?? problem.data.title)) || `HTTP ${response.status}`;
    return { ok: false, failure: { kind: 'rejected', status: response.status, detail } };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { ok: false, failure: { kind: 'unreachable', detail: 'an answer of an unexpected shape' } };
  return { ok: true, value: parsed.data };
}

export function createMolliePayment(options: MollieClientOptions, payment: NewMolliePayment, idempotencyKey: string) {
  return call(options, 'POST', '/payments', paymentSchema, payment, idempotencyKey);
}

export function getMolliePayment(options: MollieClientOptions, id: string) {
  return call(options, 'GET', `/payments/${encodeURIComponent(id)}`, paymentSchema);
}

export function createMollieRefund(
  options: MollieClientOptions,
  paymentId: string,
  refund: { amount: MollieAmount; description: string },
  idempotencyKey: string,
) {
  return call(options, 'POST', `/payments/${encodeURIComponent(paymentId)}/refunds`, refundSchema, refund, idempotencyKey);
}
