import { and, eq, sql } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { orders, sequences, tablers } from '../../db/schema';
import { AppError, badRequest } from '../../http/errors';
import { enqueueMail } from '../../platform/mail';
import { enforceRateLimit, type RateLimitRule } from '../../platform/rate-limit';
import { hasPermission, PERMISSIONS } from '../auth/permissions';
import { INVALID_EMAIL_NL } from '../contact/contact.service';
import { isValidEmail } from '../account/account.schemas';
import { refuseDuringMaintenance } from '../settings/maintenance';
import { getIntegerSetting, getStringSetting } from '../settings/settings.service';
import { campaignYear } from './order-reference';
import type { OrderInput } from './orders.schemas';

export const PUBLIC_ORDER_LIMIT_PER_ADDRESS: RateLimitRule = { limit: 20, windowMs: 60 * 60 * 1000 };
/** DESIGN §3: a public order holds 1–500 packages; spec §9: the back-office 1–10. */
export const PUBLIC_MAX_QUANTITY = 500;
export const BACK_OFFICE_MAX_AMOUNT = 10;

/**
 * spec §7 POST /orders/create; DESIGN §3: a public order is always unpaid with no invoice sent and needs
 * an existing tabler; an admin may set every field. The reference comes from a per-year sequence in the
 * same batch as the insert, so references are unique, gap-free and never reused.
 */
export async function createOrder(ctx: RequestCtx, input: OrderInput): Promise<{ reference: string; id: number }> {
  const isAdmin = hasPermission(ctx.user, PERMISSIONS.adminAccess);
  if (!isAdmin) {
    await refuseDuringMaintenance(ctx);
    await enforceRateLimit(ctx.db, ctx.clock, `order-create:ip:${ctx.ip}`, PUBLIC_ORDER_LIMIT_PER_ADDRESS, 'Te veel bestellingen vanaf dit adres. Probeer het later opnieuw.');
  }
  if (!isValidEmail(input.email)) throw badRequest(INVALID_EMAIL_NL);
  const max = isAdmin ? BACK_OFFICE_MAX_AMOUNT : PUBLIC_MAX_QUANTITY;
  if (input.amount > max) throw badRequest(`Het aantal kerstpakketten is maximaal ${max}.`);
  if (input.tablerId === -1) throw badRequest('Onbekende tabler.');
  if (input.tablerId === null) {
    if (!isAdmin) throw badRequest('Kies eerst een tabler.');
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
        reference: sql`'KP-' || ${year} || '-' || printf('%04d', (SELECT ${sequences.value} FROM ${sequences} WHERE ${sequence}))`,
        tablerId: input.tablerId,
        name: input.name,
        email: input.email,
        phone: input.phone,
        address: input.address,
        postalCode: input.postalCode,
        city: input.city,
        amount: input.amount,
        notes: input.notes,
        paid: isAdmin ? input.paid : false,
        invoiceSent: isAdmin ? input.invoiceSent : false,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .returning({ id: orders.id, reference: orders.reference }),
  ]);
  const order = inserted[0];
  if (!order) throw new AppError(500, 'Order could not be stored');

  if (!isAdmin) await sendOrderConfirmation(ctx, order.reference, input);
  return order;
}

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
    `Naam: ${input.name}`,
    `Telefoon: ${input.phone}`,
    `Adres: ${input.address}, ${input.postalCode} ${input.city}`,
    ...(input.notes ? [`Opmerkingen: ${input.notes}`] : []),
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
