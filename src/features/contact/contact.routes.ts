import { restRouter, type CtxOf } from '../../http/rest';
import { parseInput, readJsonBody } from '../../http/validate';
import { contactSchema } from './contact.schemas';
import { sendContactMessage } from './contact.service';

export function contactRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.post('/contact/send', async (c) => {
    const ctx = await ctxOf(c);
    await sendContactMessage(ctx, parseInput(contactSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true });
  });
  return r;
}
