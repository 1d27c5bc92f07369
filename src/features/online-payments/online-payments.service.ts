import { encodeHexLowerCase } from '@oslojs/encoding';
import type { BatchItem } from 'drizzle-orm/batch';
import { and, desc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { AppError } from '../../core/errors';
import { euros } from '../../core/money';
import { formatEuro } from '../../core/nl-format';
import { onlinePayments, orders, providerKeyRefusals } from '../../db/schema';
import { keyedDigest } from '../../platform/crypto';
import {
  centsOf,
  createMolliePayment,
  createMollieRefund,
  getMolliePayment,
  type MollieClientOptions,
  type MollieFailure,
  type MolliePayment,
  mollieAmount,
} from '../../platform/mollie';
import { enforceRateLimit, type RateLimitRule } from '../../platform/rate-limit';
import { auditIfChanged, writeAudit } from '../audit/audit';
import { requireAdmin, requireManagement } from '../auth/permissions';
import { orderTotalCents, todaysPricing } from '../invoices/order-pricing';
import { ORDER_PAGE_PATH, orderIdOfToken } from '../orders/order-links';
import { ORDER_NOT_FOUND } from '../orders/orders.service';
import { balanceCents } from '../payments/order-balance';
import { offersOnlinePayment, onlinePaymentSettings } from '../settings/online-payment-settings';
import type { OnlinePaymentListInput, OrderStatusView } from './online-payments.schemas';

/**
 * docs/decisions/066: the customer's order page and online payment through Mollie's hosted checkout. Mollie is
 * never believed on the word of a request: a webhook names only a payment id, and the server fetches that
 * payment with the club's key and brings the order in line with what it reads (reconcilePayment).
 */

type OrderRow = typeof orders.$inferSelect;

export const ORDER_PAGE_NOT_FOUND = 'Deze bestelling is niet gevonden. Controleer de link in je e-mail.';
export const ONLINE_PAYMENTS_OFF = 'Online betalen is voor deze bestelling niet mogelijk. Betaal met een overschrijving zoals op je factuur staat.';
export const ORDER_ALREADY_PAID = 'Deze bestelling is al betaald.';
export const ORDER_CANCELLED = 'Deze bestelling is geannuleerd en hoeft niet betaald te worden.';
export const PROVIDER_FAILED = 'Online betalen lukt op dit moment niet. Probeer het later opnieuw, of betaal met een overschrijving zoals op je factuur staat.';
export const PROVIDER_UNAVAILABLE = 'Mollie is nu niet bereikbaar; de betaling wordt later verwerkt.';
export const NO_ONLINE_PAYMENT = 'Deze bestelling heeft geen online betaling die kan worden terugbetaald.';
export const NOTHING_TO_REFUND = 'De online betaling van deze bestelling is al helemaal terugbetaald.';
const refundTooLarge = (leftCents: number) => `Je kunt op deze bestelling nog ten hoogste ${formatEuro(leftCents)} terugbetalen.`;
const refundRefused = (detail: string) => `Mollie heeft de terugbetaling geweigerd: ${detail}`;

/** A customer clicking "Betalen met iDEAL": each click may create a payment at Mollie, so it is counted. */
const PAY_LIMIT_PER_ADDRESS: RateLimitRule = { limit: 30, windowMs: 60 * 60 * 1000 };
/** Each webhook call makes one call to Mollie; Mollie itself sends a handful per payment. */
const WEBHOOK_LIMIT_PER_ADDRESS: RateLimitRule = { limit: 600, windowMs: 60 * 1000 };

/** Mollie's statuses of a payment that may still turn paid (the order page asks Mollie about these). */
const UNSETTLED = ['open', 'pending', 'authorized'];

/** Mollie's payment ids: tr_ and letters and digits. */
export const PAYMENT_ID = /^tr_[A-Za-z0-9]{2,64}$/;

function clientOptions(ctx: RequestCtx, apiKey: string): MollieClientOptions {
  return { baseUrl: ctx.config.mollieApiUrl, apiKey };
}

/** What the order bills incl. VAT in cents: the issued invoice's total, or today's price. */
async function totalCentsOf(ctx: RequestCtx, order: OrderRow): Promise<number> {
  return orderTotalCents(order, todaysPricing(ctx));
}

async function orderOfToken(ctx: RequestCtx, token: string): Promise<OrderRow> {
  const id = await orderIdOfToken(ctx.db, token);
  const order = id === null ? undefined : await orderById(ctx, id);
  if (!order) throw new AppError('ORDER_PAGE_NOT_FOUND', ORDER_PAGE_NOT_FOUND);
  return order;
}

async function orderById(ctx: RequestCtx, id: number): Promise<OrderRow | undefined> {
  return (await ctx.db.select().from(orders).where(eq(orders.id, id)).limit(1))[0];
}

/** The statement that sums the order's refunded total again from its payments: the same state gives the same sum. */
function recomputeRefunded(ctx: RequestCtx, orderId: number) {
  return ctx.db
    .update(orders)
    .set({
      refundedCents: sql`${ctx.db
        .select({ sum: sql`coalesce(sum(${onlinePayments.refundedCents}), 0)` })
        .from(onlinePayments)
        .where(eq(onlinePayments.orderId, orderId))}`,
    })
    .where(eq(orders.id, orderId));
}

// --- The provider's refusal of the key, for the settings screen ---------------------------------------

async function keyDigest(ctx: RequestCtx, apiKey: string): Promise<string> {
  return encodeHexLowerCase(await keyedDigest(ctx.secretKey, 'mollie-key', apiKey));
}

/** Remembers that Mollie refused this key (only a digest of it), or forgets a refusal once a call with it worked. */
async function noteKeyOutcome(ctx: RequestCtx, apiKey: string, failure: MollieFailure | null): Promise<void> {
  if (failure?.kind === 'key_refused') {
    const digest = await keyDigest(ctx, apiKey);
    const refusedAt = ctx.clock.now().toISOString();
    await ctx.db
      .insert(providerKeyRefusals)
      .values({ provider: 'mollie', keyDigest: digest, refusedAt })
      .onConflictDoUpdate({ target: [providerKeyRefusals.clubId, providerKeyRefusals.provider], set: { keyDigest: digest, refusedAt } });
  } else if (failure === null) {
    await ctx.db.delete(providerKeyRefusals).where(eq(providerKeyRefusals.provider, 'mollie'));
  }
}

/** For the settings screen: when Mollie last refused the key that is stored now, or null. */
export async function mollieKeyStatus(ctx: RequestCtx): Promise<{ key_set: boolean; refused_at: string | null }> {
  requireAdmin(ctx);
  const { apiKey } = await onlinePaymentSettings(ctx);
  if (apiKey === null) return { key_set: false, refused_at: null };
  const [row] = await ctx.db.select().from(providerKeyRefusals).where(eq(providerKeyRefusals.provider, 'mollie')).limit(1);
  return { key_set: true, refused_at: row && row.keyDigest === (await keyDigest(ctx, apiKey)) ? row.refusedAt : null };
}

// --- Reconciling: Mollie's state of one payment, applied once --------------------------------------------

/** The order a payment of Mollie's belongs to: its row's, else the one its metadata names (and only if it is this club's). */
async function orderOfPayment(ctx: RequestCtx, payment: MolliePayment): Promise<{ orderId: number; reference: string } | null> {
  const [row] = await ctx.db
    .select({ orderId: onlinePayments.orderId, reference: onlinePayments.reference })
    .from(onlinePayments)
    .where(eq(onlinePayments.providerId, payment.id))
    .limit(1);
  if (row) return row.orderId === null ? null : { orderId: row.orderId, reference: row.reference };
  const metadata = (payment.metadata ?? {}) as { order_id?: unknown; reference?: unknown };
  if (typeof metadata.order_id !== 'number' || typeof metadata.reference !== 'string') return null;
  const [order] = await ctx.db
    .select({ id: orders.id, reference: orders.reference })
    .from(orders)
    .where(and(eq(orders.id, metadata.order_id), eq(orders.reference, metadata.reference)))
    .limit(1);
  return order ? { orderId: order.id, reference: order.reference } : null;
}

const isoOrNull = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);

