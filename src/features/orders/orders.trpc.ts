import { publicProcedure, router } from '../../trpc/init';
import { orderInputSchema } from './orders.schemas';
import { createOrder } from './orders.service';

export const ordersRouter = router({
  create: publicProcedure.input(orderInputSchema).mutation(async ({ ctx, input }) => ({
    success: true as const,
    order_reference: (await createOrder(ctx, input)).reference,
  })),
});
