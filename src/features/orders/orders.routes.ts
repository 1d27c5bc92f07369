import { idSchema } from '../../core/record-id';
import { describeRoute, SUCCESS } from '../../http/openapi';
import { jsonBody, managementOnly, query, restRouter, type CtxOf } from '../../http/rest';
import { parseInput } from '../../http/validate';
import { idempotencyKeySchema, orderInputSchema, orderListSchema } from './orders.schemas';
import { createOrder, deleteOrder, listOrders, listOrdersPage, updateOrder } from './orders.service';

const ORDER = '{id,tabler_id,tabler_name,reference,name,email,phone,address,postal_code,city,amount,notes,paid,invoice_sent,created_at}';

/** /orders: create (public, forced unpaid; or mgmt with every field), list, update, delete. */
export function ordersRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const manager = managementOnly(ctxOf);
  r.get('/orders', describeRoute({ answer: `[${ORDER}] | {orders:[${ORDER}],total,page,per_page}` }), manager, query(orderListSchema), async (c) => {
    const ctx = await ctxOf(c);
    const input = c.req.valid('query');
    // docs/architecture.md §5: without `page` the whole (filtered) list as before, with it one page and the count.
    const body = input.page === undefined ? await listOrders(ctx, input) : await listOrdersPage(ctx, input);
    return c.json(body, 200, { 'Cache-Control': 'no-store' });
  });
  r.post('/orders/update', describeRoute({ answer: SUCCESS }), manager, query(idSchema), jsonBody(orderInputSchema), async (c) => {
    await updateOrder(await ctxOf(c), c.req.valid('query').id, c.req.valid('json'));
    return c.json({ success: true });
  });
  r.post('/orders/delete', describeRoute({ answer: SUCCESS }), manager, query(idSchema), async (c) => {
    await deleteOrder(await ctxOf(c), c.req.valid('query').id);
    return c.json({ success: true });
  });
  r.post(
    '/orders/create',
    describeRoute({ access: 'public', answer: '{success:true,order_reference,order_url}', headers: { 'Idempotency-Key': idempotencyKeySchema } }),
    jsonBody(orderInputSchema),
    async (c) => {
      // DESIGN §6 "The door": a retried request with the same Idempotency-Key answers the same order (docs/decisions/068).
      const key = c.req.header('Idempotency-Key');
      const order = await createOrder(await ctxOf(c), c.req.valid('json'), key === undefined ? null : parseInput(idempotencyKeySchema, key));
      return c.json({ success: true, order_reference: order.reference, order_url: order.orderUrl });
    },
  );
  return r;
}
