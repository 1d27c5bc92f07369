import { idSchema } from '../../core/record-id';
import { managementOnly, restRouter, type CtxOf } from '../../http/rest';
import { parseInput, readJsonBody } from '../../http/validate';
import { orderInputSchema, orderListSchema } from './orders.schemas';
import { createOrder, deleteOrder, listOrders, listOrdersPage, updateOrder } from './orders.service';

/** docs/architecture.md §4 /orders: create (public, forced unpaid; or admin with every field), list, update, delete. */
export function ordersRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const manager = managementOnly(ctxOf);
  r.get('/orders', manager, async (c) => {
    const ctx = await ctxOf(c);
    const input = parseInput(orderListSchema, c.req.query());
    // docs/architecture.md §5: without `page` the whole (filtered) list as before, with it one page and the count.
    const body = input.page === undefined ? await listOrders(ctx, input) : await listOrdersPage(ctx, input);
    return c.json(body, 200, { 'Cache-Control': 'no-store' });
  });
  r.post('/orders/update', manager, async (c) => {
    const ctx = await ctxOf(c);
    const { id } = parseInput(idSchema, { id: c.req.query('id') });
    await updateOrder(ctx, id, parseInput(orderInputSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true });
  });
  r.post('/orders/delete', manager, async (c) => {
    await deleteOrder(await ctxOf(c), parseInput(idSchema, { id: c.req.query('id') }).id);
    return c.json({ success: true });
  });
  r.post('/orders/create', async (c) => {
    const ctx = await ctxOf(c);
    const order = await createOrder(ctx, parseInput(orderInputSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true, order_reference: order.reference });
  });
  return r;
}
