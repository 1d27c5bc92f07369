import { restRouter, type CtxOf } from '../../http/rest';
import { geocoderProvider, searchAddresses } from './geocode.service';

/** The response header naming the provider whose data an answer holds (the form shows its attribution). */
export const GEOCODER_PROVIDER_HEADER = 'X-Geocoder-Provider';

/** DESIGN §4 GET /api/geocode/search?q= (public, cached, rate-limited). */
export function geocodeRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.get('/api/geocode/search', async (c) => {
    const ctx = await ctxOf(c);
    const suggestions = await searchAddresses(ctx, c.req.query('q') ?? '');
    return c.json(suggestions, 200, { 'Cache-Control': 'no-store', [GEOCODER_PROVIDER_HEADER]: await geocoderProvider(ctx) });
  });
  return r;
}
