import * as z from 'zod';
import {
  dutchPostcode,
  nameHasLink,
  NAME_LINK_MESSAGE,
  ORDER_LABELS,
  ORDER_MAX_LENGTHS,
  parseQuantity,
  QUANTITY_MESSAGE,
  requiredMessage,
  tooLongMessage,
} from '../../core/public-form-rules';
import { requiredText } from '../../core/public-form-schemas';
import { CUSTOMER_KVK_MESSAGE, CUSTOMER_VAT_MESSAGE, customerKvkNumber, customerVatId } from '../../core/business-ids';

// A whole number as sent or typed ('2.5' is refused, not read as 25 or 2): the rule the forms check too.
const quantity = z.union([z.number(), z.string()], { error: QUANTITY_MESSAGE }).transform((value, ctx) => {
  const parsed = parseQuantity(value);
  if (parsed.error !== null) {
    ctx.addIssue({ code: 'custom', message: parsed.error });
    return z.NEVER;
  }
  return parsed.quantity;
});

/**
 * The tabler an order form names: none, one by its id, or a value that can name no tabler. The last is
 * refused by the service ('Onbekende tabler.', as an id of no tabler is), after the checks that come before.
 */
/**
 * A business customer's number (docs/decisions/078): left out, it stays as it is (an update from a client that does not
 * know the field keeps it); empty or null, the order has none; else it must read as one, and is stored compacted.
 */
const businessId = (read: (raw: string) => string | null, message: string) =>
  z
    .string()
    .max(40, { error: message })
    .nullish()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      if (value === null || value.trim() === '') return null;
      const parsed = read(value);
      if (parsed === null) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return parsed;
    });

/**
 * What an issued invoice prints of an order, under the API's names: fixed once the invoice is issued (docs/decisions/018),
 * refused by the server and locked in the order dialog.
 */
export const INVOICED_FIELDS = ['name', 'email', 'address', 'postal_code', 'city', 'amount', 'customer_kvk_number', 'customer_vat_id'] as const;

export type TablerChoice = { kind: 'none' } | { kind: 'id'; id: number } | { kind: 'unknown' };

function tablerChoice(raw: number | string | null | undefined): TablerChoice {
  if (raw === undefined || raw === null || raw === '') return { kind: 'none' };
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? { kind: 'id', id } : { kind: 'unknown' };
}

/**
 * docs/product.md §7 POST /orders/create. The public form calls postal_code 'postalCode' and amount 'quantity'
 * (docs/product.md §3); both spellings are accepted. Labels and messages of docs/product.md §5.
 */
export const orderInputSchema = z
  .object({
    tabler_id: z.union([z.number(), z.string(), z.null()]).optional(),
    name: requiredText(ORDER_LABELS.name, ORDER_MAX_LENGTHS.name).refine((name) => !nameHasLink(name), { error: NAME_LINK_MESSAGE }),
    email: requiredText(ORDER_LABELS.email, ORDER_MAX_LENGTHS.email),
    phone: requiredText(ORDER_LABELS.phone, ORDER_MAX_LENGTHS.phone),
    address: requiredText(ORDER_LABELS.address, ORDER_MAX_LENGTHS.address),
    postal_code: z.string().optional(),
    postalCode: z.string().optional(),
    city: requiredText(ORDER_LABELS.city, ORDER_MAX_LENGTHS.city),
    amount: quantity.optional(),
    quantity: quantity.optional(),
    notes: z
      .string()
      .max(ORDER_MAX_LENGTHS.notes, { error: `${ORDER_LABELS.notes} zijn te lang (maximaal ${ORDER_MAX_LENGTHS.notes} tekens).` })
      .nullish(),
    customer_kvk_number: businessId(customerKvkNumber, CUSTOMER_KVK_MESSAGE),
    customer_vat_id: businessId(customerVatId, CUSTOMER_VAT_MESSAGE),
    paid: z.boolean().optional(),
    invoice_sent: z.boolean().optional(),
    // docs/architecture.md §5: the token /tablers/match handed out; an invalid one is ignored, never an error.
    gate_token: z.string().max(200).optional().catch(undefined),
    // docs/decisions/070: a tabler's own order link; the order is that tabler's, whatever tabler_id says.
    seller_token: z.string().max(200).optional(),
  })
  .transform((o, ctx) => {
    const postal = (o.postal_code ?? o.postalCode ?? '').trim();
    if (postal === '') {
      ctx.addIssue({ code: 'custom', path: ['postal_code'], message: requiredMessage(ORDER_LABELS.postalCode) });
      return z.NEVER;
    }
    if (postal.length > ORDER_MAX_LENGTHS.postalCode) {
      ctx.addIssue({ code: 'custom', path: ['postal_code'], message: tooLongMessage(ORDER_LABELS.postalCode, ORDER_MAX_LENGTHS.postalCode) });
      return z.NEVER;
    }
    return {
      tabler: tablerChoice(o.tabler_id),
      name: o.name,
      email: o.email,
      phone: o.phone,
      address: o.address,
      // docs/architecture.md §6: a Dutch postcode is stored as '1234 AB' however it was typed; whether
      // anything else is refused is the service's call (the back-office takes foreign ones, docs/decisions/056).
      postalCode: dutchPostcode(postal) ?? postal,
      city: o.city,
      amount: o.amount ?? o.quantity ?? 1,
      notes: o.notes?.trim() ? o.notes.trim() : null,
      customerKvkNumber: o.customer_kvk_number,
      customerVatId: o.customer_vat_id,
      paid: o.paid ?? false,
      invoiceSent: o.invoice_sent ?? false,
      gateToken: o.gate_token ?? null,
      sellerToken: o.seller_token ?? null,
    };
  });
export type OrderInput = z.output<typeof orderInputSchema>;

/** DESIGN §6 "The door": the Idempotency-Key header of POST /orders/create, 1–255 visible ASCII characters. */
export const idempotencyKeySchema = z
  .string({ error: 'Idempotency-Key must be 1 to 255 visible ASCII characters' })
  .regex(/^[\x21-\x7e]{1,255}$/, { error: 'Idempotency-Key must be 1 to 255 visible ASCII characters' });

const flag = z
  .enum(['true', 'false', '1', '0'], { error: 'Filter must be true or false' })
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1'));

export const ORDER_SORTS = ['created_at', 'reference', 'name', 'amount', 'paid', 'tabler_name'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];
export const DEFAULT_PER_PAGE = 50;
/** docs/architecture.md §5: a page holds at most 200 orders; a larger per_page is capped, not refused. */
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
  /** docs/decisions/021 'Achterstallig': invoiced, unpaid, not credited, past the payment term. */
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
