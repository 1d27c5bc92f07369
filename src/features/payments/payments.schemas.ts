import { refusalText } from '../../core/input-issues';
import * as z from 'zod';
import { recordId } from '../../core/record-id';

/** POST /api/payments/confirm `{import_id}` and the tRPC calls about one import. */
export const importIdSchema = z.object(
  { import_id: recordId('Geef een geldig importnummer (import_id).') },
  { error: 'Geef een geldig importnummer (import_id).' },
);

/** GET /api/payments/imports?id= (one import with its lines; the list without it). */
export const importListSchema = z.object({ id: recordId('Geef een geldig importnummer (id).').optional() });

/** tRPC payments.forOrder `{order_id}`. */
export const orderIdSchema = z.object(
  { order_id: recordId('Geef een geldig bestelnummer (order_id).') },
  { error: 'Geef een geldig bestelnummer (order_id).' },
);

export const ORDER_CHOICE_MISSING = refusalText('ORDER_REQUIRED', 'Geef een bestelnummer (order_id) of een bestelkenmerk of factuurnummer (reference).');
export const REFERENCE_INVALID = refusalText('REFERENCE_INVALID', 'Geef een bestelkenmerk (KP-2026-0001) of een factuurnummer (F2026-0001).');

const reference = z.string({ error: REFERENCE_INVALID }).trim().min(1, REFERENCE_INVALID).max(40, REFERENCE_INVALID);

/** GET /api/payments/order?order_id=|reference= and tRPC payments.order: an order's paid-so-far, by id or by KP/F number. */
export const orderLookupSchema = z
  .object(
    {
      order_id: recordId('Geef een geldig bestelnummer (order_id).').optional(),
      reference: reference.optional(),
    },
    { error: ORDER_CHOICE_MISSING },
  )
  .refine((input) => input.order_id !== undefined || input.reference !== undefined, { error: ORDER_CHOICE_MISSING });

export const FOLLOW_UP_ACTIONS = ['part_payment', 'full_payment', 'dismiss'] as const;
export type FollowUpAction = (typeof FOLLOW_UP_ACTIONS)[number];

export const ENTRY_ID_INVALID = 'Geef een geldige bankboeking (entry_id).';
export const ACTION_INVALID = 'Kies wat er met deze betaling gebeurt (action): part_payment, full_payment of dismiss.';
export const REASON_TOO_LONG = 'De reden is te lang (hoogstens 500 tekens).';

/**
 * POST /api/payments/follow-ups/resolve and tRPC payments.resolve (docs/decisions/057): book an open follow-up
 * on an order as a part-payment or as full payment, or dismiss it with a reason. The order is the one the
 * remittance named unless `order_id` or `reference` names another (linking an unmatched credit).
 */
export const resolveFollowUpSchema = z.object(
  {
    entry_id: recordId(ENTRY_ID_INVALID),
    action: z.enum(FOLLOW_UP_ACTIONS, { error: ACTION_INVALID }),
    order_id: recordId('Geef een geldig bestelnummer (order_id).').optional(),
    reference: reference.optional(),
    reason: z.string({ error: 'De reden moet tekst zijn.' }).trim().max(500, REASON_TOO_LONG).optional(),
  },
  { error: ENTRY_ID_INVALID },
);

export type ImportIdInput = z.output<typeof importIdSchema>;
export type OrderLookupInput = z.output<typeof orderLookupSchema>;
export type ResolveFollowUpInput = z.output<typeof resolveFollowUpSchema>;
