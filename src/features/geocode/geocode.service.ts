import type { RequestCtx } from '../../context';
import { enforceRateLimit, type RateLimitRule } from '../../platform/rate-limit';
import { getStringSetting } from '../settings/settings.service';

/**
 * docs/architecture.md §3 address search: the browser asks us, we ask the configured provider — the Dutch PDOK
 * Locatieserver (suggest, then lookup; BAG addresses, no key) by default, or a Nominatim-compatible
 * /search host — and answer in the specification's shape (§3 address suggestion). Answers are cached;
 * provider errors give an empty list.
 */
export interface AddressSuggestion {
  display_name: string;
  address: {
    road?: string;
    house_number?: string;
    city?: string;
    town?: string;
    village?: string;
    hamlet?: string;
    municipality?: string;
    state?: string;
    postcode?: string;
    country?: string;
  };
}

export const GEOCODE_LIMIT_PER_ADDRESS: RateLimitRule = { limit: 60, windowMs: 60 * 1000 };
export const MAX_SUGGESTIONS = 5;
const PROVIDER_TIMEOUT_MS = 4000;
const CACHE_TTL_MS = 24 * 60 * 60 * 1000;
const CACHE_MAX_ENTRIES = 1000;

/** Per process/isolate: the same few streets are asked for again and again while people type. */
const cache = new Map<string, { at: number; value: AddressSuggestion[] }>();

function remember(key: string, value: AddressSuggestion[], now: number): void {
  if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, { at: now, value });
}

export function clearGeocodeCache(): void {
  cache.clear();
}

