import { AppError } from '../../core/errors';
import { idSchema } from '../../core/record-id';
import { attachmentResponse, managementOnly, restRouter, type CtxOf } from '../../http/rest';
import { parseInput, readJsonBody } from '../../http/validate';
import { bulkSchema, runBulk } from './bulk.service';
import { creditInvoice, getStoredPdf, sendInvoice, sendReminder } from './invoices.service';
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
  const orderId = (query: string | undefined) => parseInput(idSchema, { id: query }).id;
  r.post('/orders/sendInvoice', manager, async (c) => c.json(await sendInvoice(await ctxOf(c), orderId(c.req.query('id')))));
  r.post('/orders/creditInvoice', manager, async (c) => c.json(await creditInvoice(await ctxOf(c), orderId(c.req.query('id')))));
  r.post('/orders/sendReminder', manager, async (c) => {
    const id = orderId(c.req.query('id'));
    return c.json(await sendReminder(await ctxOf(c), id, parseInput(reminderOptionsSchema, await readJsonBody(c.req.raw))));
  });
  r.post('/orders/bulk', manager, async (c) => c.json(await runBulk(await ctxOf(c), parseInput(bulkSchema, await readJsonBody(c.req.raw)))));
  r.get('/orders/totals', manager, async (c) => c.json(await orderTotals(await ctxOf(c)), 200, { 'Cache-Control': 'no-store' }));
  for (const [path, which, missing, prefix] of [
    ['/orders/invoice.pdf', 'invoice', NO_INVOICE_YET, 'Factuur'],
    ['/orders/credit-note.pdf', 'credit_note', NO_CREDIT_NOTE, 'Creditnota'],
  ] as const) {
    r.get(path, manager, async (c) => {
      const pdf = await getStoredPdf(await ctxOf(c), orderId(c.req.query('id')), which);
      if (!pdf) throw new AppError('DOCUMENT_NOT_FOUND', missing);
      return attachmentResponse(pdf.body, { contentType: 'application/pdf', size: pdf.size, filename: `${prefix}-${pdf.number}.pdf` });
    });
  }
  return r;
}
