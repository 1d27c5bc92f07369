import { adminOnly, restRouter, type CtxOf } from '../../http/rest';
import { parseInput } from '../../http/validate';
import { auditQuerySchema } from './audit.schemas';
import { listAudit } from './audit.service';

/** docs/architecture.md §5 GET /api/audit. */
export function auditRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.get('/api/audit', adminOnly(ctxOf), async (c) =>
    c.json(await listAudit(await ctxOf(c), parseInput(auditQuerySchema, c.req.query())), 200, { 'Cache-Control': 'no-store' }),
  );
  return r;
}
