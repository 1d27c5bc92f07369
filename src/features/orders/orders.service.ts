import { refusalText } from '../../core/input-issues';
import { and, asc, Column, desc, type DriverValueDecoder, eq, is, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { deliverSoon } from '../mail/mail-delivery';
import type { RequestCtx } from '../../context';
import type { ClubDb } from '../../db/client';
import { statementCache } from '../../db/statement-cache';
import { rowValues } from '../../db/row-values';
import { orderCounts, orders, sequences, tablers } from '../../db/schema';
import { foldForSearch } from '../../db/search-text';
import { AppError } from '../../core/errors';
import { enqueueMailStatement } from '../../platform/mail';
import { enforceRateLimit, hitRateLimit, type RateLimitRule } from '../../platform/rate-limit';
import { actsAsManager, requireManagement } from '../auth/permissions';
import { dutchPostcode, INVALID_EMAIL_MESSAGE, isValidEmail, isValidPhone, PHONE_MESSAGE, POSTCODE_MESSAGE, textHasLink } from '../../core/public-form-rules';
import { formatEuro } from '../../core/nl-format';
import { refuseDuringMaintenance } from '../settings/maintenance';
import { getIntegerSetting, getStringSetting } from '../settings/settings.service';
import { isValidGateToken } from '../tablers/gate-token';
import { auditIfChanged } from '../audit/audit';
import { campaignYear, overdueBefore } from '../../core/calendar';
import { offersOnlinePayment, onlinePaymentSettings } from '../settings/online-payment-settings';
import { type CreatedOrder, earlierAnswer, idempotentRequest, linkSeed, rememberAnswer } from './order-idempotency';
import { newOrderLink, replayableOrderLink, storeOrderLink } from './order-links';
import { SELLER_LINK_GONE, sellerOfToken } from '../tablers/seller-link';
import { orderPricing } from './order-pricing-source';
import { newOrderSearchText, searchCondition, updatedOrderSearchText } from './order-search';
import { DEFAULT_PER_PAGE, INVOICED_FIELDS, type OrderInput, type OrderListInput, type OrderSort, type TablerChoice } from './orders.schemas';

/** The columns an order form fills, for create and update alike; the tabler as checked (existingTabler). */
function orderFields(input: OrderInput, tablerId: number | null) {
  return {
    tablerId,
    name: input.name,
    email: input.email,
    phone: input.phone,
    address: input.address,
    postalCode: input.postalCode,
    city: input.city,
    amount: input.amount,
    notes: input.notes,
    // Left out of the body, a business number stays as it is (docs/decisions/078).
    ...(input.customerKvkNumber === undefined ? {} : { customerKvkNumber: input.customerKvkNumber }),
    ...(input.customerVatId === undefined ? {} : { customerVatId: input.customerVatId }),
  };
}

const UNKNOWN_TABLER = 'Onbekende tabler.';

/** The tabler whose own link this is; a link that is forged or renewed since is refused (docs/decisions/070). */
async function sellerOfLink(ctx: RequestCtx, token: string): Promise<{ id: number; name: string }> {
  const seller = await sellerOfToken(ctx, token);
  if (!seller) throw new AppError('SELLER_LINK_INVALID', SELLER_LINK_GONE);
  return seller;
}

/** The tabler an order names, null for none; refused when the value or id names no tabler. */
async function existingTabler(ctx: RequestCtx, tabler: TablerChoice): Promise<{ id: number; name: string } | null> {
  if (tabler.kind === 'unknown') throw new AppError('UNKNOWN_TABLER', UNKNOWN_TABLER);
  if (tabler.kind === 'none') return null;
  const [row] = await ctx.db.select({ id: tablers.id, name: tablers.name }).from(tablers).where(eq(tablers.id, tabler.id)).limit(1);
  if (!row) throw new AppError('UNKNOWN_TABLER', UNKNOWN_TABLER);
  return row;
}

export const PUBLIC_ORDER_LIMIT_PER_ADDRESS: RateLimitRule = { limit: 20, windowMs: 60 * 60 * 1000 };
/** docs/architecture.md §5: orders sent with a valid gate_token for their tabler (a member at the door, a club's Wi-Fi). */
export const GATED_ORDER_LIMIT_PER_ADDRESS: RateLimitRule = { limit: 200, windowMs: 60 * 60 * 1000 };
const TOO_MANY_ORDERS = 'Te veel bestellingen vanaf dit adres. Probeer het later opnieuw.';
/** docs/architecture.md §3: a public order holds 1–500 packages; docs/product.md §9: the back-office 1–10. */
export const PUBLIC_MAX_QUANTITY = 500;
export const BACK_OFFICE_MAX_AMOUNT = 10;
/** docs/decisions/056: the back-office's refusal of an amount outside 1–10 (never silently stored as something else). */
export const BACK_OFFICE_AMOUNT_MESSAGE = refusalText('AMOUNT_OUT_OF_RANGE', `Het aantal is 1 tot en met ${BACK_OFFICE_MAX_AMOUNT}.`);

/**
 * docs/product.md §7 POST /orders/create; docs/architecture.md §3: a public order is always unpaid with no invoice sent and needs
 * an existing tabler; an admin may set every field. The reference comes from a per-year sequence in the
 * same batch as the insert, so references are unique, gap-free and never reused.
 */
export async function createOrder(ctx: RequestCtx, input: OrderInput, idempotencyKey: string | null = null): Promise<CreatedOrder> {
  // docs/decisions/068: a key seen before answers its order again before anything is checked, counted or mailed.
  const once = idempotencyKey === null ? null : idempotentRequest(idempotencyKey, input);
  if (once) {
    const earlier = await earlierAnswer(ctx, once);
    if (earlier) return earlier;
  }
  const isManager = actsAsManager(ctx);
  let gated = false;
  if (!isManager) {
    await refuseDuringMaintenance(ctx);
    gated =
      input.gateToken !== null && input.tabler.kind === 'id' && (await isValidGateToken(ctx.secretKey, input.gateToken, input.tabler.id, ctx.clock.now()));
    if (gated) await enforceRateLimit(ctx.db, ctx.clock, `order-create:gated:ip:${ctx.rateLimitAddress}`, GATED_ORDER_LIMIT_PER_ADDRESS, TOO_MANY_ORDERS);
    else await enforceRateLimit(ctx.db, ctx.clock, `order-create:ip:${ctx.rateLimitAddress}`, PUBLIC_ORDER_LIMIT_PER_ADDRESS, TOO_MANY_ORDERS);
  }
  if (!isValidEmail(input.email)) throw new AppError('EMAIL_INVALID', INVALID_EMAIL_MESSAGE);
  // docs/architecture.md §6: the public form takes Dutch postcodes and real phone numbers only; the
  // back-office also takes a foreign address and an old order's number as typed (docs/decisions/056).
  if (!isManager && !isValidPhone(input.phone)) throw new AppError('PHONE_INVALID', PHONE_MESSAGE);
  if (!isManager && dutchPostcode(input.postalCode) === null) throw new AppError('POSTCODE_INVALID', POSTCODE_MESSAGE);
  if (isManager && input.amount > BACK_OFFICE_MAX_AMOUNT) throw new AppError('AMOUNT_OUT_OF_RANGE', BACK_OFFICE_AMOUNT_MESSAGE);
  if (input.amount > PUBLIC_MAX_QUANTITY) throw new AppError('AMOUNT_OUT_OF_RANGE', `Het aantal kerstpakketten is maximaal ${PUBLIC_MAX_QUANTITY}.`);
  // docs/decisions/070: a seller's own link names the tabler, without the gate; the public limits above still apply.
  const tabler = input.sellerToken === null ? await existingTabler(ctx, input.tabler) : await sellerOfLink(ctx, input.sellerToken);
  const tablerId = tabler?.id ?? null;
  if (tablerId === null && !isManager) throw new AppError('TABLER_REQUIRED', 'Kies eerst een tabler.');

  // docs/decisions/055: a visitor's order is stored whatever happens, but one recipient gets at most 3
  // confirmations a day; past that the answer is the same and no mail goes out.
  const confirm =
    !isManager && (await hitRateLimit(ctx.db, ctx.clock, `order-confirmation:to:${recipientKey(input.email)}`, CONFIRMATIONS_PER_RECIPIENT)).allowed;

  const now = ctx.clock.now();
  const year = campaignYear(now);
  const sequence = and(eq(sequences.name, 'order'), eq(sequences.year, year));
  // The year is bound as text: libSQL binds JS numbers as REAL, which would print '2026.0'.
  const reference = sql`${`KP-${year}-`} || printf('%04d', ${ctx.db.select({ value: sequences.value }).from(sequences).where(sequence)})`;
  const link = once ? await replayableOrderLink(ctx, linkSeed(once)) : newOrderLink(ctx.siteOrigin);
  const orderIdOf = sql`${ctx.db.select({ id: orders.id }).from(orders).where(eq(orders.reference, reference))}`;
  const drawAndInsert = [
    ctx.db
      .insert(sequences)
      .values({ name: 'order', year, value: 1 })
      .onConflictDoUpdate({ target: [sequences.clubId, sequences.name, sequences.year], set: { value: sql`${sequences.value} + 1` } }),
    ctx.db
      .insert(orders)
      .values({
        reference,
        ...orderFields(input, tablerId),
        searchText: newOrderSearchText(input, reference),
        paid: isManager ? input.paid : false,
        paidAt: isManager && input.paid ? now.toISOString() : null,
        paymentMethod: isManager && input.paid ? 'manual' : null,
        invoiceSent: isManager ? input.invoiceSent : false,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .returning({ id: orders.id, reference: orders.reference }),
    // docs/decisions/066: the customer's order page, answered as order_url and named in the confirmation.
    storeOrderLink(ctx, link, orderIdOf),
  ] as const;
  const remembered = once ? [rememberAnswer(ctx, once, reference, orderIdOf)] : [];
  let statements: BatchItem<'sqlite'>[] = [...drawAndInsert, ...remembered];
  let queuedAt: number | null = null;
  if (isManager) {
    // Only an admin's order is an admin change; a visitor's order has no actor to record.
    statements.push(auditIfChanged(ctx, { action: 'order.created', target: `order (${input.name})`, details: { amount: input.amount, paid: input.paid } }));
  } else if (confirm) {
    // The order and its confirmation are one batch (docs/decisions/055): a stored order never answers
    // 500 because its mail could not be queued, so nobody types it in twice.
    const club = { name: await getStringSetting(ctx, 'club_name'), price: await getIntegerSetting(ctx, 'package_price') };
    const details = {
      takenBy: gated && tabler ? tabler.name : null,
      soldBy: input.sellerToken !== null && tabler ? tabler.name : null,
      totalCents: await orderTotalIncl(ctx, input.amount),
      orderUrl: link.url,
      payOnline: offersOnlinePayment(await onlinePaymentSettings(ctx)),
    };
    queuedAt = statements.length;
    statements = [...statements, orderConfirmation(ctx, club, reference, input, details)];
  }
  let results: unknown[];
  try {
    results = await ctx.db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  } catch (failure) {
    // Another request with this key won the race: its row is there now, and its answer is ours (docs/decisions/068).
    const earlier = once ? await earlierAnswer(ctx, once) : null;
    if (earlier) return earlier;
    throw failure;
  }
  const [order] = results[1] as { id: number; reference: string }[];
  if (!order) throw new AppError('ORDER_NOT_STORED', 'Order could not be stored');
  if (queuedAt !== null) {
    const [queued] = results[queuedAt] as { id: number }[];
    if (queued) deliverSoon(ctx, [queued.id]);
  }
  return { reference: order.reference, orderUrl: link.url };
}

/** A visitor's confirmations per recipient address a day (docs/decisions/055). */
const CONFIRMATIONS_PER_RECIPIENT: RateLimitRule = { limit: 3, windowMs: 24 * 60 * 60 * 1000 };

/** One mailbox however it is spelt: case and a '+tag' of the local part do not make another recipient. */
function recipientKey(email: string): string {
  const lowered = email.trim().toLowerCase();
  const at = lowered.lastIndexOf('@');
  return `${lowered.slice(0, at).replace(/\+.*$/, '')}${lowered.slice(at)}`;
}

/**
 * The queued insert of the visitor's confirmation, for the order's batch; the reference is the SQL that
 * draws it there. It repeats what was ordered and where it goes (docs/decisions/056): the address,
 * phone, notes and the amount incl. VAT, priced as the invoice will be (order-pricing-source.ts). What a
 * stranger could use to make the club mail a link (a link, a www-name or an e-mail address in the
 * address, city or notes) is not repeated; the order keeps it, and the 3 mails a day per mailbox of
 * docs/decisions/055 still hold. `takenBy`: the member who took the order through the gate, if one did;
 * `soldBy`: the member whose own link the customer ordered through (docs/decisions/070).
 */
function orderConfirmation(
  ctx: RequestCtx,
  club: { name: string; price: number },
  reference: SQL,
  input: OrderInput,
  {
    takenBy,
    soldBy,
    totalCents,
    orderUrl,
    payOnline,
  }: { takenBy: string | null; soldBy: string | null; totalCents: number | null; orderUrl: string; payOnline: boolean },
) {
  const intro = takenBy
    ? `Hartelijk dank voor je bestelling bij de kerstactie van ${club.name}! ${takenBy} heeft je bestelling opgenomen en zorgt voor de verdere afhandeling. De factuur ontvang je per e-mail.`
    : soldBy
      ? `Hartelijk dank voor je bestelling bij de kerstactie van ${club.name}! Je hebt besteld via ${soldBy}, die zorgt voor de verdere afhandeling. De factuur ontvang je per e-mail.`
      : `Hartelijk dank voor je bestelling bij de kerstactie van ${club.name}! Een lid van de club neemt contact met je op voor de verdere afhandeling. De factuur ontvang je per e-mail.`;
  const before = [`Beste ${input.name},`, '', intro, '', 'Bestelnummer: '].join('\n');
  const amount = `Aantal kerstpakketten: ${input.amount} (€ ${club.price} per pakket, exclusief btw)`;
  const after = [
    '',
    amount,
    ...(totalCents === null ? [] : [`Totaal inclusief btw: ${formatEuro(totalCents)}`]),
    '',
    'Afleveradres:',
    mailSafe(input.address),
    `${input.postalCode} ${mailSafe(input.city)}`,
    `Telefoon: ${input.phone}`,
    ...(input.notes ? ['', 'Opmerkingen:', mailSafe(input.notes)] : []),
    '',
    payOnline ? 'Je bestelling bekijken en online betalen:' : 'Je bestelling bekijken:',
    orderUrl,
    '',
    'Klopt er iets niet? Beantwoord dan deze e-mail.',
    '',
    'De volledige opbrengst gaat naar goede doelen in de regio.',
    '',
    `Met vriendelijke groet,`,
    club.name,
  ].join('\n');
  return enqueueMailStatement(ctx.db, ctx.clock, {
    kind: 'order-confirmation',
    to: input.email,
    subject: sql`${'Bevestiging van je bestelling '} || ${reference}`,
    text: sql`${before} || ${reference} || ${after}`,
  });
}

/** What the order's invoice will bill incl. VAT, in cents; null while `vat_split` is unusable (the order still goes in). */
async function orderTotalIncl(ctx: RequestCtx, amount: number): Promise<number | null> {
  try {
    return (await orderPricing(ctx)())(amount).totalCents;
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

const LEFT_OUT = '(niet herhaald in deze e-mail: bevat een link of e-mailadres)';

/** The visitor's text as it goes into the club's mail: left out when a mail program would make it a link. */
function mailSafe(text: string): string {
  return textHasLink(text) ? LEFT_OUT : text;
}

export interface OrderView {
  id: number;
  tabler_id: number | null;
  tabler_name: string | null;
  reference: string;
  name: string;
  email: string;
  phone: string;
  address: string;
  postal_code: string;
  city: string;
  amount: number;
  notes: string | null;
  /** docs/decisions/078: a business customer's KvK number and VAT id; null for a private customer. */
  customer_kvk_number: string | null;
  customer_vat_id: string | null;
  paid: boolean;
  invoice_sent: boolean;
  invoice_number: string | null;
  invoice_date: string | null;
  paid_at: string | null;
  cancelled: boolean;
  credit_note_number: string | null;
  credit_note_date: string | null;
  reminders_sent: number;
  last_reminder_at: string | null;
  delivered: boolean;
  delivered_at: string | null;
  created_at: string;
  /**
   * The part-payments booked on the order from the bank so far, in euros (orders.paid_cents,
   * docs/decisions/057); 0 when there are none. An order paid in full keeps what its part-payments were.
   */
  part_paid: number;
  /** How it was paid (docs/decisions/066): manual, bank or online; null while unpaid. */
  payment_method: 'manual' | 'bank' | 'online' | null;
  /** What was refunded through Mollie so far, in euros. */
  refunded_amount: number;
}

export type OrderFilters = Omit<OrderListInput, 'page' | 'per_page' | 'sort' | 'dir'>;

export interface OrderPage {
  orders: OrderView[];
  total: number;
  page: number;
  per_page: number;
}

/** The columns of an order as the API names them (GET /orders), with its tabler's name. */
export const orderColumns = {
  id: orders.id,
  tabler_id: orders.tablerId,
  // Named apart from orders.name: D1's batch hands rows back as objects keyed by column name, so two
  // columns called "name" would collapse into one and shift every later column (test/worker/order-search).
  tabler_name: sql<string | null>`${tablers.name}`.as('tabler_name'),
  reference: orders.reference,
  name: orders.name,
  email: orders.email,
  phone: orders.phone,
  address: orders.address,
  postal_code: orders.postalCode,
  city: orders.city,
  amount: orders.amount,
  notes: orders.notes,
  customer_kvk_number: orders.customerKvkNumber,
  customer_vat_id: orders.customerVatId,
  paid: orders.paid,
  invoice_sent: orders.invoiceSent,
  invoice_number: orders.invoiceNumber,
  invoice_date: orders.invoiceDate,
  paid_at: orders.paidAt,
  cancelled: orders.cancelled,
  credit_note_number: orders.creditNoteNumber,
  credit_note_date: orders.creditNoteDate,
  reminders_sent: orders.remindersSent,
  last_reminder_at: orders.lastReminderAt,
  delivered: orders.delivered,
  delivered_at: orders.deliveredAt,
  created_at: orders.createdAt,
  // Euros from whole cents in the same statement, so the list costs no query more (aliased, as tabler_name).
  part_paid: sql<number>`${orders.paidCents} / 100.0`.mapWith(Number).as('part_paid'),
  payment_method: orders.paymentMethod,
  refunded_amount: sql<number>`${orders.refundedCents} / 100.0`.mapWith(Number).as('refunded_amount'),
};

/**
 * How each column of `orderColumns` reads from the driver, in their order: the orders page reads its rows as arrays
 * and builds each order with these (docs/decisions/074). Drizzle's own mapping tests every field's kind again for
 * every value of every row, and with 30 columns and 50 rows that was a third of the page's time beside SQLite.
 */
const ORDER_FIELDS = Object.entries(orderColumns).map(([key, field]) => {
  // An aliased expression reads with its decoder (`mapWith`), as Drizzle's mapping does; the field is not typed public.
  const decoder: DriverValueDecoder<unknown, unknown> = is(field, Column)
    ? field
    : (field.sql as unknown as { decoder: DriverValueDecoder<unknown, unknown> }).decoder;
  return { key, read: (value: unknown) => decoder.mapFromDriverValue(value) };
});

function orderFromValues(values: unknown[]): OrderView {
  const order: Record<string, unknown> = {};
  for (let i = 0; i < ORDER_FIELDS.length; i++) {
    const { key, read } = ORDER_FIELDS[i]!;
    const value = values[i];
    order[key] = value === null || value === undefined ? null : read(value);
  }
  return order as unknown as OrderView;
}

/** The column each sort of GET /orders orders by (the tests compare with the same). */
export const SORT_COLUMNS = {
  created_at: orders.createdAt,
  reference: orders.reference,
  // The folded texts begin with the name: 'Ëlsa' sorts with 'Elsa', not after 'Z' (and orders' by an index).
  name: orders.searchText,
  amount: orders.amount,
  paid: orders.paid,
  // The tabler's folded name, kept on the order (docs/decisions/074).
  tabler_name: orders.tablerSort,
} as const satisfies Record<OrderSort, unknown>;

/**
 * GET /orders' filters and text search as one SQL condition (the CSV export takes the same). Its text
 * depends only on which filters are set and how the text is searched (`shape`); the values are named
 * placeholders, filled from `values`, so the orders page builds each shape once (db/statement-cache.ts).
 */
export interface OrderFilter {
  where: SQL | undefined;
  values: Record<string, string | number>;
  shape: string;
  /** A search through the trigram index: the matching ids (order-search.ts) and the filter's other conditions. */
  matched: { ids: SQL; where: SQL | undefined } | null;
  /** The filter as the count of a page tests it: without the `+` that keeps the page on its sort's index. */
  counted: SQL | undefined;
  /**
   * The same filter on the kept counts (order_counts, docs/decisions/074) when it tests nothing but the four flags
   * they are kept by; null when the matching orders must be counted.
   */
  kept: { where: SQL | undefined } | null;
}

export async function orderListFilter(ctx: RequestCtx, filters: OrderFilters): Promise<OrderFilter> {
  const conditions: SQL[] = [];
  const values: OrderFilter['values'] = {};
  const shape: string[] = [];
  const keptConditions: SQL[] = [];
  const equals = (name: string, column: SQLiteColumn, value: string | number) => {
    conditions.push(eq(column, sql.placeholder(name)));
    values[name] = value;
    shape.push(name);
  };
  const flag = (name: string, column: SQLiteColumn, keptColumn: SQLiteColumn, value: boolean | undefined) => {
    if (value === undefined) return;
    // Flags go in as SQLite stores them (a placeholder is filled as given, without the column's mapping).
    equals(name, column, Number(value));
    keptConditions.push(eq(keptColumn, sql.placeholder(name)));
  };
  flag('paid', orders.paid, orderCounts.paid, filters.paid);
  flag('invoice_sent', orders.invoiceSent, orderCounts.invoiceSent, filters.invoice_sent);
  flag('cancelled', orders.cancelled, orderCounts.cancelled, filters.cancelled);
  flag('delivered', orders.delivered, orderCounts.delivered, filters.delivered);
  const flagsOnly = conditions.length;
  let overdueDate: SQL | null = null;
  if (filters.tabler_id === 'none') {
    conditions.push(isNull(orders.tablerId));
    shape.push('no_tabler');
  } else if (filters.tabler_id !== undefined) equals('tabler_id', orders.tablerId, filters.tabler_id);
  if (filters.overdue) {
    // docs/decisions/021 'Achterstallig': invoiced, unpaid, not credited, and past the payment term.
    const termDays = Math.max(1, await getIntegerSetting(ctx, 'invoice_payment_term_days'));
    overdueDate = lt(orders.invoiceDate, sql.placeholder('overdue_before'));
    conditions.push(eq(orders.paid, false), eq(orders.cancelled, false), overdueDate);
    values.overdue_before = overdueBefore(ctx.clock.now(), termDays);
    shape.push('overdue');
  }
  // Accents and case ignored: 'elsa' finds 'Ëlsa', 'e' finds 'é' (order-search.ts).
  const q = foldForSearch(filters.q?.trim() ?? '');
  const search = q ? searchCondition(ctx.db, q) : null;
  // The other conditions, which a page searched through the trigram index tests on its matches.
  const besideSearch = conditions.length > 0 ? and(...conditions) : undefined;
  if (search) {
    conditions.push(search.condition);
    Object.assign(values, search.values);
    shape.push(`search_${search.kind}`);
  }
  const counted = conditions.length > 0 ? and(...conditions) : undefined;
  // docs/decisions/074: a page tests the date on the index it walks in its order (`+` keeps it off the dates'
  // index), and its count takes the range of dates on orders_invoice_date_idx.
  const pageDate = lt(sql`+${orders.invoiceDate}`, sql.placeholder('overdue_before'));
  return {
    where: overdueDate ? and(...conditions.map((condition) => (condition === overdueDate ? pageDate : condition))) : counted,
    counted,
    values,
    shape: shape.join(','),
    matched: search?.kind === 'trigram' ? { ids: search.matches, where: besideSearch } : null,
    kept: conditions.length === flagsOnly ? { where: keptConditions.length > 0 ? and(...keptConditions) : undefined } : null,
  };
}

/** The sort of a list: its key column and direction, `key` naming it for the orders page's statement cache. */
interface OrderSortOf {
  key: string;
  column: SQLiteColumn;
  direction: typeof asc;
}

function orderSort(input: OrderListInput): OrderSortOf {
  if (!input.sort) return { key: '', column: orders.createdAt, direction: desc };
  const dir = input.dir === 'asc' ? 'asc' : 'desc';
  return { key: `${input.sort} ${dir}`, column: SORT_COLUMNS[input.sort], direction: dir === 'asc' ? asc : desc };
}

/** docs/architecture.md §4 GET /orders: every order that passes the filters, with the tabler's name, newest first unless sorted. */
export async function listOrders(ctx: RequestCtx, input: OrderListInput = {}): Promise<OrderView[]> {
  requireManagement(ctx);
  const { where, values } = await orderListFilter(ctx, input);
  const sorted = orderSort(input);
  return ctx.db
    .select(orderColumns)
    .from(orders)
    .leftJoin(tablers, eq(tablers.id, orders.tablerId))
    .where(where)
    .orderBy(sorted.direction(sorted.column), sorted.direction(orders.id))
    .all(values);
}

/** The number of orders that pass a filter: summed from the kept counts when they hold it (docs/decisions/074). */
const countOf = (db: ClubDb, filter: OrderFilter) =>
  filter.kept
    ? db
        .select({ n: sql<number>`coalesce(sum(${orderCounts.orders}), 0)` })
        .from(orderCounts)
        .where(filter.kept.where)
    : db.select({ n: sql<number>`count(*)` }).from(orders).where(filter.counted);

/**
 * The statement of an orders page (docs/decisions/072): the page's rows, each with the number of all matching
 * orders. The page's ids come first (`page`), from the narrow entries of the sort's own index (club, key, and
 * the id that breaks ties), skipping the pages before it there; only those ids' rows and tablers are then
 * read whole. A deep page so skips index entries, not rows with their tablers joined.
 *
 * Without a search through the trigram index, the count is a subquery SQLite runs once, on the narrowest
 * index that holds the filters. With one, the count is a window over the matching ids (before the LIMIT), so
 * the index is searched once for the page and the count together.
 */
function buildOrdersPage(db: ClubDb, filter: OrderFilter, sort: OrderSortOf) {
  const page = (filter.matched ? searchedIds(db, filter.matched, sort) : filteredIds(db, filter, sort)).as('page');
  // The page's rows read by id, the page first: CROSS JOIN fixes that order of loops, where SQLite would rather walk
  // the club's index of orders and look each one up in the page (it takes `club_id = ?` for narrow), and the page
  // is sorted again on its own copy of the key.
  return db
    .select({ ...orderColumns, total: page.total })
    .from(page)
    .crossJoin(orders)
    .leftJoin(tablers, eq(tablers.id, orders.tablerId))
    .where(eq(orders.id, page.id))
    .orderBy(sort.direction(page.key), sort.direction(page.id))
    .prepare();
}

/** A page's ids from the sort's index, with the count of all matching orders as a subquery SQLite runs once. */
function filteredIds(db: ClubDb, filter: OrderFilter, sort: OrderSortOf) {
  return db
    .select({ id: orders.id, key: sql`${sort.column}`.as('sort_key'), total: sql<number>`(${countOf(db, filter)})`.as('total') })
    .from(orders)
    .where(filter.where)
    .orderBy(sort.direction(sort.column), sort.direction(orders.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'));
}

/**
 * A searched page's ids: the list of matches first, then each match's order by id (CROSS JOIN keeps SQLite on that
 * order of loops: it would rather walk the club's sort index and test every order against the list), the
 * matches sorted, and counted with a window before the LIMIT (docs/decisions/074).
 */
function searchedIds(db: ClubDb, matched: NonNullable<OrderFilter['matched']>, sort: OrderSortOf) {
  const matches = sql.identifier('matches');
  return db
    .select({ id: orders.id, key: sql`${sort.column}`.as('sort_key'), total: sql<number>`count(*) OVER ()`.as('total') })
    .from(sql`(${matched.ids}) AS ${matches}`)
    .crossJoin(orders)
    .where(and(sql`${orders.id} = ${matches}.${sql.identifier('id')}`, matched.where))
    .orderBy(sort.direction(sort.column), sort.direction(orders.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'));
}

const ordersPages = statementCache<ReturnType<typeof buildOrdersPage>>();

/**
 * docs/architecture.md §5 GET /orders with `page`: one page, sorted as asked, and the number of matching orders, in
 * one statement whatever the number of orders (docs/decisions/034), built once per shape of filters and sort.
 */
export async function listOrdersPage(ctx: RequestCtx, input: OrderListInput): Promise<OrderPage> {
  requireManagement(ctx);
  const page = input.page ?? 1;
  const perPage = input.per_page ?? DEFAULT_PER_PAGE;
  const filter = await orderListFilter(ctx, input);
  const sort = orderSort(input);
  const statement = ordersPages(ctx.db, `${filter.shape}|${sort.key}`, () => buildOrdersPage(ctx.db, filter, sort));
  const rows = ((await statement.values({ ...filter.values, limit: perPage, offset: (page - 1) * perPage })) as unknown[][]).map(rowValues);
  // Every row carries the count, after the order's columns; a page past the end has no row to carry it, and is counted apart.
  const total = rows[0]?.[ORDER_FIELDS.length] ?? (page === 1 ? 0 : (await countOf(ctx.db, filter).all(filter.values))[0]?.n);
  return { orders: rows.map(orderFromValues), total: Number(total ?? 0), page, per_page: perPage };
}

export const ORDER_NOT_FOUND = 'Bestelling niet gevonden.';

async function requireOrder(ctx: RequestCtx, id: number) {
  const [row] = await ctx.db.select().from(orders).where(eq(orders.id, id)).limit(1);
  if (!row) throw new AppError('ORDER_NOT_FOUND', ORDER_NOT_FOUND);
  return row;
}

const orderTarget = (order: { id: number; reference: string }) => `order:${order.id} (${order.reference})`;

export const invoicedOrderLocked = (invoiceNumber: string) =>
  `Deze bestelling is al gefactureerd (factuur ${invoiceNumber}): naam, e-mail, adres, postcode, plaats, aantal, KvK-nummer en btw-id staan op de factuur en kunnen niet meer worden gewijzigd. Maak een creditnota en voer de bestelling opnieuw in. Telefoon, opmerkingen, tabler en betaald kun je wel aanpassen.`;

/**
 * docs/product.md §7 POST /orders/update?id=: the same body as create; the reference and invoice number stay.
 * docs/architecture.md §6: the back-office's 1–10 applies to an amount the edit sets; an order taken on the
 * public form with more packages keeps them while its other fields change. docs/decisions/056: a postcode
 * that only differs in spelling from the stored one is no change, and once an invoice exists its
 * `invoice_sent` is the mail delivery's to set, not the form's.
 */
export async function updateOrder(ctx: RequestCtx, id: number, input: OrderInput): Promise<void> {
  requireManagement(ctx);
  const existing = await requireOrder(ctx, id);
  if (!isValidEmail(input.email)) throw new AppError('EMAIL_INVALID', INVALID_EMAIL_MESSAGE);
  if (input.amount !== existing.amount && input.amount > BACK_OFFICE_MAX_AMOUNT) throw new AppError('AMOUNT_OUT_OF_RANGE', BACK_OFFICE_AMOUNT_MESSAGE);
  const tabler = await existingTabler(ctx, input.tabler);
  const postalCode = dutchPostcode(existing.postalCode) === input.postalCode ? existing.postalCode : input.postalCode;
  const invoiceSent = existing.invoiceNumber ? existing.invoiceSent : input.invoiceSent;
  const next = { ...orderFields(input, tabler?.id ?? null), postalCode, paid: input.paid, invoiceSent };
  // Old → new of the fields that change, under their API names.
  const changes: Record<string, [unknown, unknown]> = {};
  for (const [field, value] of Object.entries(next) as [keyof typeof next, unknown][]) {
    if (existing[field] !== value) changes[field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = [existing[field], value];
  }
  // docs/decisions/018: an issued invoice never changes, so neither may what it printed.
  if (existing.invoiceNumber && INVOICED_FIELDS.some((field) => field in changes))
    throw new AppError('INVOICE_LOCKED', invoicedOrderLocked(existing.invoiceNumber), { invoice_number: existing.invoiceNumber });
  if (input.paid && !existing.paid && existing.cancelled) throw new AppError('CREDITED_NOT_PAYABLE', CREDITED_NOT_PAYABLE);
  if (!input.paid && existing.paid) await refuseUndoingPartPayments(ctx, existing);
  const now = ctx.clock.now().toISOString();
  await ctx.db.batch([
    ctx.db
      .update(orders)
      .set({
        ...next,
        ...(input.paid !== existing.paid ? { paidAt: input.paid ? now : null, paymentMethod: input.paid ? 'manual' : null } : {}),
        searchText: updatedOrderSearchText({ ...input, postalCode }),
        updatedAt: now,
      })
      .where(eq(orders.id, id)),
    auditIfChanged(ctx, { action: 'order.updated', target: orderTarget(existing), details: changes }),
  ]);
}

/** A credited order owes nothing: money that still comes in is a refund to arrange, not a payment (docs/decisions/049). */
export const CREDITED_NOT_PAYABLE = 'Deze bestelling is gecrediteerd: ze kan niet meer als betaald worden gemarkeerd.';

/** docs/decisions/057 (amendment): the refusal to mark unpaid an order that its booked part-payments paid. */
export const paidByPartPayments = (paidCents: number) =>
  `Deze bestelling is betaald met deelbetalingen via de bank (samen ${formatEuro(paidCents)}). Geboekte deelbetalingen worden niet teruggedraaid, dus de bestelling blijft betaald.`;

/**
 * Marking an order unpaid by hand undoes a full payment (by hand, a matched transfer), never the part-payments
 * booked from the bank: they were real money and stay in paid_cents, so the order goes back to part-paid with
 * the rest open. An order whose part-payments alone reach its total has no full payment to undo, and would be
 * unpaid with nothing open; it is refused (docs/decisions/057, amendment). While an order is paid no
 * part-payment can be booked on it, so what is read here cannot change before the write.
 */
async function refuseUndoingPartPayments(ctx: RequestCtx, existing: { paidCents: number; amount: number; invoiceTotalCents: number | null }): Promise<void> {
  if (existing.paidCents === 0) return;
  const totalCents = existing.invoiceTotalCents ?? (await orderPricing(ctx)())(existing.amount).totalCents;
  if (existing.paidCents >= totalCents) throw new AppError('PAID_BY_PART_PAYMENTS', paidByPartPayments(existing.paidCents));
}

export async function setOrderPaid(ctx: RequestCtx, id: number, paid: boolean): Promise<void> {
  requireManagement(ctx);
  const existing = await requireOrder(ctx, id);
  if (paid && !existing.paid && existing.cancelled) throw new AppError('CREDITED_NOT_PAYABLE', CREDITED_NOT_PAYABLE);
  if (!paid && existing.paid) await refuseUndoingPartPayments(ctx, existing);
  await ctx.db.batch([
    ctx.db
      .update(orders)
      .set({ paid, paidAt: paid ? ctx.clock.now().toISOString() : null, paymentMethod: paid ? 'manual' : null, updatedAt: ctx.clock.now().toISOString() })
      // A credit note drawn meanwhile still keeps the order from turning paid.
      .where(and(eq(orders.id, id), ne(orders.paid, paid), paid ? eq(orders.cancelled, false) : undefined)),
    auditIfChanged(ctx, { action: paid ? 'order.paid' : 'order.unpaid', target: orderTarget(existing) }),
  ]);
}

/** An invoiced order stays: Dutch rules require keeping invoices (the number sequence has no gaps). */
export async function deleteOrder(ctx: RequestCtx, id: number): Promise<void> {
  requireManagement(ctx);
  const existing = await requireOrder(ctx, id);
  const [[row]] = await ctx.db.batch([
    ctx.db
      .delete(orders)
      .where(and(eq(orders.id, id), isNull(orders.invoiceNumber)))
      .returning({ id: orders.id }),
    auditIfChanged(ctx, {
      action: 'order.deleted',
      target: orderTarget(existing),
      details: { name: existing.name, amount: existing.amount, paid: existing.paid },
    }),
  ]);
  if (row) return;
  const [still] = await ctx.db.select({ id: orders.id }).from(orders).where(eq(orders.id, id)).limit(1);
  if (!still) throw new AppError('ORDER_NOT_FOUND', 'Bestelling niet gevonden.');
  throw new AppError('INVOICED_ORDER_NOT_DELETABLE', 'Een gefactureerde bestelling kan niet worden verwijderd.');
}
