import { describeRoute } from '../../http/openapi';
import { adminOnly, query, restRouter, type CtxOf } from '../../http/rest';
import { auditQuerySchema } from './audit.schemas';
import { listAudit } from './audit.service';

/** GET /api/audit: the audit log, newest first, filtered and paged. */
export function auditRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.get(
    '/api/audit',
    describeRoute({ answer: '{entries:[{id,at,actor_id,actor_username,action,target,details,ip}],total,page,per_page}' }),
    adminOnly(ctxOf),
    query(auditQuerySchema),
    async (c) => c.json(await listAudit(await ctxOf(c), c.req.valid('query')), 200, { 'Cache-Control': 'no-store' }),
  );
  return r;
}
