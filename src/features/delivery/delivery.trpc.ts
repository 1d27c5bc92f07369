import { idSchema } from '../../core/record-id';
import { managementProcedure, router } from '../../trpc/init';
import { deliveredSchema } from './delivery.schemas';
import { setOrderDelivered } from './delivery.service';

/** The tRPC twin of POST /orders/setDelivered (the delivery list itself is a plain GET of a PDF). */
export const deliveryRouter = router({
  setDelivered: managementProcedure.input(idSchema.extend(deliveredSchema.shape)).mutation(async ({ ctx, input }) => {
    await setOrderDelivered(ctx, input.id, input.delivered);
    return { success: true as const };
  }),
});
