import * as z from 'zod';
import { describeRoute, SUCCESS } from '../../http/openapi';
import { adminOnly, jsonBody, query, restRouter, type CtxOf } from '../../http/rest';
import { idSchema } from '../../core/record-id';
import { addGroupSchema, groupPermissionsSchema } from './groups.schemas';
import { addGroup, addGroupPermissions, deleteGroup, getGroup, listGroups, removeGroupPermissions } from './groups.service';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** GET /api/groups lists them all; with `?id=` it answers that one. */
const groupQuerySchema = z.object({ id: idSchema.shape.id.optional() });

/** /api/groups*: thin adapters over the groups service. */
export function groupsRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const admin = adminOnly(ctxOf);
  // docs/product.md §7: GET /api/groups lists them all; GET /api/groups?id= answers one with its permissions.
  r.get(
    '/api/groups',
    describeRoute({
      answer: '{groups:[{id,name,description,deletable}]} | {group:{id,name,description,deletable,permissions:[{id,key,description,deletable}]}}',
    }),
    admin,
    query(groupQuerySchema),
    async (c) => {
      const ctx = await ctxOf(c);
      const { id } = c.req.valid('query');
      if (id === undefined) return c.json({ groups: await listGroups(ctx) }, 200, NO_STORE);
      return c.json({ group: await getGroup(ctx, id) }, 200, NO_STORE);
    },
  );
  r.post('/api/groups/addgroup', describeRoute({ answer: '{success:true,group}' }), admin, jsonBody(addGroupSchema), async (c) => {
    const ctx = await ctxOf(c);
    const group = await addGroup(ctx, c.req.valid('json'));
    return c.json({ success: true, group });
  });
  // docs/product.md §7: the delete is a GET; app.ts refuses it cross-site (STATE_CHANGING_GET_PATHS).
  r.get('/api/groups/deletegroup', describeRoute({ answer: SUCCESS }), admin, query(idSchema), async (c) => {
    await deleteGroup(await ctxOf(c), c.req.valid('query').id);
    return c.json({ success: true }, 200, NO_STORE);
  });
  r.post('/api/groups/addpermissions', describeRoute({ answer: SUCCESS }), admin, jsonBody(groupPermissionsSchema), async (c) => {
    await addGroupPermissions(await ctxOf(c), c.req.valid('json'));
    return c.json({ success: true });
  });
  r.post('/api/groups/removepermissions', describeRoute({ answer: SUCCESS }), admin, jsonBody(groupPermissionsSchema), async (c) => {
    await removeGroupPermissions(await ctxOf(c), c.req.valid('json'));
    return c.json({ success: true });
  });
  return r;
}
