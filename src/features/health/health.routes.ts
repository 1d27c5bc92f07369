import type { AppDeps } from '../../context';
import { describeRoute } from '../../http/openapi';
import { restRouter } from '../../http/rest';
import { checkHealth } from './health.service';

/**
 * `GET /api/health` (public, docs/architecture.md §5): 200 while the database answers, else 503. It needs no
 * request context (no session, no settings), so its one statement is the only one it costs, and app.ts
 * mounts it before the Worker's start-up work, so a database that is down gets a 503 here, not a 500.
 */
export function healthRoutes(deps: Pick<AppDeps, 'database' | 'log'>) {
  const r = restRouter();
  r.get('/api/health', describeRoute({ access: 'public', answer: '{ok,db,version}' }), async (c) => {
    const report = await checkHealth(deps.database, (error) =>
      deps.log.error('Health check: the database does not answer', { requestId: c.get('requestId'), error }),
    );
    return c.json(report, report.ok ? 200 : 503, { 'Cache-Control': 'no-store' });
  });
  return r;
}
