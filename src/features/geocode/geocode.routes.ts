import { restRouter, type CtxOf } from '../../http/rest';
import { searchAddresses } from './geocode.service';

/** DESIGN §4 GET /api/geocode/search?q= (public, cached, rate-limited). */
export function geocodeRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.get('/api/geocode/search', async (c) => c.json(await searchAddresses(await ctxOf(c), c.req.query('q') ?? ''), 200, { 'Cache-Control': 'no-store' }));
  return r;
}
