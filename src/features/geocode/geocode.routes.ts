import * as z from 'zod';
import { describeRoute } from '../../http/openapi';
import { query, restRouter, type CtxOf } from '../../http/rest';
import { GEOCODER_PROVIDER_HEADER, GEOCODER_STATUS_HEADER, GEOCODER_UNAVAILABLE } from './geocode-headers';
import { geocoderProvider, searchAddresses } from './geocode.service';

/** The service judges the text itself (a short or empty one answers []). */
const searchSchema = z.object({ q: z.string().default('') });

/** GET /api/geocode/search?q= (public, cached, rate-limited). */
export function geocodeRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.get('/api/geocode/search', describeRoute({ access: 'public', answer: '[{display_name,address}]' }), query(searchSchema), async (c) => {
    const ctx = await ctxOf(c);
    const result = await searchAddresses(ctx, c.req.valid('query').q);
    const headers: Record<string, string> = { 'Cache-Control': 'no-store', [GEOCODER_PROVIDER_HEADER]: await geocoderProvider(ctx) };
    if (result.kind === 'provider-failed') headers[GEOCODER_STATUS_HEADER] = GEOCODER_UNAVAILABLE;
    return c.json(result.kind === 'answered' ? result.suggestions : [], 200, headers);
  });
  return r;
}
