import { and, desc, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { orders, sequences, tablers } from '../../db/schema';
import { AppError, badRequest } from '../../http/errors';
import { enqueueMail } from '../../platform/mail';
import { enforceRateLimit, type RateLimitRule } from '../../platform/rate-limit';
import { actsAsManager, requireManagement } from '../auth/permissions';
import { INVALID_EMAIL_NL } from '../contact/contact.service';
import { isValidEmail } from '../account/account.schemas';
import { refuseDuringMaintenance } from '../settings/maintenance';
import { getIntegerSetting, getStringSetting } from '../settings/settings.service';
import { isValidGateToken } from '../tablers/gate-token';
import { auditIfChanged } from '../audit/audit';
import { campaignYear } from './order-reference';
import type { OrderInput } from './orders.schemas';

/** The columns an order form fills, for create and update alike. */
function orderFields(input: OrderInput) {
  return {
    tablerId: input.tablerId,
    name: input.name,
    email: input.email,
    phone: input.phone,
    address: input.address,
    postalCode: input.postalCode,
    city: input.city,
    amount: input.amount,
    notes: input.notes,
  };
}

export const PUBLIC_ORDER_LIMIT_PER_ADDRESS: RateLimitRule = { limit: 20, windowMs: 60 * 60 * 1000 };
/** DESIGN §5: orders sent with a valid gate_token for their tabler (a member at the door, a club's Wi-Fi). */
export const GATED_ORDER_LIMIT_PER_ADDRESS: RateLimitRule = { limit: 200, windowMs: 60 * 60 * 1000 };
const TOO_MANY_ORDERS = 'Te veel bestellingen vanaf dit adres. Probeer het later opnieuw.';
/** DESIGN §3: a public order holds 1–500 packages; spec §9: the back-office 1–10. */
export const PUBLIC_MAX_QUANTITY = 500;
export const BACK_OFFICE_MAX_AMOUNT = 10;

/**
 * spec §7 POST /orders/create; DESIGN §3: a public order is always unpaid with no invoice sent and needs
 * an existing tabler; an admin may set every field. The reference comes from a per-year sequence in the
 * same batch as the insert, so references are unique, gap-free and never reused.
 */
export async function createOrder(ctx: RequestCtx, input: OrderInput): Promise<{ reference: string; id: number }> {
  const isManager = actsAsManager(ctx);
  if (!isManager) {
    await refuseDuringMaintenance(ctx);
    const gated =
      input.gateToken !== null && input.tablerId !== null && input.tablerId > 0 && (await isValidGateToken(ctx.secretKey, input.gateToken, input.tablerId, ctx.clock.now()));
    if (gated) await enforceRateLimit(ctx.db, ctx.clock, `order-create:gated:ip:${ctx.ip}`, GATED_ORDER_LIMIT_PER_ADDRESS, TOO_MANY_ORDERS);
    else await enforceRateLimit(ctx.db, ctx.clock, `order-create:ip:${ctx.ip}`, PUBLIC_ORDER_LIMIT_PER_ADDRESS, TOO_MANY_ORDERS);
  }
  if (!isValidEmail(input.email)) throw badRequest(INVALID_EMAIL_NL);
  const max = isManager ? BACK_OFFICE_MAX_AMOUNT : PUBLIC_MAX_QUANTITY;
  if (input.amount > max) throw badRequest(`Het aantal kerstpakketten is maximaal ${max}.`);
  if (input.tablerId === -1) throw badRequest('Onbekende tabler.');
  if (input.tablerId === null) {
    if (!isManager) throw badRequest('Kies eerst een tabler.');
  } else {
    const [tabler] = await ctx.db.select({ id: tablers.id }).from(tablers).where(eq(tablers.id, input.tablerId)).limit(1);
    if (!tabler) throw badRequest('Onbekende tabler.');
  }

  const now = ctx.clock.now();
  const year = campaignYear(now);
  const sequence = and(eq(sequences.name, 'order'), eq(sequences.year, year));
  const [, inserted] = await ctx.db.batch([
    ctx.db
      .insert(sequences)
      .values({ name: 'order', year, value: 1 })
      .onConflictDoUpdate({ target: [sequences.name, sequences.year], set: { value: sql`${sequences.value} + 1` } }),
    ctx.db
      .insert(orders)
      .values({
        // The year is bound as text: libSQL binds JS numbers as REAL, which would print '2026.0'.
        reference: sql`${`KP-${year}-`} || printf('%04d', (SELECT ${sequences.value} FROM ${sequences} WHERE ${sequence}))`,
        ...orderFields(input),
        paid: isManager ? input.paid : false,
        invoiceSent: isManager ? input.invoiceSent : false,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .returning({ id: orders.id, reference: orders.reference }),
    // Only an admin's order is an admin change; a visitor's order has no actor to record.
    ...(isManager ? [auditIfChanged(ctx, { action: 'order.created', target: `order (${input.name})`, details: { amount: input.amount, paid: input.paid } })] : []),
  ]);
  const order = inserted[0];
  if (!order) throw new AppError(500, 'Order could not be stored');

  if (!isManager) await sendOrderConfirmation(ctx, order.reference, input);
  return order;
}

/**
 * The visitor's confirmation. issue 12: it repeats none of the visitor's free text but the name (which
 * may hold no link or address, order-name.ts); phone, address and notes stay in the back-office, so
 * the club's mail cannot carry a stranger's message to whatever address they typed.
 */
async function sendOrderConfirmation(ctx: RequestCtx, reference: string, input: OrderInput): Promise<void> {
  const clubName = await getStringSetting(ctx, 'club_name');
  const price = await getIntegerSetting(ctx, 'package_price');
  const lines = [
    `Beste ${input.name},`,
    '',
    `Hartelijk dank voor je bestelling bij de kerstactie van ${clubName}! Een lid van de club neemt contact met je op voor de verdere afhandeling. De factuur ontvang je per e-mail.`,
    '',
    `Bestelnummer: ${reference}`,
    `Aantal kerstpakketten: ${input.amount} (€ ${price} per pakket, exclusief btw)`,
    '',
    'De volledige opbrengst gaat naar goede doelen in de regio.',
    '',
    `Met vriendelijke groet,`,
    clubName,
  ];
  await enqueueMail(ctx.db, ctx.clock, {
    kind: 'order-confirmation',
    to: input.email,
    subject: `Bevestiging van je bestelling ${reference}`,
    text: lines.join('\n'),
  });
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
  paid: boolean;
  invoice_sent: boolean;
  invoice_number: string | null;
  created_at: string;
}

export interface OrderFilters {
  paid?: boolean | undefined;
  invoice_sent?: boolean | undefined;
  /** A tabler's id, or 'none' for orders whose tabler was deleted. */
  tabler_id?: number | 'none' | undefined;
  q?: string | undefined;
}

const orderColumns = {
  id: orders.id,
  tabler_id: orders.tablerId,
  tabler_name: tablers.name,
  reference: orders.reference,
  name: orders.name,
  email: orders.email,
  phone: orders.phone,
  address: orders.address,
  postal_code: orders.postalCode,
  city: orders.city,
  amount: orders.amount,
  notes: orders.notes,
  paid: orders.paid,
  invoice_sent: orders.invoiceSent,
  invoice_number: orders.invoiceNumber,
  created_at: orders.createdAt,
};

/** DESIGN §4 GET /orders with the tabler's name; filtered on the server (issue 6), newest first. */
export async function listOrders(ctx: RequestCtx, filters: OrderFilters = {}): Promise<OrderView[]> {
  requireManagement(ctx);
  const conditions: SQL[] = [];
  if (filters.paid !== undefined) conditions.push(eq(orders.paid, filters.paid));
  if (filters.invoice_sent !== undefined) conditions.push(eq(orders.invoiceSent, filters.invoice_sent));
  if (filters.tabler_id === 'none') conditions.push(isNull(orders.tablerId));
  else if (filters.tabler_id !== undefined) conditions.push(eq(orders.tablerId, filters.tabler_id));
  const rows = await ctx.db
    .select(orderColumns)
    .from(orders)
    .leftJoin(tablers, eq(tablers.id, orders.tablerId))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(orders.createdAt), desc(orders.id));
  const q = filters.q ? foldForSearch(filters.q.trim()) : '';
  if (!q) return rows;
  // Text search in code: SQLite's lower() knows only ASCII, and 'e' should also find 'é'.
  return rows.filter((o) =>
    [o.reference, o.name, o.email, o.phone, o.address, o.postal_code, o.city, o.notes ?? '', o.tabler_name ?? ''].some((field) => foldForSearch(field).includes(q)),
  );
}

/** Lower case without accents, for search. */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLocaleLowerCase('nl-NL');
}

async function requireOrder(ctx: RequestCtx, id: number) {
  const [row] = await ctx.db.select().from(orders).where(eq(orders.id, id)).limit(1);
  if (!row) throw new AppError(404, 'Bestelling niet gevonden.');
  return row;
}

const orderTarget = (order: { id: number; reference: string }) => `order:${order.id} (${order.reference})`;

/** spec §7 POST /orders/update?id=: the same body as create; the reference and invoice number stay. */
export async function updateOrder(ctx: RequestCtx, id: number, input: OrderInput): Promise<void> {
  requireManagement(ctx);
  const existing = await requireOrder(ctx, id);
  if (!isValidEmail(input.email)) throw badRequest(INVALID_EMAIL_NL);
  if (input.amount > BACK_OFFICE_MAX_AMOUNT) throw badRequest(`Het aantal kerstpakketten is maximaal ${BACK_OFFICE_MAX_AMOUNT}.`);
  if (input.tablerId === -1) throw badRequest('Onbekende tabler.');
  if (input.tablerId !== null) {
    const [tabler] = await ctx.db.select({ id: tablers.id }).from(tablers).where(eq(tablers.id, input.tablerId)).limit(1);
    if (!tabler) throw badRequest('Onbekende tabler.');
  }
  const next = { ...orderFields(input), paid: input.paid, invoiceSent: input.invoiceSent };
  // Old → new of the fields that change, under their API names.
  const changes: Record<string, [unknown, unknown]> = {};
  for (const [field, value] of Object.entries(next) as [keyof typeof next, unknown][]) {
    if (existing[field] !== value) changes[field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = [existing[field], value];
  }
  await ctx.db.batch([
    ctx.db
      .update(orders)
      .set({ ...next, updatedAt: ctx.clock.now().toISOString() })
      .where(eq(orders.id, id)),
    auditIfChanged(ctx, { action: 'order.updated', target: orderTarget(existing), details: changes }),
  ]);
}

export async function setOrderPaid(ctx: RequestCtx, id: number, paid: boolean): Promise<void> {
  requireManagement(ctx);
  const existing = await requireOrder(ctx, id);
  await ctx.db.batch([
    ctx.db.update(orders).set({ paid, updatedAt: ctx.clock.now().toISOString() }).where(and(eq(orders.id, id), ne(orders.paid, paid))),
    auditIfChanged(ctx, { action: paid ? 'order.paid' : 'order.unpaid', target: orderTarget(existing) }),
  ]);
}

/** An invoiced order stays: Dutch rules require keeping invoices (the number sequence has no gaps). */
export async function deleteOrder(ctx: RequestCtx, id: number): Promise<void> {
  requireManagement(ctx);
  const existing = await requireOrder(ctx, id);
  const [[row]] = await ctx.db.batch([
    ctx.db.delete(orders).where(and(eq(orders.id, id), isNull(orders.invoiceNumber))).returning({ id: orders.id }),
    auditIfChanged(ctx, { action: 'order.deleted', target: orderTarget(existing), details: { name: existing.name, amount: existing.amount, paid: existing.paid } }),
  ]);
  if (row) return;
  const [still] = await ctx.db.select({ id: orders.id }).from(orders).where(eq(orders.id, id)).limit(1);
  if (!still) throw new AppError(404, 'Bestelling niet gevonden.');
  throw new AppError(409, 'Een gefactureerde bestelling kan niet worden verwijderd.');
}
