import { restRouter, type CtxOf } from '../../http/rest';
import { parseInput, readJsonBody } from '../../http/validate';
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

/** docs/architecture.md §4 /api/account/*. */
export function accountRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.get('/api/account/me', async (c) => c.json(me(await ctxOf(c)), 200, { 'Cache-Control': 'no-store' }));
  r.post('/api/account/login', async (c) => {
    const ctx = await ctxOf(c);
    const user = await login(ctx, parseInput(loginSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true, user });
  });
  r.post('/api/account/logout', async (c) => {
    await logout(await ctxOf(c));
    return c.json({ success: true });
  });
  r.post('/api/account/register', async (c) => {
    const ctx = await ctxOf(c);
    const result = await register(ctx, parseInput(registerSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true, ...(result.user ? { user: result.user } : {}), activation_required: result.activation_required });
  });
  r.post('/api/account/edit', async (c) => {
    const ctx = await ctxOf(c);
    await editEmail(ctx, parseInput(editEmailSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true });
  });
  r.post('/api/account/changepassword', async (c) => {
    const ctx = await ctxOf(c);
    await changePassword(ctx, parseInput(changePasswordSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true });
  });
  r.post('/api/account/locale', async (c) => {
    const ctx = await ctxOf(c);
    await setLocale(ctx, parseInput(setLocaleSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true });
  });
  r.post('/api/account/forgot', async (c) => {
    const ctx = await ctxOf(c);
    await requestPasswordReset(ctx, parseInput(forgotPasswordSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true });
  });
  r.post('/api/account/reset', async (c) => {
    const ctx = await ctxOf(c);
    await resetPassword(ctx, parseInput(resetPasswordSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true });
  });
  r.get('/api/account/sessions', async (c) => c.json({ sessions: await listSessions(await ctxOf(c)) }, 200, { 'Cache-Control': 'no-store' }));
  r.post('/api/account/sessions/revoke', async (c) => {
    const ctx = await ctxOf(c);
    await revokeSession(ctx, parseInput(revokeSessionSchema, await readJsonBody(c.req.raw)).id);
    return c.json({ success: true });
  });
  r.post('/api/account/sessions/revoke-others', async (c) => {
    await revokeOtherSessions(await ctxOf(c));
    return c.json({ success: true });
  });
  return r;
}
