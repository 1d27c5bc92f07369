import * as z from 'zod';
import { orderListSchema } from '../orders/orders.schemas';

export const deliveredSchema = z.object({ delivered: z.boolean({ error: 'delivered must be true or false' }) });

/**
 * GET /orders/delivery-list.pdf?tabler_id=: a tabler's id, or `none` for the orders without one (the
 * same spelling as GET /orders' filter), read as null, which is what such an order holds.
 */
export const deliveryListSchema = z.object({
  tabler_id: orderListSchema.shape.tabler_id.transform((id, ctx) => {
    if (id === undefined) {
      ctx.addIssue({ code: 'custom', message: 'tabler_id is required' });
      return z.NEVER;
    }
    return id === 'none' ? null : id;
  }),
});
