import { adminOnly, restRouter, type CtxOf } from '../../http/rest';
import { parseInput, readJsonBody } from '../../http/validate';
import { matchSchema } from './tablers.schemas';
import { listTablers, matchTabler } from './tablers.service';

/** DESIGN §4 /tablers (admin list) and /tablers/match (public gate). */
export function tablersRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.get('/tablers', adminOnly(ctxOf), async (c) => c.json(await listTablers(await ctxOf(c)), 200, { 'Cache-Control': 'no-store' }));
  r.post('/tablers/match', async (c) => {
    const ctx = await ctxOf(c);
    const tabler = await matchTabler(ctx, parseInput(matchSchema, await readJsonBody(c.req.raw)).password);
    return c.json({ success: true, tabler });
  });
  return r;
}
