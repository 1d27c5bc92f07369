import { managementOnly, restRouter, type CtxOf } from '../../http/rest';
import { parseInput, readJsonBody } from '../../http/validate';
import { idSchema } from '../../core/record-id';
import { matchSchema, tablerNameSchema } from './tablers.schemas';
import { createTabler, deleteTabler, listTablers, matchTabler, renameTabler } from './tablers.service';

/** docs/architecture.md §4 /tablers (admin list and changes) and /tablers/match (public gate). */
export function tablersRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const manager = managementOnly(ctxOf);
  r.post('/tablers/create', manager, async (c) => {
    const ctx = await ctxOf(c);
    const tabler = await createTabler(ctx, parseInput(tablerNameSchema, await readJsonBody(c.req.raw)).name);
    return c.json({ success: true, tabler });
  });
  r.post('/tablers/update', manager, async (c) => {
    const ctx = await ctxOf(c);
    const { id } = parseInput(idSchema, { id: c.req.query('id') });
    const tabler = await renameTabler(ctx, id, parseInput(tablerNameSchema, await readJsonBody(c.req.raw)).name);
    return c.json({ success: true, tabler });
  });
  r.post('/tablers/delete', manager, async (c) => {
    await deleteTabler(await ctxOf(c), parseInput(idSchema, { id: c.req.query('id') }).id);
    return c.json({ success: true });
  });
  r.get('/tablers', manager, async (c) => c.json(await listTablers(await ctxOf(c)), 200, { 'Cache-Control': 'no-store' }));
  r.post('/tablers/match', async (c) => {
    const ctx = await ctxOf(c);
    const match = await matchTabler(ctx, parseInput(matchSchema, await readJsonBody(c.req.raw)).password);
    return c.json({ success: true, ...match });
  });
  return r;
}
