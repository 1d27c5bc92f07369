import { describeRoute, SUCCESS } from '../../http/openapi';
import { adminOnly, jsonBody, query, restRouter, type CtxOf } from '../../http/rest';
import { addPermissionSchema } from './permissions.schemas';
import { addPermission, deletePermission, listPermissions } from './permissions.service';
import { idSchema } from '../../core/record-id';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** /api/permissions*: thin adapters over the permissions service. */
export function permissionsRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const admin = adminOnly(ctxOf);
  r.get('/api/permissions', describeRoute({ answer: '{permissions:[{id,key,description,deletable}]}' }), admin, async (c) =>
    c.json({ permissions: await listPermissions(await ctxOf(c)) }, 200, NO_STORE),
  );
  r.post('/api/permissions/add', describeRoute({ answer: '{success:true,permission}' }), admin, jsonBody(addPermissionSchema), async (c) => {
    const permission = await addPermission(await ctxOf(c), c.req.valid('json'));
    return c.json({ success: true, permission });
  });
  // docs/product.md §7: the delete is a GET; app.ts refuses it cross-site (STATE_CHANGING_GET_PATHS).
  r.get('/api/permissions/delete', describeRoute({ answer: SUCCESS }), admin, query(idSchema), async (c) => {
    await deletePermission(await ctxOf(c), c.req.valid('query').id);
    return c.json({ success: true }, 200, NO_STORE);
  });
  return r;
}
