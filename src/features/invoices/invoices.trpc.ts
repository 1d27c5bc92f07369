import { idSchema } from '../../http/record-id';
import { managementProcedure, router } from '../../trpc/init';
import { sendInvoice } from './invoices.service';

/** The tRPC twin of POST /orders/sendInvoice?id= (the PDF itself is a plain GET /orders/invoice.pdf?id=). */
export const invoicesRouter = router({
  send: managementProcedure.input(idSchema).mutation(({ ctx, input }) => sendInvoice(ctx, input.id)),
});