/**
 * Brings the order in line with Mollie's state of one of its payments (DESIGN §6): paid → the order paid
 * (or, already paid or credited, the payment flagged as a double payment); Mollie's refunded and charged-back
 * totals copied over (a chargeback makes the order unpaid again). Every change is guarded by the state it
 * changes from, in one batch, so a replay, a reordered or a concurrent delivery changes nothing twice, and an
 * audit entry is written only with the change it records. A payment of no order of this club is ignored.
 */
export async function reconcilePayment(ctx: RequestCtx, payment: MolliePayment): Promise<void> {
  const owner = await orderOfPayment(ctx, payment);
  if (!owner) return;
  const { orderId, reference } = owner;
  const now = ctx.clock.now().toISOString();
  const byId = eq(onlinePayments.providerId, payment.id);
  const target = `order:${orderId} (${reference})`;
  const paidAt = isoOrNull(payment.paidAt);
  const refunded = centsOf(payment.amountRefunded);
  const chargedBack = centsOf(payment.amountChargedBack);
  const payable = sql`EXISTS ${ctx.db
    .select({ one: sql`1` })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.paid, false), eq(orders.cancelled, false)))}`;

  const statements: BatchItem<'sqlite'>[] = [
    ctx.db
      .insert(onlinePayments)
      .values({
        providerId: payment.id,
        orderId,
        reference,
        status: payment.status,
        amountCents: centsOf(payment.amount),
        checkoutUrl: payment._links?.checkout?.href ?? null,
        expiresAt: isoOrNull(payment.expiresAt),
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [onlinePayments.clubId, onlinePayments.providerId],
        set: { status: payment.status, expiresAt: isoOrNull(payment.expiresAt), updatedAt: now },
      }),
  ];
  if (paidAt !== null) {
    const firstSeenPaid = and(byId, sql`${onlinePayments.paidAt} IS NULL`);
    statements.push(
      // Money for an order that was paid meanwhile (by transfer, by hand) or credited: to be refunded.
      ctx.db
        .update(onlinePayments)
        .set({ paidAt, doublePayment: true })
        .where(and(firstSeenPaid, sql`NOT ${payable}`)),
      auditIfChanged(ctx, { action: 'payment.double', target, details: { payment: payment.id, amount: euros(centsOf(payment.amount)) } }),
      ctx.db.update(onlinePayments).set({ paidAt, applied: true }).where(and(firstSeenPaid, payable)),
      // Only when the statement above just claimed the payment (changes() of the statement before, as auditIfChanged).
      ctx.db
        .update(orders)
        .set({ paid: true, paidAt, paymentMethod: 'online', updatedAt: now })
        .where(and(eq(orders.id, orderId), eq(orders.paid, false), eq(orders.cancelled, false), sql`changes() > 0`)),
      auditIfChanged(ctx, { action: 'payment.received', target, details: { payment: payment.id, amount: euros(centsOf(payment.amount)) } }),
    );
  }
  // Mollie's running totals are copied only when they grew: an older or repeated state leaves them alone.
  const grownTo = (total: 'refundedCents' | 'chargedBackCents', cents: number) =>
    ctx.db
      .update(onlinePayments)
      .set({ [total]: cents, updatedAt: now })
      .where(and(byId, sql`${onlinePayments[total]} < ${cents}`));
  if (refunded > 0) {
    statements.push(
      grownTo('refundedCents', refunded),
      auditIfChanged(ctx, { action: 'payment.refunded', target, details: { payment: payment.id, refunded: euros(refunded) } }),
    );
  }
  if (chargedBack > 0) {
    statements.push(
      grownTo('chargedBackCents', chargedBack),
      auditIfChanged(ctx, { action: 'payment.charged_back', target, details: { payment: payment.id, charged_back: euros(chargedBack) } }),
      // The audit insert above ran only when the chargeback grew, so changes() still tells; only the payment
      // that paid the order takes that back (a charged-back double payment leaves the order paid).
      ctx.db
        .update(orders)
        .set({ paid: false, paidAt: null, paymentMethod: null, updatedAt: now })
        .where(
          and(
            eq(orders.id, orderId),
            eq(orders.paid, true),
            eq(orders.paymentMethod, 'online'),
            sql`changes() > 0`,
            sql`EXISTS ${ctx.db
              .select({ one: sql`1` })
              .from(onlinePayments)
              .where(and(byId, eq(onlinePayments.applied, true)))}`,
          ),
        ),
    );
  }
  statements.push(recomputeRefunded(ctx, orderId));
  await ctx.db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
}

