import { AppError } from '../../core/errors';
import { idSchema } from '../../core/record-id';
import { describeRoute, documented } from '../../http/openapi';
import { attachmentResponse, jsonBody, managementOnly, query, restRouter, type CtxOf } from '../../http/rest';
import { parseInput, readLimitedText } from '../../http/validate';
import { storedDocument } from '../invoices/invoices.service';
import { mollieWebhookSchema, onlinePaymentListSchema, refundSchema } from './online-payments.schemas';
import { handleMollieWebhook, listOnlinePayments, orderIdForPage, orderStatus, payOrder, refundOrder } from './online-payments.service';

const NO_INVOICE_YET = 'Er is nog geen factuur voor deze bestelling.';

/** The customer's order page keeps no copy in any cache: it shows money and changes when Mollie calls. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * DESIGN §6 "The order page and online payment" (docs/decisions/066): the customer's order page and its
 * payment (public, opened with the order's own link), Mollie's webhook, and the back-office's list and refunds.
 */
export function onlinePaymentsRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const manager = managementOnly(ctxOf);
  r.get(
    '/api/order-status/:token',
    describeRoute({ access: 'public', answer: '{reference,name,amount,amount_incl,paid,paid_at,cancelled,invoice_number,refunded_amount,can_pay}' }),
    async (c) => c.json(await orderStatus(await ctxOf(c), c.req.param('token')), 200, NO_STORE),
  );
  r.get('/api/order-status/:token/invoice.pdf', describeRoute({ access: 'public', file: 'application/pdf' }), async (c) => {
    const ctx = await ctxOf(c);
    const pdf = await storedDocument(ctx, await orderIdForPage(ctx, c.req.param('token')), 'invoice', 'pdf');
    if (!pdf) throw new AppError('DOCUMENT_NOT_FOUND', NO_INVOICE_YET);
    return attachmentResponse(pdf.body, pdf);
  });
  r.post('/api/order-status/:token/pay', describeRoute({ access: 'public', answer: '{checkout_url}' }), async (c) =>
    c.json(await payOrder(await ctxOf(c), c.req.param('token')), 200, NO_STORE),
  );
  // Mollie posts a form with the payment's id and nothing else worth believing (docs/decisions/066).
  r.post(
    '/api/payments/mollie/webhook',
    describeRoute({ access: 'public', answer: '{success:true}' }),
    documented({ urlencoded: mollieWebhookSchema }, async (_c, next) => next()),
    async (c) => {
      const form = Object.fromEntries(new URLSearchParams(await readLimitedText(c.req.raw)));
      const { id } = parseInput(mollieWebhookSchema, form);
      await handleMollieWebhook(await ctxOf(c), id);
      return c.json({ success: true });
    },
  );
  r.get(
    '/api/payments/online',
    describeRoute({
      answer:
        '{payments:[{id,provider_id,order_id,reference,status,amount,refunded_amount,charged_back_amount,double_payment,created_at,paid_at}],total,page,per_page}',
    }),
    manager,
    query(onlinePaymentListSchema),
    async (c) => c.json(await listOnlinePayments(await ctxOf(c), c.req.valid('query')), 200, NO_STORE),
  );
  r.post('/orders/refund', describeRoute({ answer: '{success:true,refunded_amount}' }), manager, query(idSchema), jsonBody(refundSchema), async (c) =>
    c.json(await refundOrder(await ctxOf(c), c.req.valid('query').id, c.req.valid('json').amount)),
  );
  return r;
}
