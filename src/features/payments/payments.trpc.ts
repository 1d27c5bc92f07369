import { managementProcedure, router } from '../../trpc/init';
import { listFollowUps, resolveFollowUp } from './follow-ups.service';
import { orderBalance } from './order-balance';
import { importIdSchema, orderIdSchema, orderLookupSchema, resolveFollowUpSchema } from './payments.schemas';
import { confirmImport, importEntries, listImports, paymentForOrder } from './payments.service';

/** The tRPC side of docs/architecture.md §5 payments; the statement upload itself is REST only (a file). */
export const paymentsRouter = router({
  confirm: managementProcedure.input(importIdSchema).mutation(({ ctx, input }) => confirmImport(ctx, input.import_id)),
  imports: managementProcedure.query(({ ctx }) => listImports(ctx)),
  entries: managementProcedure.input(importIdSchema).query(({ ctx, input }) => importEntries(ctx, input.import_id)),
  /** The bank booking that paid an order, for the order's detail view. */
  forOrder: managementProcedure.input(orderIdSchema).query(({ ctx, input }) => paymentForOrder(ctx, input.order_id)),
  /** docs/decisions/057: the open follow-ups, their resolution, and an order's paid-so-far and still-open. */
  followUps: managementProcedure.query(({ ctx }) => listFollowUps(ctx)),
  resolve: managementProcedure.input(resolveFollowUpSchema).mutation(({ ctx, input }) => resolveFollowUp(ctx, input)),
  order: managementProcedure.input(orderLookupSchema).query(({ ctx, input }) => orderBalance(ctx, input)),
});