/** Fetches a payment and reconciles it; what went wrong at Mollie comes back as a value. */
async function fetchAndReconcile(ctx: RequestCtx, apiKey: string, paymentId: string): Promise<MollieFailure | null> {
  const fetched = await getMolliePayment(clientOptions(ctx, apiKey), paymentId);
  if (!fetched.ok) {
    await noteKeyOutcome(ctx, apiKey, fetched.failure);
    return fetched.failure;
  }
  await reconcilePayment(ctx, fetched.value);
  return null;
}

/**
 * POST /api/payments/mollie/webhook: Mollie names a payment; the server fetches it and reconciles. 200 for a
 * well-formed id whatever it names (an unknown one changes nothing); 503 while Mollie cannot be asked, so
 * Mollie delivers again later.
 */
export async function handleMollieWebhook(ctx: RequestCtx, paymentId: string): Promise<void> {
  await enforceRateLimit(ctx.db, ctx.clock, `mollie-webhook:ip:${ctx.rateLimitAddress}`, WEBHOOK_LIMIT_PER_ADDRESS);
  const { apiKey } = await onlinePaymentSettings(ctx);
  if (apiKey === null) throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', PROVIDER_UNAVAILABLE);
  const failure = await fetchAndReconcile(ctx, apiKey, paymentId);
  if (failure && failure.kind !== 'not_found' && failure.kind !== 'rejected') throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', PROVIDER_UNAVAILABLE);
}

