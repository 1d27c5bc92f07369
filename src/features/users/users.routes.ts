import { adminOnly, restRouter, type CtxOf } from '../../http/rest';
import { parseInput, readJsonBody } from '../../http/validate';
import { idSchema } from '../../core/record-id';
import { inviteUser } from './invite.service';
import { editUserSchema, inviteUserSchema, userGroupSchema } from './users.schemas';
import { assignGroup, deleteUser, editUser, listUsers, removeGroup } from './users.service';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** docs/architecture.md §4 /api/users*: thin adapters over the users service. */
export function usersRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const admin = adminOnly(ctxOf);
  r.get('/api/users', admin, async (c) => c.json({ users: await listUsers(await ctxOf(c)) }, 200, NO_STORE));
  r.post('/api/users/assigngroup', admin, async (c) => {
    const ctx = await ctxOf(c);
    await assignGroup(ctx, parseInput(userGroupSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true });
  });
  r.post('/api/users/removegroup', admin, async (c) => {
    const ctx = await ctxOf(c);
    await removeGroup(ctx, parseInput(userGroupSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true });
  });
  r.post('/api/users/invite', admin, async (c) => {
    const ctx = await ctxOf(c);
    const { user_id } = await inviteUser(ctx, parseInput(inviteUserSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true, user_id });
  });
  r.post('/api/users/edituser', admin, async (c) => {
    const ctx = await ctxOf(c);
    const { id } = parseInput(idSchema, { id: c.req.query('id') });
    await editUser(ctx, id, parseInput(editUserSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true });
  });
  // docs/product.md §7: the delete is a GET; app.ts refuses it cross-site (STATE_CHANGING_GET_PATHS).
  r.get('/api/users/deleteuser', admin, async (c) => {
    const ctx = await ctxOf(c);
    await deleteUser(ctx, parseInput(idSchema, { id: c.req.query('id') }).id);
    return c.json({ success: true }, 200, NO_STORE);
  });
  return r;
}
