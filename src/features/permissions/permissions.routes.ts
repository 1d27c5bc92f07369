import { adminOnly, restRouter, type CtxOf } from '../../http/rest';
import { parseInput, readJsonBody } from '../../http/validate';
import { addPermissionSchema } from './permissions.schemas';
import { addPermission, deletePermission, listPermissions } from './permissions.service';
import { idSchema } from '../../core/record-id';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** docs/architecture.md §4 /api/permissions*: thin adapters over the permissions service. */
export function permissionsRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const admin = adminOnly(ctxOf);
  r.get('/api/permissions', admin, async (c) => c.json({ permissions: await listPermissions(await ctxOf(c)) }, 200, NO_STORE));
  r.post('/api/permissions/add', admin, async (c) => {
    const ctx = await ctxOf(c);
    const permission = await addPermission(ctx, parseInput(addPermissionSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true, permission });
  });
  // docs/product.md §7: the delete is a GET; app.ts refuses it cross-site (STATE_CHANGING_GET_PATHS).
  r.get('/api/permissions/delete', admin, async (c) => {
    const ctx = await ctxOf(c);
    await deletePermission(ctx, parseInput(idSchema, { id: c.req.query('id') }).id);
    return c.json({ success: true }, 200, NO_STORE);
  });
  return r;
}
