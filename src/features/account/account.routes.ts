import { restRouter, type CtxOf } from '../../http/rest';
import { me } from './account.service';

export function accountRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.get('/api/account/me', async (c) => c.json(me(await ctxOf(c)), 200, { 'Cache-Control': 'no-store' }));
  return r;
}