// --- The order page ------------------------------------------------------------------------------------

/**
 * GET /api/order-status/<token>. While a payment of the order is still open at Mollie, Mollie is asked first
 * (so a lost webhook loses nothing when the customer comes back); if Mollie does not answer, the page shows
 * what the server knows.
 */
export async function orderStatus(ctx: RequestCtx, token: string): Promise<OrderStatusView> {
  let order = await orderOfToken(ctx, token);
  const settings = await onlinePaymentSettings(ctx);
  if (settings.apiKey !== null) {
    const open = await ctx.db
      .select({ providerId: onlinePayments.providerId })
      .from(onlinePayments)
      .where(and(eq(onlinePayments.orderId, order.id), inArray(onlinePayments.status, UNSETTLED)))
      .orderBy(desc(onlinePayments.id))
      .limit(3);
    for (const { providerId } of open) await fetchAndReconcile(ctx, settings.apiKey, providerId);
    if (open.length > 0) order = (await orderById(ctx, order.id)) ?? order;
  }
  return {
    reference: order.reference,
    name: order.name,
    amount: order.amount,
    amount_incl: euros(await totalCentsOf(ctx, order)),
    paid: order.paid,
    paid_at: order.paidAt,
    cancelled: order.cancelled,
    invoice_number: order.invoiceNumber,
    refunded_amount: euros(order.refundedCents),
    can_pay: offersOnlinePayment(settings) && !order.paid && !order.cancelled,
  };
}

/** The order a token opens, for its invoice PDF (the transport serves the stored file). */
export async function orderIdForPage(ctx: RequestCtx, token: string): Promise<number> {
  return (await orderOfToken(ctx, token)).id;
}

/**
 * POST /api/order-status/<token>/pay: the checkout of an open Mollie payment for what the order still owes
 * incl. VAT. An open, unexpired payment of that amount is reused; a new one is asked for with an
 * Idempotency-Key that two clicks at once share, so they make one payment. Nothing is stored unless Mollie
 * made the payment; when Mollie fails the answer is 502 and the order is as it was.
 */
