import { idSchema } from '../../core/record-id';
import { describeRoute } from '../../http/openapi';
import { managementOnly, query, restRouter, type CtxOf } from '../../http/rest';
import { mailListSchema } from './mail.schemas';
import { listMail, retryMail } from './mail.service';

/** The admin's mail view over REST: GET /api/mail[?status=&page=&per_page=] and POST /api/mail/retry?id=. */
export function mailRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const manager = managementOnly(ctxOf);
  r.get('/api/mail', describeRoute({ answer: '{smtp_configured,notice,counts,messages:[],total,page,per_page}' }), manager, query(mailListSchema), async (c) =>
    c.json(await listMail(await ctxOf(c), c.req.valid('query')), 200, { 'Cache-Control': 'no-store' }),
  );
  r.post('/api/mail/retry', describeRoute({ answer: '{success:true,message,mail}' }), manager, query(idSchema), async (c) =>
    c.json(await retryMail(await ctxOf(c), c.req.valid('query').id)),
  );
  return r;
}
