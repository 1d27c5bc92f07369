import { AppError } from '../../core/errors';
import { idSchema } from '../../core/record-id';
import { describeRoute } from '../../http/openapi';
import { attachmentResponse, jsonBody, managementOnly, query, restRouter, type CtxOf } from '../../http/rest';
import { bulkSchema, runBulk } from './bulk.service';
import { creditInvoice, getStoredDocument, sendInvoice, sendReminder } from './invoices.service';
import { reminderOptionsSchema } from './invoices.schemas';
import { orderTotals } from './totals.service';

export const NO_INVOICE_YET = 'Er is nog geen factuur voor deze bestelling.';
export const NO_CREDIT_NOTE = 'Er is geen creditnota voor deze bestelling.';

/**
 * docs/product.md §7 POST /orders/sendInvoice?id= (docs/architecture.md §4) and docs/architecture.md §5: credit notes, reminders, bulk actions,
 * totals, and the stored PDFs for the back-office to open.
 */
export function invoicesRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const manager = managementOnly(ctxOf);
  const id = query(idSchema);
  r.post('/orders/sendInvoice', describeRoute({ answer: '{success:true,invoice_number,queued,message,mail_id}' }), manager, id, async (c) =>
    c.json(await sendInvoice(await ctxOf(c), c.req.valid('query').id)),
  );
  r.post('/orders/creditInvoice', describeRoute({ answer: '{success:true,credit_note_number,queued,message}' }), manager, id, async (c) =>
    c.json(await creditInvoice(await ctxOf(c), c.req.valid('query').id)),
  );
  r.post('/orders/sendReminder', describeRoute({ answer: '{success:true,queued,message}' }), manager, id, jsonBody(reminderOptionsSchema), async (c) =>
    c.json(await sendReminder(await ctxOf(c), c.req.valid('query').id, c.req.valid('json'))),
  );
  r.post('/orders/bulk', describeRoute({ answer: '{success:true,results:[{id,success,error?,due_date?}]}' }), manager, jsonBody(bulkSchema), async (c) =>
    c.json(await runBulk(await ctxOf(c), c.req.valid('json'))),
  );
  r.get(
    '/orders/totals',
    describeRoute({
      answer:
        '{orders,packages,revenue_excl,revenue_incl,paid:{orders,amount_incl},open:{orders,amount_incl},part_paid:{orders,amount_incl},invoices_sent,per_tabler:[{tabler_id,tabler_name,orders,packages,amount_incl,paid_amount_incl}],per_day:[]}',
    }),
    manager,
    async (c) => c.json(await orderTotals(await ctxOf(c)), 200, { 'Cache-Control': 'no-store' }),
  );
  // The stored PDFs, and (DESIGN §6 "The books and safety") the same documents as UBL for an accounting package
  // (docs/decisions/077).
  for (const [path, which, format, missing] of [
    ['/orders/invoice.pdf', 'invoice', 'pdf', NO_INVOICE_YET],
    ['/orders/credit-note.pdf', 'credit_note', 'pdf', NO_CREDIT_NOTE],
    ['/orders/invoice.xml', 'invoice', 'xml', NO_INVOICE_YET],
    ['/orders/credit-note.xml', 'credit_note', 'xml', NO_CREDIT_NOTE],
  ] as const) {
    r.get(path, describeRoute({ file: format === 'pdf' ? 'application/pdf' : 'application/xml' }), manager, id, async (c) => {
      const document = await getStoredDocument(await ctxOf(c), c.req.valid('query').id, which, format);
      if (!document) throw new AppError('DOCUMENT_NOT_FOUND', missing);
      return attachmentResponse(document.body, document);
    });
  }
  return r;
}