export async function payOrder(ctx: RequestCtx, token: string): Promise<{ checkout_url: string }> {
  await enforceRateLimit(ctx.db, ctx.clock, `order-pay:ip:${ctx.rateLimitAddress}`, PAY_LIMIT_PER_ADDRESS);
  const order = await orderOfToken(ctx, token);
  const settings = await onlinePaymentSettings(ctx);
  if (!offersOnlinePayment(settings) || settings.apiKey === null) throw new AppError('ONLINE_PAYMENTS_OFF', ONLINE_PAYMENTS_OFF);
  if (order.paid) throw new AppError('ALREADY_PAID', ORDER_ALREADY_PAID);
  if (order.cancelled) throw new AppError('ORDER_CREDITED', ORDER_CANCELLED);
  const dueCents = balanceCents(order, await totalCentsOf(ctx, order)).openCents;
  const now = ctx.clock.now();
  const [reusable] = await ctx.db
    .select({ checkoutUrl: onlinePayments.checkoutUrl })
    .from(onlinePayments)
    .where(
      and(
        eq(onlinePayments.orderId, order.id),
        eq(onlinePayments.status, 'open'),
        eq(onlinePayments.amountCents, dueCents),
        isNotNull(onlinePayments.checkoutUrl),
        // A minute's margin: the customer needs time on the checkout page.
        gt(onlinePayments.expiresAt, new Date(now.getTime() + 60_000).toISOString()),
      ),
    )
    .orderBy(desc(onlinePayments.id))
    .limit(1);
  if (reusable?.checkoutUrl) return { checkout_url: reusable.checkoutUrl };

  const [{ attempts } = { attempts: 0 }] = await ctx.db
    .select({ attempts: sql<number>`count(*)` })
    .from(onlinePayments)
    .where(eq(onlinePayments.orderId, order.id));
  const created = await createMolliePayment(
    clientOptions(ctx, settings.apiKey),
    {
      amount: mollieAmount(dueCents),
      description: `Kerstpakket ${order.invoiceNumber ?? order.reference}`,
      redirectUrl: `${ctx.siteOrigin}${ORDER_PAGE_PATH}${token}`,
      webhookUrl: `${ctx.siteOrigin}${ctx.config.apiBasePath}/api/payments/mollie/webhook`,
      metadata: { order_id: order.id, reference: order.reference },
    },
    `kerstactie-order-${order.id}-${dueCents}-${attempts}`,
  );
  await noteKeyOutcome(ctx, settings.apiKey, created.ok ? null : created.failure);
  if (!created.ok) throw new AppError('PAYMENT_PROVIDER_FAILED', PROVIDER_FAILED);
  const checkoutUrl = created.value._links?.checkout?.href;
  if (!checkoutUrl) throw new AppError('PAYMENT_PROVIDER_FAILED', PROVIDER_FAILED);
  await reconcilePayment(ctx, created.value);
  return { checkout_url: checkoutUrl };
}

// --- The back-office ----------------------------------------------------------------------------------

export interface OnlinePaymentView {
  id: number;
  provider_id: string;
  order_id: number | null;
  reference: string;
  status: string;
  amount: number;
  refunded_amount: number;
  charged_back_amount: number;
  double_payment: boolean;
  created_at: string;
  paid_at: string | null;
}

