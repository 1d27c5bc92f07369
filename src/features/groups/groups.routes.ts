import { adminOnly, restRouter, type CtxOf } from '../../http/rest';
import { parseInput, readJsonBody } from '../../http/validate';
import { idSchema } from '../../core/record-id';
import { addGroupSchema, groupPermissionsSchema } from './groups.schemas';
import { addGroup, addGroupPermissions, deleteGroup, getGroup, listGroups, removeGroupPermissions } from './groups.service';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** docs/architecture.md §4 /api/groups*: thin adapters over the groups service. */
export function groupsRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const admin = adminOnly(ctxOf);
  // docs/product.md §7: GET /api/groups lists them all; GET /api/groups?id= answers one with its permissions.
  r.get('/api/groups', admin, async (c) => {
    const ctx = await ctxOf(c);
    const id = c.req.query('id');
    if (id === undefined) return c.json({ groups: await listGroups(ctx) }, 200, NO_STORE);
    return c.json({ group: await getGroup(ctx, parseInput(idSchema, { id }).id) }, 200, NO_STORE);
  });
  r.post('/api/groups/addgroup', admin, async (c) => {
    const ctx = await ctxOf(c);
    const group = await addGroup(ctx, parseInput(addGroupSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true, group });
  });
  // docs/product.md §7: the delete is a GET; app.ts refuses it cross-site (STATE_CHANGING_GET_PATHS).
  r.get('/api/groups/deletegroup', admin, async (c) => {
    const ctx = await ctxOf(c);
    await deleteGroup(ctx, parseInput(idSchema, { id: c.req.query('id') }).id);
    return c.json({ success: true }, 200, NO_STORE);
  });
  r.post('/api/groups/addpermissions', admin, async (c) => {
    const ctx = await ctxOf(c);
    await addGroupPermissions(ctx, parseInput(groupPermissionsSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true });
  });
  r.post('/api/groups/removepermissions', admin, async (c) => {
    const ctx = await ctxOf(c);
    await removeGroupPermissions(ctx, parseInput(groupPermissionsSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true });
  });
  return r;
}
