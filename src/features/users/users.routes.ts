import { describeRoute, SUCCESS } from '../../http/openapi';
import { adminOnly, jsonBody, query, restRouter, type CtxOf } from '../../http/rest';
import { idSchema } from '../../core/record-id';
import { inviteUser } from './invite.service';
import { editUserSchema, inviteUserSchema, userGroupSchema } from './users.schemas';
import { assignGroup, deleteUser, editUser, listUsers, removeGroup } from './users.service';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** /api/users*: thin adapters over the users service. */
export function usersRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const admin = adminOnly(ctxOf);
  r.get('/api/users', describeRoute({ answer: '{users:[]}' }), admin, async (c) => c.json({ users: await listUsers(await ctxOf(c)) }, 200, NO_STORE));
  r.post('/api/users/assigngroup', describeRoute({ answer: SUCCESS }), admin, jsonBody(userGroupSchema), async (c) => {
    await assignGroup(await ctxOf(c), c.req.valid('json'));
    return c.json({ success: true });
  });
  r.post('/api/users/removegroup', describeRoute({ answer: SUCCESS }), admin, jsonBody(userGroupSchema), async (c) => {
    await removeGroup(await ctxOf(c), c.req.valid('json'));
    return c.json({ success: true });
  });
  r.post('/api/users/invite', describeRoute({ answer: '{success:true,user_id}' }), admin, jsonBody(inviteUserSchema), async (c) => {
    const { user_id } = await inviteUser(await ctxOf(c), c.req.valid('json'));
    return c.json({ success: true, user_id });
  });
  r.post('/api/users/edituser', describeRoute({ answer: SUCCESS }), admin, query(idSchema), jsonBody(editUserSchema), async (c) => {
    await editUser(await ctxOf(c), c.req.valid('query').id, c.req.valid('json'));
    return c.json({ success: true });
  });
  // docs/product.md §7: the delete is a GET; app.ts refuses it cross-site (STATE_CHANGING_GET_PATHS).
  r.get('/api/users/deleteuser', describeRoute({ answer: SUCCESS }), admin, query(idSchema), async (c) => {
    await deleteUser(await ctxOf(c), c.req.valid('query').id);
    return c.json({ success: true }, 200, NO_STORE);
  });
  return r;
}
