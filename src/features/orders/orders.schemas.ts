import * as z from 'zod';
import { nameHasLink, NAME_LINK_MESSAGE } from './order-name';

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is verplicht.` })
    .trim()
    .min(1, { error: `${label} is verplicht.` })
    .max(max, { error: `${label} is te lang (maximaal ${max} tekens).` });

export const QUANTITY_MESSAGE = 'Aantal kerstpakketten is verplicht en moet groter dan 0 zijn.';

const quantity = z
  .union([z.number(), z.string()], { error: QUANTITY_MESSAGE })
  .transform((v, ctx) => {
    const n = typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v);
    if (!Number.isInteger(n) || n < 1) {
      ctx.addIssue({ code: 'custom', message: QUANTITY_MESSAGE });
      return z.NEVER;
    }
    return n;
  });

/**
 * spec §7 POST /orders/create. The public form calls postal_code 'postalCode' and amount 'quantity'
 * (spec §3); both spellings are accepted. Labels and messages of spec §5.
 */
export const orderInputSchema = z
  .object({
    tabler_id: z.union([z.number(), z.string(), z.null()]).optional(),
    name: required('Naam', 100).refine((name) => !nameHasLink(name), { error: NAME_LINK_MESSAGE }),
    email: required('Email', 254),
    phone: required('Telefoon', 40),
    address: required('Adres', 200),
    postal_code: z.string().optional(),
    postalCode: z.string().optional(),
    city: required('Plaats', 100),
    amount: quantity.optional(),
    quantity: quantity.optional(),
    notes: z.string().max(2000, { error: 'Opmerkingen zijn te lang (maximaal 2000 tekens).' }).nullish(),
    paid: z.boolean().optional(),
    invoice_sent: z.boolean().optional(),
    // DESIGN §5: the token /tablers/match handed out; an invalid one is ignored, never an error.
    gate_token: z.string().max(200).optional().catch(undefined),
  })
  .transform((o, ctx) => {
    const postal = (o.postal_code ?? o.postalCode ?? '').trim();
    if (postal === '') {
      ctx.addIssue({ code: 'custom', path: ['postal_code'], message: 'Postcode is verplicht.' });
      return z.NEVER;
    }
    if (postal.length > 20) {
      ctx.addIssue({ code: 'custom', path: ['postal_code'], message: 'Postcode is te lang (maximaal 20 tekens).' });
      return z.NEVER;
    }
    const tablerRaw = o.tabler_id;
    const tablerId = tablerRaw === undefined || tablerRaw === null || tablerRaw === '' ? null : Number(tablerRaw);
    return {
      tablerId: tablerId !== null && Number.isSafeInteger(tablerId) && tablerId > 0 ? tablerId : tablerId === null ? null : -1,
      name: o.name,
      email: o.email,
      phone: o.phone,
      address: o.address,
      postalCode: postal,
      city: o.city,
      amount: o.amount ?? o.quantity ?? 1,
      notes: o.notes?.trim() ? o.notes.trim() : null,
      paid: o.paid ?? false,
      invoiceSent: o.invoice_sent ?? false,
      gateToken: o.gate_token ?? null,
    };
  });
export type OrderInput = z.output<typeof orderInputSchema>;

const flag = z
  .enum(['true', 'false', '1', '0'], { error: 'Filter must be true or false' })
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1'));

export const ORDER_SORTS = ['created_at', 'reference', 'name', 'amount', 'paid', 'tabler_name'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];
export const DEFAULT_PER_PAGE = 50;
/** DESIGN §5: a page holds at most 200 orders; a larger per_page is capped, not refused. */
export const MAX_PER_PAGE = 200;

const positive = (label: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,8}$/, { error: `${label} must be a positive whole number` })
    .transform(Number)
    .optional();

/** GET /orders filters and paging (query strings; the tRPC twin sends the same as text). */
export const orderListSchema = z.object({
  paid: flag,
  invoice_sent: flag,
  cancelled: flag,
  delivered: flag,
  /** issue 13 'Achterstallig': invoiced, unpaid, not credited, past the payment term. */
  overdue: flag,
  tabler_id: z
    .string()
    .regex(/^(none|[1-9]\d{0,15})$/, { error: 'Invalid tabler_id' })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'none' ? ('none' as const) : Number(v))),
  q: z.string().max(200, { error: 'Search text is too long' }).optional(),
  page: positive('page'),
  per_page: positive('per_page').transform((v) => (v === undefined ? undefined : Math.min(v, MAX_PER_PAGE))),
  sort: z.enum(ORDER_SORTS, { error: `sort must be one of ${ORDER_SORTS.join(', ')}` }).optional(),
  dir: z.enum(['asc', 'desc'], { error: 'dir must be asc or desc' }).optional(),
});
export type OrderListInput = Partial<z.output<typeof orderListSchema>>;
/** The filters alone (the CSV export takes the same). */
export const orderFiltersSchema = orderListSchema.omit({ page: true, per_page: true, sort: true, dir: true });

export const paidSchema = z.object({ paid: z.boolean({ error: 'paid must be true or false' }) });
