import * as z from 'zod';
import { refusalText } from '../../core/input-issues';
import { recordId } from '../../core/record-id';
import { orderListSchema } from '../orders/orders.schemas';

/** GET /api/payments/online?page=&per_page= (query strings, per_page capped at 200 as for the orders). */
export const onlinePaymentListSchema = orderListSchema.pick({ page: true, per_page: true });
export type OnlinePaymentListInput = z.infer<typeof onlinePaymentListSchema>;

const REFUND_AMOUNT = 'Geef een bedrag in euro’s van minstens € 0,01, met ten hoogste twee decimalen.';

/** POST /orders/refund?id= `{amount?}`: euros; absent means all that is left. */
export const refundSchema = z.object({
  amount: z
    .number({ error: REFUND_AMOUNT })
    .min(0.01, REFUND_AMOUNT)
    .max(1_000_000, REFUND_AMOUNT)
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, REFUND_AMOUNT)
    .optional(),
});

/** tRPC orders.refund `{id, amount?}`. */
export const refundOrderSchema = refundSchema.extend({ id: recordId('Geef een geldig bestelnummer (id).') });

/** The order page's token in the path: what /bestelling/<token> carries. */
export const orderTokenSchema = z.object({ token: z.string().min(1).max(200) });

const PAYMENT_ID_INVALID = refusalText('PAYMENT_ID_INVALID', 'Geef het id van een Mollie-betaling (tr_…).');

/** Mollie's webhook: a form with the payment's id. */
export const mollieWebhookSchema = z.object({
  id: z.string({ error: PAYMENT_ID_INVALID }).regex(/^tr_[A-Za-z0-9]{2,64}$/, PAYMENT_ID_INVALID),
});

/**
 * GET /api/order-status/<token>: what the customer's order page is told (DESIGN §6). One type for the server that
 * answers it and the page that reads it (web/routes/-public/order-status).
 */
export interface OrderStatusView {
  reference: string;
  /** The customer's name. */
  name: string;
  /** Packages. */
  amount: number;
  /** Euros, VAT included. */
  amount_incl: number;
  paid: boolean;
  paid_at: string | null;
  cancelled: boolean;
  invoice_number: string | null;
  /** Euros refunded so far. */
  refunded_amount: number;
  can_pay: boolean;
}
