import { restRouter, type CtxOf } from '../../http/rest';
import { parseInput, readJsonBody } from '../../http/validate';
import { orderInputSchema } from './orders.schemas';
import { createOrder } from './orders.service';

/** DESIGN §4 POST /orders/create (public, forced unpaid; or admin with every field). */
export function ordersRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.post('/orders/create', async (c) => {
    const ctx = await ctxOf(c);
    const order = await createOrder(ctx, parseInput(orderInputSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true, order_reference: order.reference });
  });
  return r;
}
