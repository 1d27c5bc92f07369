import { describeRoute, SUCCESS } from '../../http/openapi';
import { jsonBody, restRouter, type CtxOf } from '../../http/rest';
import {
  changePasswordSchema,
  editEmailSchema,
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  revokeSessionSchema,
  setLocaleSchema,
} from './account.schemas';
import { changePassword, editEmail, login, logout, me, register, setLocale } from './account.service';
import { requestPasswordReset, resetPassword } from './password-reset.service';
import { listSessions, revokeOtherSessions, revokeSession } from './sessions.service';

/** /api/account/*: who is signed in, signing in and out, registering, one's own e-mail, password and sessions. */
export function accountRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.get('/api/account/me', describeRoute({ access: 'public', answer: '{loggedIn:false} | {loggedIn:true,user,two_factor_setup_required}' }), async (c) =>
    c.json(me(await ctxOf(c)), 200, { 'Cache-Control': 'no-store' }),
  );
  r.post('/api/account/login', describeRoute({ access: 'public', answer: '{success:true,user}' }), jsonBody(loginSchema), async (c) => {
    const ctx = await ctxOf(c);
    const user = await login(ctx, c.req.valid('json'));
    return c.json({ success: true, user });
  });
  r.post('/api/account/logout', describeRoute({ access: 'public', answer: SUCCESS }), async (c) => {
    await logout(await ctxOf(c));
    return c.json({ success: true });
  });
  r.post(
    '/api/account/register',
    describeRoute({ access: 'public', answer: '{success:true,user?,activation_required}' }),
    jsonBody(registerSchema),
    async (c) => {
      const ctx = await ctxOf(c);
      const result = await register(ctx, c.req.valid('json'));
      return c.json({ success: true, ...(result.user ? { user: result.user } : {}), activation_required: result.activation_required });
    },
  );
  r.post('/api/account/edit', describeRoute({ access: 'signed in', answer: SUCCESS }), jsonBody(editEmailSchema), async (c) => {
    const ctx = await ctxOf(c);
    await editEmail(ctx, c.req.valid('json'));
    return c.json({ success: true });
  });
  r.post('/api/account/changepassword', describeRoute({ access: 'signed in', answer: SUCCESS }), jsonBody(changePasswordSchema), async (c) => {
    const ctx = await ctxOf(c);
    await changePassword(ctx, c.req.valid('json'));
    return c.json({ success: true });
  });
  r.post('/api/account/locale', describeRoute({ access: 'signed in', answer: SUCCESS }), jsonBody(setLocaleSchema), async (c) => {
    const ctx = await ctxOf(c);
    await setLocale(ctx, c.req.valid('json'));
    return c.json({ success: true });
  });
  r.post('/api/account/forgot', describeRoute({ access: 'public', answer: SUCCESS }), jsonBody(forgotPasswordSchema), async (c) => {
    const ctx = await ctxOf(c);
    await requestPasswordReset(ctx, c.req.valid('json'));
    return c.json({ success: true });
  });
  r.post('/api/account/reset', describeRoute({ access: 'public', answer: SUCCESS }), jsonBody(resetPasswordSchema), async (c) => {
    const ctx = await ctxOf(c);
    await resetPassword(ctx, c.req.valid('json'));
    return c.json({ success: true });
  });
  r.get('/api/account/sessions', describeRoute({ access: 'signed in', answer: '{sessions:[{id,current,user_agent,ip,created_at,last_seen_at}]}' }), async (c) =>
    c.json({ sessions: await listSessions(await ctxOf(c)) }, 200, { 'Cache-Control': 'no-store' }),
  );
  r.post('/api/account/sessions/revoke', describeRoute({ access: 'signed in', answer: SUCCESS }), jsonBody(revokeSessionSchema), async (c) => {
    const ctx = await ctxOf(c);
    await revokeSession(ctx, c.req.valid('json').id);
    return c.json({ success: true });
  });
  r.post('/api/account/sessions/revoke-others', describeRoute({ access: 'signed in', answer: SUCCESS }), async (c) => {
    await revokeOtherSessions(await ctxOf(c));
    return c.json({ success: true });
  });
  return r;
}
