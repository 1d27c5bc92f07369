import { adminProcedure, managementProcedure, router } from '../../trpc/init';
import { onlinePaymentListSchema, refundOrderSchema } from './online-payments.schemas';
import { listOnlinePayments, mollieKeyStatus, refundOrder } from './online-payments.service';

/** The back-office's side of docs/decisions/066; the order page and the webhook are REST only (public links, Mollie). */
export const onlinePaymentsRouter = router({
  list: managementProcedure.input(onlinePaymentListSchema).query(({ ctx, input }) => listOnlinePayments(ctx, input)),
  refund: managementProcedure.input(refundOrderSchema).mutation(({ ctx, input }) => refundOrder(ctx, input.id, input.amount)),
  /** For the settings screen: whether a key is stored and when Mollie last refused it. */
  keyStatus: adminProcedure.query(({ ctx }) => mollieKeyStatus(ctx)),
});
