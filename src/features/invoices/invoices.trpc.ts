import { idSchema } from '../../core/record-id';
import { managementProcedure, router } from '../../trpc/init';
import { bulkSchema, runBulk } from './bulk.service';
import { creditInvoice, invoiceReadiness, sendInvoice, sendReminder } from './invoices.service';
import { reminderOptionsSchema } from './invoices.schemas';
import { orderTotals } from './totals.service';

/** The tRPC twins of docs/architecture.md §4/§5's invoice calls (the PDFs themselves are plain GETs). */
export const invoicesRouter = router({
  send: managementProcedure.input(idSchema).mutation(({ ctx, input }) => sendInvoice(ctx, input.id)),
  credit: managementProcedure.input(idSchema).mutation(({ ctx, input }) => creditInvoice(ctx, input.id)),
  remind: managementProcedure.input(idSchema.extend(reminderOptionsSchema.shape)).mutation(({ ctx, input }) => sendReminder(ctx, input.id, input)),
  bulk: managementProcedure.input(bulkSchema).mutation(({ ctx, input }) => runBulk(ctx, input)),
  totals: managementProcedure.query(({ ctx }) => orderTotals(ctx)),
  /** Whether the club's IBAN, KvK number and VAT id allow sending invoices (the dashboard's banner). */
  readiness: managementProcedure.query(({ ctx }) => invoiceReadiness(ctx)),
});
