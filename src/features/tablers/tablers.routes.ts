import { describeRoute, SUCCESS } from '../../http/openapi';
import { jsonBody, managementOnly, query, restRouter, type CtxOf } from '../../http/rest';
import { idSchema } from '../../core/record-id';
import { matchSchema, tablerNameSchema } from './tablers.schemas';
import { createTabler, deleteTabler, listTablers, matchTabler, renameTabler } from './tablers.service';

/** /tablers (the list and its changes, mgmt) and /tablers/match (the public gate). */
export function tablersRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const manager = managementOnly(ctxOf);
  r.post('/tablers/create', describeRoute({ answer: '{success:true,tabler}' }), manager, jsonBody(tablerNameSchema), async (c) => {
    const tabler = await createTabler(await ctxOf(c), c.req.valid('json').name);
    return c.json({ success: true, tabler });
  });
  r.post('/tablers/update', describeRoute({ answer: '{success:true,tabler}' }), manager, query(idSchema), jsonBody(tablerNameSchema), async (c) => {
    const tabler = await renameTabler(await ctxOf(c), c.req.valid('query').id, c.req.valid('json').name);
    return c.json({ success: true, tabler });
  });
  r.post('/tablers/delete', describeRoute({ answer: SUCCESS }), manager, query(idSchema), async (c) => {
    await deleteTabler(await ctxOf(c), c.req.valid('query').id);
    return c.json({ success: true });
  });
  r.get('/tablers', describeRoute({ answer: '[{id,name,created_at,updated_at}]' }), manager, async (c) =>
    c.json(await listTablers(await ctxOf(c)), 200, { 'Cache-Control': 'no-store' }),
  );
  r.post('/tablers/match', describeRoute({ access: 'public', answer: '{success:true,tabler:{id,name},gate_token}' }), jsonBody(matchSchema), async (c) => {
    const match = await matchTabler(await ctxOf(c), c.req.valid('json').password);
    return c.json({ success: true, ...match });
  });
  return r;
}