async function getJson(url: string, userAgent: string): Promise<unknown> {
  const response = await fetch(url, { headers: { Accept: 'application/json', 'User-Agent': userAgent }, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`Provider answered ${response.status}`);
  return response.json();
}

interface PdokDoc {
  id?: string;
  weergavenaam?: string;
  straatnaam?: string;
  huisnummer?: number | string;
  huisletter?: string;
  huisnummertoevoeging?: string;
  huis_nlt?: string;
  postcode?: string;
  woonplaatsnaam?: string;
  gemeentenaam?: string;
  provincienaam?: string;
}

function docsOf(body: unknown): PdokDoc[] {
  const docs = (body as { response?: { docs?: unknown } })?.response?.docs;
  return Array.isArray(docs) ? (docs as PdokDoc[]) : [];
}

async function searchPdok(base: string, query: string, userAgent: string): Promise<AddressSuggestion[]> {
  const suggest = new URL(`${base.replace(/\/+$/, '')}/suggest`);
  suggest.searchParams.set('q', query);
  suggest.searchParams.set('fq', 'type:adres');
  suggest.searchParams.set('rows', String(MAX_SUGGESTIONS));
  const ids = docsOf(await getJson(suggest.toString(), userAgent))
    .map((d) => d.id)
    .filter((id): id is string => typeof id === 'string')
    .slice(0, MAX_SUGGESTIONS);
  const looked = await Promise.all(
    ids.map(async (id) => {
      const lookup = new URL(`${base.replace(/\/+$/, '')}/lookup`);
      lookup.searchParams.set('id', id);
      lookup.searchParams.set(
        'fl',
        'id,weergavenaam,straatnaam,huisnummer,huisletter,huisnummertoevoeging,huis_nlt,postcode,woonplaatsnaam,gemeentenaam,provincienaam',
      );
      return docsOf(await getJson(lookup.toString(), userAgent))[0];
    }),
  );
  return looked
    .filter((d): d is PdokDoc => !!d)
    .map((d) => ({
      display_name: d.weergavenaam ?? [d.straatnaam, d.huis_nlt ?? d.huisnummer, d.postcode, d.woonplaatsnaam].filter(Boolean).join(' '),
      address: {
        ...(d.straatnaam ? { road: d.straatnaam } : {}),
        ...(d.huis_nlt || d.huisnummer !== undefined
          ? { house_number: String(d.huis_nlt ?? `${d.huisnummer}${d.huisletter ?? ''}${d.huisnummertoevoeging ? `-${d.huisnummertoevoeging}` : ''}`) }
          : {}),
        ...(d.woonplaatsnaam ? { city: d.woonplaatsnaam } : {}),
        ...(d.gemeentenaam ? { municipality: d.gemeentenaam } : {}),
        ...(d.provincienaam ? { state: d.provincienaam } : {}),
        ...(d.postcode ? { postcode: d.postcode } : {}),
        country: 'Nederland',
      },
    }));
}

const NOMINATIM_ADDRESS_KEYS = ['road', 'house_number', 'city', 'town', 'village', 'hamlet', 'municipality', 'state', 'postcode', 'country'] as const;

async function searchNominatim(base: string, query: string, userAgent: string): Promise<AddressSuggestion[]> {
  const url = new URL(`${base.replace(/\/+$/, '')}/search`);
  url.searchParams.set('q', query);
  url.searchParams.set('format', 'json');
  url.searchParams.set('limit', String(MAX_SUGGESTIONS));
  url.searchParams.set('addressdetails', '1');
  url.searchParams.set('countrycodes', 'nl');
  const body = await getJson(url.toString(), userAgent);
  if (!Array.isArray(body)) return [];
  return body.slice(0, MAX_SUGGESTIONS).map((item: { display_name?: unknown; address?: Record<string, unknown> }) => {
    const address: AddressSuggestion['address'] = {};
    for (const key of NOMINATIM_ADDRESS_KEYS) {
      const value = item.address?.[key];
      if (typeof value === 'string' && value !== '') address[key] = value;
    }
    return { display_name: typeof item.display_name === 'string' ? item.display_name : '', address };
  });
}

/** The two kinds of address provider; any other `geocoder_provider` value means PDOK, the default. */
export type GeocoderProvider = 'pdok' | 'nominatim';

/**
 * Which provider answers address searches. The route names it in a response header, so the form can show
 * the attribution that provider's data requires (Kadaster for PDOK, OpenStreetMap for Nominatim).
 */
export async function geocoderProvider(ctx: RequestCtx): Promise<GeocoderProvider> {
  return (await getStringSetting(ctx, 'geocoder_provider')).trim().toLowerCase() === 'nominatim' ? 'nominatim' : 'pdok';
}

/** What a search found, or that the provider could not be asked (the route still answers `[]`). */
export type AddressSearchResult = { kind: 'answered'; suggestions: AddressSuggestion[] } | { kind: 'provider-failed' };

export async function searchAddresses(ctx: RequestCtx, rawQuery: string): Promise<AddressSearchResult> {
  const query = rawQuery.trim().replace(/\s+/g, ' ').slice(0, 200);
  // docs/product.md §5 address search starts at 3 characters.
  if (query.length < 3) return { kind: 'answered', suggestions: [] };
  await enforceRateLimit(ctx.db, ctx.clock, `geocode:ip:${ctx.rateLimitAddress}`, GEOCODE_LIMIT_PER_ADDRESS);
  const provider = await geocoderProvider(ctx);
  const base = (await getStringSetting(ctx, 'geocoder_url')).trim();
  const key = `${provider}|${base}|${query.toLowerCase()}`;
  const now = ctx.clock.now().getTime();
  const hit = cache.get(key);
  if (hit && now - hit.at < CACHE_TTL_MS) return { kind: 'answered', suggestions: hit.value };
  // Nominatim's usage policy asks for an identifying User-Agent.
  const userAgent = `Kerstactie/1.0 (${ctx.config.publicUrl ?? (await getStringSetting(ctx, 'club_email'))})`;
  try {
    const value = provider === 'nominatim' ? await searchNominatim(base, query, userAgent) : await searchPdok(base, query, userAgent);
    remember(key, value, now);
    return { kind: 'answered', suggestions: value };
  } catch (error) {
    ctx.log.info('Address search provider failed', { requestId: ctx.requestId, provider, error: String(error) });
    return { kind: 'provider-failed' };
  }
}
