import { idSchema } from '../../core/record-id';
import { describeRoute, SUCCESS } from '../../http/openapi';
import { attachmentResponse, jsonBody, managementOnly, query, restRouter, type CtxOf } from '../../http/rest';
import { deliveredSchema, deliveryListSchema } from './delivery.schemas';
import { deliveryListPdf, setOrderDelivered } from './delivery.service';

/** docs/architecture.md §5 "Members and delivery": the delivered mark and a tabler's delivery list. */
export function deliveryRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const manager = managementOnly(ctxOf);
  r.post('/orders/setDelivered', describeRoute({ answer: SUCCESS }), manager, query(idSchema), jsonBody(deliveredSchema), async (c) => {
    await setOrderDelivered(await ctxOf(c), c.req.valid('query').id, c.req.valid('json').delivered);
    return c.json({ success: true });
  });
  r.get('/orders/delivery-list.pdf', describeRoute({ file: 'application/pdf' }), manager, query(deliveryListSchema), async (c) => {
    const { fileName, pdf } = await deliveryListPdf(await ctxOf(c), c.req.valid('query').tabler_id);
    return attachmentResponse(pdf, { contentType: 'application/pdf', size: pdf.byteLength, filename: fileName });
  });
  return r;
}
