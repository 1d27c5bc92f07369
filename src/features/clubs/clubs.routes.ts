import { describeRoute, SUCCESS } from '../../http/openapi';
import { type CtxOf, jsonBody, query, restRouter } from '../../http/rest';
import { clubIdQuerySchema, clubSignupSchema, clubVerifySchema, createClubSchema, updateClubSchema } from '../../core/club-schemas';

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * DESIGN §6 "Many clubs on one deployment" (docs/decisions/071): the platform's clubs (platform.access in the first
 * club; the service checks it), and a club's sign-up on /aanmelden with its e-mail verified.
 */
export function clubsRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.get('/api/platform/clubs', describeRoute({ access: 'platform', answer: '{clubs:[{id,slug,name,status,hosts,created_at,orders,users}]}' }), async (c) => {
    const ctx = await ctxOf(c);
    return c.json(await ctx.platform.list(ctx), 200, NO_STORE);
  });
  r.post('/api/platform/clubs', describeRoute({ access: 'platform', answer: '{success:true,club_id}' }), jsonBody(createClubSchema), async (c) => {
    const ctx = await ctxOf(c);
    return c.json(await ctx.platform.create(ctx, c.req.valid('json')));
  });
  r.post(
    '/api/platform/clubs/update',
    describeRoute({ access: 'platform', answer: SUCCESS }),
    query(clubIdQuerySchema),
    jsonBody(updateClubSchema),
    async (c) => {
      const ctx = await ctxOf(c);
      return c.json(await ctx.platform.update(ctx, c.req.valid('query').id, c.req.valid('json')));
    },
  );
  r.post('/api/clubs/signup', describeRoute({ access: 'public', answer: SUCCESS }), jsonBody(clubSignupSchema), async (c) => {
    const ctx = await ctxOf(c);
    return c.json(await ctx.platform.signup(ctx, c.req.valid('json')));
  });
  r.post('/api/clubs/verify', describeRoute({ access: 'public', answer: '{success:true,url}' }), jsonBody(clubVerifySchema), async (c) => {
    const ctx = await ctxOf(c);
    return c.json(await ctx.platform.verify(ctx, c.req.valid('json')));
  });
  return r;
}
