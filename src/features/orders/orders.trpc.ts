import * as z from 'zod';
import { idSchema } from '../../core/record-id';
import { managementProcedure, publicProcedure, router } from '../../trpc/init';
import { orderInputSchema, orderListSchema, paidSchema } from './orders.schemas';
import { createOrder, deleteOrder, listOrders, listOrdersPage, setOrderPaid, updateOrder } from './orders.service';

export const ordersRouter = router({
  create: publicProcedure.input(orderInputSchema).mutation(async ({ ctx, input }) => {
    const order = await createOrder(ctx, input);
    return { success: true as const, order_reference: order.reference, order_url: order.orderUrl };
  }),
  list: managementProcedure.input(orderListSchema.optional()).query(({ ctx, input }) => listOrders(ctx, input ?? {})),
  /** docs/architecture.md §5 paged list: { orders, total, page, per_page }. */
  page: managementProcedure.input(orderListSchema).query(({ ctx, input }) => listOrdersPage(ctx, input)),
  update: managementProcedure.input(z.object({ id: idSchema.shape.id, order: orderInputSchema })).mutation(async ({ ctx, input }) => {
    await updateOrder(ctx, input.id, input.order);
    return { success: true as const };
  }),
  setPaid: managementProcedure.input(idSchema.extend(paidSchema.shape)).mutation(async ({ ctx, input }) => {
    await setOrderPaid(ctx, input.id, input.paid);
    return { success: true as const };
  }),
  delete: managementProcedure.input(idSchema).mutation(async ({ ctx, input }) => {
    await deleteOrder(ctx, input.id);
    return { success: true as const };
  }),
});