/** GET /api/payments/online: every online payment, newest first, a page at a time. */
export async function listOnlinePayments(
  ctx: RequestCtx,
  input: OnlinePaymentListInput,
): Promise<{ payments: OnlinePaymentView[]; total: number; page: number; per_page: number }> {
  requireManagement(ctx);
  const page = input.page ?? 1;
  const perPage = input.per_page ?? 50;
  const rows = await ctx.db
    .select({
      id: onlinePayments.id,
      provider_id: onlinePayments.providerId,
      order_id: onlinePayments.orderId,
      reference: onlinePayments.reference,
      status: onlinePayments.status,
      amount_cents: onlinePayments.amountCents,
      refunded_cents: onlinePayments.refundedCents,
      charged_back_cents: onlinePayments.chargedBackCents,
      double_payment: onlinePayments.doublePayment,
      created_at: onlinePayments.createdAt,
      paid_at: onlinePayments.paidAt,
      total: sql<number>`count(*) OVER ()`,
    })
    .from(onlinePayments)
    .orderBy(desc(onlinePayments.createdAt), desc(onlinePayments.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  const total = rows[0]?.total ?? (page === 1 ? 0 : ((await ctx.db.select({ n: sql<number>`count(*)` }).from(onlinePayments))[0]?.n ?? 0));
  return {
    payments: rows.map(({ amount_cents, refunded_cents, charged_back_cents, total: _, ...row }) => ({
      ...row,
      amount: euros(amount_cents),
      refunded_amount: euros(refunded_cents),
      charged_back_amount: euros(charged_back_cents),
    })),
    total: Number(total),
    page,
    per_page: perPage,
  };
}

/**
 * POST /orders/refund?id=: refunds through Mollie what is asked (all that is left without an amount), from the
 * order's paid online payments, a double payment first. Mollie's answer is then read back and reconciled, so
 * the order shows what Mollie holds.
 */
export async function refundOrder(ctx: RequestCtx, orderId: number, amountEuros: number | undefined): Promise<{ success: true; refunded_amount: number }> {
  requireManagement(ctx);
  const order = await orderById(ctx, orderId);
  if (!order) throw new AppError('ORDER_NOT_FOUND', ORDER_NOT_FOUND);
  const payments = await ctx.db
    .select()
    .from(onlinePayments)
    .where(and(eq(onlinePayments.orderId, orderId), isNotNull(onlinePayments.paidAt)))
    .orderBy(desc(onlinePayments.doublePayment), desc(onlinePayments.id));
  if (payments.length === 0) throw new AppError('NO_ONLINE_PAYMENT', NO_ONLINE_PAYMENT);
  const leftOf = (p: (typeof payments)[number]) => Math.max(p.amountCents - p.refundedCents - p.chargedBackCents, 0);
  const leftCents = payments.reduce((sum, p) => sum + leftOf(p), 0);
  if (leftCents === 0) throw new AppError('NOTHING_TO_REFUND', NOTHING_TO_REFUND);
  const askedCents = amountEuros === undefined ? leftCents : Math.round(amountEuros * 100);
  if (askedCents > leftCents) throw new AppError('REFUND_TOO_LARGE', refundTooLarge(leftCents), { maximum: euros(leftCents) });
  const { apiKey } = await onlinePaymentSettings(ctx);
  if (apiKey === null) throw new AppError('PAYMENT_PROVIDER_FAILED', PROVIDER_FAILED);

  let remaining = askedCents;
  for (const payment of payments) {
    const part = Math.min(leftOf(payment), remaining);
    if (part === 0) continue;
    const refund = await createMollieRefund(
      clientOptions(ctx, apiKey),
      payment.providerId,
      { amount: mollieAmount(part), description: `Terugbetaling ${order.invoiceNumber ?? order.reference}` },
      `kerstactie-refund-${payment.providerId}-${payment.refundedCents}-${part}`,
    );
    await noteKeyOutcome(ctx, apiKey, refund.ok ? null : refund.failure);
    if (!refund.ok) {
      if (refund.failure.kind === 'rejected') throw new AppError('REFUND_REFUSED', refundRefused(refund.failure.detail));
      throw new AppError('PAYMENT_PROVIDER_FAILED', PROVIDER_FAILED);
    }
    await writeAudit(ctx, {
      action: 'payment.refund_requested',
      target: `order:${order.id} (${order.reference})`,
      details: { payment: payment.providerId, amount: euros(part) },
    });
    // Mollie counts the refund at once; when it cannot be read back now, the webhook that follows brings it.
    const failure = await fetchAndReconcile(ctx, apiKey, payment.providerId);
    if (failure) {
      await ctx.db.batch([
        ctx.db
          .update(onlinePayments)
          // updated_at dates the refund in the accountant's journal (payment_reversals, docs/decisions/076).
          .set({ refundedCents: payment.refundedCents + part, updatedAt: ctx.clock.now().toISOString() })
          .where(and(eq(onlinePayments.id, payment.id), sql`${onlinePayments.refundedCents} < ${payment.refundedCents + part}`)),
        recomputeRefunded(ctx, orderId),
      ]);
    }
    remaining -= part;
    if (remaining === 0) break;
  }
  const [after] = await ctx.db.select({ refundedCents: orders.refundedCents }).from(orders).where(eq(orders.id, orderId)).limit(1);
  return { success: true, refunded_amount: euros(after?.refundedCents ?? 0) };
}
