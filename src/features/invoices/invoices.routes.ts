import { AppError } from '../../http/errors';
import { idSchema } from '../../http/record-id';
import { managementOnly, restRouter, type CtxOf } from '../../http/rest';
import { parseInput } from '../../http/validate';
import { getInvoicePdf, sendInvoice } from './invoices.service';

export const NO_INVOICE_YET = 'Er is nog geen factuur voor deze bestelling.';

/** spec §7 POST /orders/sendInvoice?id= (DESIGN §4), and the stored PDF for the back-office to open. */
export function invoicesRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const manager = managementOnly(ctxOf);
  r.post('/orders/sendInvoice', manager, async (c) => {
    const { id } = parseInput(idSchema, { id: c.req.query('id') });
    return c.json(await sendInvoice(await ctxOf(c), id));
  });
  r.get('/orders/invoice.pdf', manager, async (c) => {
    const { id } = parseInput(idSchema, { id: c.req.query('id') });
    const pdf = await getInvoicePdf(await ctxOf(c), id);
    if (!pdf) throw new AppError(404, NO_INVOICE_YET);
    return new Response(pdf.body as unknown as BodyInit, {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Length': String(pdf.size),
        'Content-Disposition': `attachment; filename="Factuur-${pdf.invoiceNumber}.pdf"`,
        'Cache-Control': 'no-store',
      },
    });
  });
  return r;
}
