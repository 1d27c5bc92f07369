import { idSchema } from '../../core/record-id';
import { managementOnly, restRouter, type CtxOf } from '../../http/rest';
import { parseInput, readJsonBody } from '../../http/validate';
import { deliveredSchema, deliveryListSchema } from './delivery.schemas';
import { deliveryListPdf, setOrderDelivered } from './delivery.service';

/** docs/architecture.md §5 "Members and delivery": the delivered mark and a tabler's delivery list. */
export function deliveryRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const manager = managementOnly(ctxOf);
  r.post('/orders/setDelivered', manager, async (c) => {
    const ctx = await ctxOf(c);
    const { id } = parseInput(idSchema, { id: c.req.query('id') });
    const { delivered } = parseInput(deliveredSchema, await readJsonBody(c.req.raw));
    await setOrderDelivered(ctx, id, delivered);
    return c.json({ success: true });
  });
  r.get('/orders/delivery-list.pdf', manager, async (c) => {
    const ctx = await ctxOf(c);
    const { tabler_id } = parseInput(deliveryListSchema, c.req.query());
    const { fileName, pdf } = await deliveryListPdf(ctx, tabler_id);
    // pdf-lib's bytes sit on a plain ArrayBuffer; its types only promise ArrayBufferLike.
    return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'application/pdf',
      'Content-Length': String(pdf.byteLength),
      'Content-Disposition': `attachment; filename="${fileName}"`,
      // Addresses and phone numbers: made for this request, kept by no cache.
      'Cache-Control': 'no-store',
    });
  });
  return r;
}
