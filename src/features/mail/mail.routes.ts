import { idSchema } from '../../core/record-id';
import { managementOnly, restRouter, type CtxOf } from '../../http/rest';
import { parseInput } from '../../http/validate';
import { mailListSchema } from './mail.schemas';
import { listMail, retryMail } from './mail.service';

/** The admin's mail view over REST: GET /api/mail[?status=&page=&per_page=] and POST /api/mail/retry?id=. */
export function mailRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const manager = managementOnly(ctxOf);
  r.get('/api/mail', manager, async (c) =>
    c.json(await listMail(await ctxOf(c), parseInput(mailListSchema, c.req.query())), 200, { 'Cache-Control': 'no-store' }),
  );
  r.post('/api/mail/retry', manager, async (c) => {
    const { id } = parseInput(idSchema, { id: c.req.query('id') });
    return c.json(await retryMail(await ctxOf(c), id));
  });
  return r;
}
