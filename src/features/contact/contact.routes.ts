import { describeRoute, SUCCESS } from '../../http/openapi';
import { jsonBody, restRouter, type CtxOf } from '../../http/rest';
import { contactSchema } from './contact.schemas';
import { sendContactMessage } from './contact.service';

export function contactRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.post('/contact/send', describeRoute({ access: 'public', answer: SUCCESS }), jsonBody(contactSchema), async (c) => {
    const ctx = await ctxOf(c);
    await sendContactMessage(ctx, c.req.valid('json'));
    return c.json({ success: true });
  });
  return r;
}
