import { describeRoute } from '../../http/openapi';
import { jsonBody, restRouter, type CtxOf } from '../../http/rest';
import { codeSchema } from './two-factor.schemas';
import { checkTwoFactor, completeTwoFactorLogin, disableTwoFactor, setupTwoFactor, verifyTwoFactor } from './two-factor.service';

/** /api/twofactor/*: set-up, turning it on and off, and the second step of a sign-in. */
export function twoFactorRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const code = jsonBody(codeSchema);
  r.get('/api/twofactor/setup', describeRoute({ access: 'signed in', answer: '{success:true,secret,otpauth_url,qr_code}' }), async (c) => {
    const setup = await setupTwoFactor(await ctxOf(c));
    return c.json({ success: true, ...setup }, 200, { 'Cache-Control': 'no-store' });
  });
  r.post('/api/twofactor/verify', describeRoute({ access: 'signed in', answer: '{success:true,message,recovery_codes:[]}' }), code, async (c) => {
    const ctx = await ctxOf(c);
    return c.json({ success: true, ...(await verifyTwoFactor(ctx, c.req.valid('json').code)) }, 200, { 'Cache-Control': 'no-store' });
  });
  r.post('/api/twofactor/completelogin', describeRoute({ access: 'pending sign-in', answer: '{success:true,user}' }), code, async (c) => {
    const ctx = await ctxOf(c);
    await completeTwoFactorLogin(ctx, c.req.valid('json').code);
    return c.json({ success: true, user: ctx.user });
  });
  r.post('/api/twofactor/check', describeRoute({ access: 'pending sign-in', answer: '{success:true,message}' }), code, async (c) => {
    const ctx = await ctxOf(c);
    return c.json({ success: true, ...(await checkTwoFactor(ctx, c.req.valid('json').code)) });
  });
  r.post('/api/twofactor/disable', describeRoute({ access: 'signed in', answer: '{success:true,message}' }), code, async (c) => {
    const ctx = await ctxOf(c);
    return c.json({ success: true, ...(await disableTwoFactor(ctx, c.req.valid('json').code)) });
  });
  return r;
}
