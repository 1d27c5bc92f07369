import { AppError } from '../../core/errors';
import { idSchema } from '../../core/record-id';
import { describeRoute } from '../../http/openapi';
import { attachmentResponse, jsonBody, managementOnly, query, restRouter, type CtxOf } from '../../http/rest';
import { bulkSchema, runBulk } from './bulk.service';
import { creditInvoice, getStoredPdf, issuedUbl, sendInvoice, sendReminder } from './invoices.service';
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
  for (const [path, which, missing, prefix] of [
    ['/orders/invoice.pdf', 'invoice', NO_INVOICE_YET, 'Factuur'],
    ['/orders/credit-note.pdf', 'credit_note', NO_CREDIT_NOTE, 'Creditnota'],
  ] as const) {
    r.get(path, describeRoute({ file: 'application/pdf' }), manager, id, async (c) => {
      const pdf = await getStoredPdf(await ctxOf(c), c.req.valid('query').id, which);
      if (!pdf) throw new AppError('DOCUMENT_NOT_FOUND', missing);
      return attachmentResponse(pdf.body, { contentType: 'application/pdf', size: pdf.size, filename: `${prefix}-${pdf.number}.pdf` });
    });
  }
  // DESIGN §6 "The books and safety": the same documents as UBL for an accounting package (docs/decisions/077).
  for (const [path, which, missing, prefix] of [
    ['/orders/invoice.xml', 'invoice', NO_INVOICE_YET, 'Factuur'],
    ['/orders/credit-note.xml', 'credit_note', NO_CREDIT_NOTE, 'Creditnota'],
  ] as const) {
    r.get(path, describeRoute({ file: 'application/xml' }), manager, id, async (c) => {
      const ubl = await issuedUbl(await ctxOf(c), c.req.valid('query').id, which);
      if (!ubl) throw new AppError('DOCUMENT_NOT_FOUND', missing);
      return c.body(ubl.xml, 200, {
        'Content-Type': 'application/xml; charset=utf-8',
        'Content-Disposition': `attachment; filename="${prefix}-${ubl.number}.xml"`,
        'Cache-Control': 'no-store',
      });
    });
  }
  return r;
}
