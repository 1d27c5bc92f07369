import { restRouter, type CtxOf } from '../../http/rest';
import { parseInput, readJsonBody } from '../../http/validate';
import { codeSchema } from './two-factor.schemas';
import { checkTwoFactor, completeTwoFactorLogin, disableTwoFactor, setupTwoFactor, verifyTwoFactor } from './two-factor.service';

/** docs/architecture.md §4 /api/twofactor/*. */
export function twoFactorRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const code = async (request: Request) => parseInput(codeSchema, await readJsonBody(request)).code;
  r.get('/api/twofactor/setup', async (c) => {
    const setup = await setupTwoFactor(await ctxOf(c));
    return c.json({ success: true, ...setup }, 200, { 'Cache-Control': 'no-store' });
  });
  r.post('/api/twofactor/verify', async (c) => {
    const ctx = await ctxOf(c);
    return c.json({ success: true, ...(await verifyTwoFactor(ctx, await code(c.req.raw))) }, 200, { 'Cache-Control': 'no-store' });
  });
  r.post('/api/twofactor/completelogin', async (c) => {
    const ctx = await ctxOf(c);
    await completeTwoFactorLogin(ctx, await code(c.req.raw));
    return c.json({ success: true, user: ctx.user });
  });
  r.post('/api/twofactor/check', async (c) => {
    const ctx = await ctxOf(c);
    return c.json({ success: true, ...(await checkTwoFactor(ctx, await code(c.req.raw))) });
  });
  r.post('/api/twofactor/disable', async (c) => {
    const ctx = await ctxOf(c);
    return c.json({ success: true, ...(await disableTwoFactor(ctx, await code(c.req.raw))) });
  });
  return r;
}
