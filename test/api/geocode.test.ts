import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { settings } from '../../src/db/schema';
import { clearGeocodeCache } from '../../src/features/geocode/geocode.service';
import { pdokAddress, startFakeGeocoder, type FakeGeocoder } from '../support/fake-geocoder';
import { createTestApp, type TestApp } from '../support/test-app';
import { freshIps } from '../support/transports';
import { GEOCODER_STATUS_HEADER } from '../../src/features/geocode/geocode-headers';

/**
 * docs/product.md §2 address-search field, §3 address suggestion, §5 address search, §7 geocoder; docs/architecture.md §3–4
 * GET /api/geocode/search?q=: the server asks the configured provider (PDOK suggest + lookup by default,
 * or a Nominatim-compatible /search), answers in the specification's shape, caches, rate-limits per
 * address, and turns provider errors into []. The provider is a fake on loopback.
 */

const MINUTE = 60 * 1000;
const TOO_MANY = 'Too many requests. Please wait a moment and try again.';

let t: TestApp;
let fake: FakeGeocoder;
let adminCookie: string;

/** A client address no other test uses, so the per-address limit of one test never touches another. */
const freshIp = freshIps((high, low) => `10.20.${high}.${low}`);

async function search(q: string | undefined, ip = freshIp()) {
  const path = q === undefined ? '/api/geocode/search' : `/api/geocode/search?q=${encodeURIComponent(q)}`;
  return t.request(path, { headers: { 'x-test-client-ip': ip } });
}

async function setSetting(key: string, value: string) {
  const r = await t.request('/api/settings/update', { cookie: adminCookie, body: { key, value } });
  expect(r.json).toEqual({ success: true });
}

const harlingen = (street: string, n: number, letter = '') => pdokAddress(street, n, letter);

beforeAll(async () => {
  t = await createTestApp();
  fake = await startFakeGeocoder();
  adminCookie = await t.cookieFor('admin');
  await setSetting('geocoder_url', fake.url);
});

afterAll(async () => {
  await fake.close();
  await t.close();
});

beforeEach(async () => {
  clearGeocodeCache();
  fake.reset();
  fake.pdokAddresses = [];
  fake.nominatimPlaces = [];
});

afterEach(() => {
  // Expected failures are answers, never logged crashes.
  expect(t.errors).toEqual([]);
});

describe('GET /api/geocode/search: short queries', () => {
  it.each([
    ['no q at all', undefined],
    ['an empty q', ''],
    ['two characters', 'ab'],
    ['two characters padded with spaces', '   ab   '],
  ])('answers [] for %s without asking the provider', async (_label, q) => {
    fake.pdokAddresses = [harlingen('Abstraat', 1)];
    const r = await search(q);
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    expect(fake.requests).toEqual([]);
  });
});

describe('GET /api/geocode/search with the PDOK Locatieserver (the default provider)', () => {
  beforeAll(async () => {
    await setSetting('geocoder_provider', 'pdok');
  });

  it('maps PDOK addresses to the specification shape with country Nederland', async () => {
    fake.pdokAddresses = [harlingen('Voorstraat', 12, 'A')];
    const r = await search('Voorstraat 12');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('x-geocoder-provider')).toBe('pdok');
    expect(r.json).toEqual([
      {
        display_name: 'Voorstraat 12A, 8861BM Harlingen',
        address: {
          road: 'Voorstraat',
          house_number: '12A',
          city: 'Harlingen',
          municipality: 'Harlingen',
          state: 'Fryslân',
          postcode: '8861BM',
          country: 'Nederland',
        },
      },
    ]);
  });

  it('answers at most 5 suggestions even when the provider returns more', async () => {
    fake.pdokAddresses = [1, 2, 3, 4, 5, 6, 7].map((n) => harlingen('Voorstraat', n));
    const r = await search('Voorstraat Harlingen');
    expect(r.status).toBe(200);
    expect(r.json).toHaveLength(5);
    expect(r.json.map((s: { display_name: string }) => s.display_name)).toEqual([1, 2, 3, 4, 5].map((n) => `Voorstraat ${n}, 8861BM Harlingen`));
    expect(fake.requests.filter((q) => q.path === '/lookup')).toHaveLength(5);
  });

  it('asks suggest for addresses only (fq=type:adres, rows=5) with the whitespace-tidied query, then looks each id up', async () => {
    fake.pdokAddresses = [harlingen('Noorderhaven', 3), harlingen('Noorderhaven', 5)];
    const r = await search('  Noorderhaven    Harlingen ');
    expect(r.json).toHaveLength(2);
    const [suggest, ...lookups] = fake.requests;
    expect(suggest!.path).toBe('/suggest');
    expect(suggest!.query).toMatchObject({ q: 'Noorderhaven Harlingen', fq: 'type:adres', rows: '5' });
    expect(lookups.map((l) => l.path)).toEqual(['/lookup', '/lookup']);
    expect(lookups.map((l) => l.query.id).sort()).toEqual(fake.pdokAddresses.map((a) => a.id).sort());
  });

  it('answers [] when the provider knows no such address', async () => {
    fake.pdokAddresses = [harlingen('Voorstraat', 1)];
    const r = await search('Nergensstraat 99');
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    expect(r.headers.get(GEOCODER_STATUS_HEADER)).toBeNull();
  });

  it('serves a repeated query from the cache without asking the provider again', async () => {
    fake.pdokAddresses = [harlingen('Voorstraat', 1)];
    const first = await search('Voorstraat 1');
    const asked = fake.requests.length;
    expect(asked).toBe(2);
    const second = await search('Voorstraat 1');
    expect(second.status).toBe(200);
    expect(second.json).toEqual(first.json);
    expect(fake.requests).toHaveLength(asked);
  });

  it('serves the same query typed with other capitals or spacing from the cache', async () => {
    fake.pdokAddresses = [harlingen('Voorstraat', 1)];
    const first = await search('Voorstraat 1');
    const asked = fake.requests.length;
    const second = await search('  voorstraat   1 ');
    expect(second.json).toEqual(first.json);
    expect(fake.requests).toHaveLength(asked);
  });

  it('answers [] with status 200 when the provider fails with a 500, and does not cache the failure', async () => {
    fake.pdokAddresses = [harlingen('Voorstraat', 1)];
    fake.mode = 'fail';
    const failed = await search('Voorstraat 1');
    expect(failed.status).toBe(200);
    expect(failed.json).toEqual([]);
    // docs/decisions/014: the body is the same as for an unknown address; this header tells the field it failed.
    expect(failed.headers.get(GEOCODER_STATUS_HEADER)).toBe('unavailable');
    expect(fake.requests.length).toBeGreaterThan(0);

    fake.mode = 'ok';
    const retried = await search('Voorstraat 1');
    expect(retried.json).toHaveLength(1);
  });

  it('answers [] with status 200 when the provider answers something that is not JSON', async () => {
    fake.pdokAddresses = [harlingen('Voorstraat', 1)];
    fake.mode = 'garbage';
    const r = await search('Voorstraat 1');
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    // docs/decisions/014: the body is the same as for an unknown address; this header tells the field it failed.
    expect(r.headers.get(GEOCODER_STATUS_HEADER)).toBe('unavailable');
  });

  it('answers [] with status 200 when the provider hangs (the server gives up after 4 s)', { timeout: 10_000 }, async () => {
    fake.pdokAddresses = [harlingen('Voorstraat', 1)];
    fake.mode = 'hang';
    const started = Date.now();
    const r = await search('Voorstraat 1');
    const elapsed = Date.now() - started;
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    // docs/decisions/014: the body is the same as for an unknown address; this header tells the field it failed.
    expect(r.headers.get(GEOCODER_STATUS_HEADER)).toBe('unavailable');
    expect(fake.requests).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(3_500);
    expect(elapsed).toBeLessThan(9_000);
  });
});

describe('GET /api/geocode/search with a broken configuration', () => {
  afterAll(async () => {
    await setSetting('geocoder_url', fake.url);
  });

  it('answers [] with status 200 when geocoder_url is not a usable address', async () => {
    // Saving refuses it now (docs/decisions/055); a value stored before that rule is written directly.
    expect((await t.request('/api/settings/update', { cookie: adminCookie, body: { key: 'geocoder_url', value: 'not a url' } })).status).toBe(400);
    await t.db.update(settings).set({ value: 'not a url' }).where(eq(settings.key, 'geocoder_url'));
    t.deps.settingsCache.invalidate();
    const r = await search('Voorstraat 1');
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
  });

  it('answers [] with status 200 when nothing listens at geocoder_url', async () => {
    await setSetting('geocoder_url', 'http://127.0.0.1:1');
    const r = await search('Voorstraat 1');
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
  });
});

describe('GET /api/geocode/search with a Nominatim-compatible provider', () => {
  beforeAll(async () => {
    await setSetting('geocoder_provider', 'nominatim');
  });
  afterAll(async () => {
    await setSetting('geocoder_provider', 'pdok');
  });

  const place = (n: number) => ({
    display_name: `${n}, Voorstraat, Harlingen, Fryslân, Nederland, 8861BM, Nederland`,
    address: { house_number: String(n), road: 'Voorstraat', city: 'Harlingen', state: 'Fryslân', postcode: '8861BM', country: 'Nederland', country_code: 'nl' },
  });

  it('asks /search with format=json, limit=5, addressdetails=1, countrycodes=nl and an identifying Kerstactie/ User-Agent', async () => {
    fake.nominatimPlaces = [place(1)];
    const r = await search('Voorstraat Harlingen');
    expect(r.status).toBe(200);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.path).toBe('/search');
    expect(request!.query).toEqual({ q: 'Voorstraat Harlingen', format: 'json', limit: '5', addressdetails: '1', countrycodes: 'nl' });
    expect(request!.userAgent).toMatch(/^Kerstactie\//);
  });

  it('names Nominatim in the X-Geocoder-Provider header, so the form shows the OpenStreetMap attribution', async () => {
    fake.nominatimPlaces = [place(1)];
    expect((await search('Voorstraat Harlingen')).headers.get('x-geocoder-provider')).toBe('nominatim');
    // Also on an answer that asked nobody, and on a failed search.
    expect((await search('ab')).headers.get('x-geocoder-provider')).toBe('nominatim');
    fake.mode = 'fail';
    const failed = await search('Kerkpad Harlingen');
    expect(failed.json).toEqual([]);
    expect(failed.headers.get('x-geocoder-provider')).toBe('nominatim');
  });

  it('answers in the specification shape, keeping the address fields the specification names and dropping the rest', async () => {
    fake.nominatimPlaces = [place(1)];
    const r = await search('Voorstraat Harlingen');
    expect(r.json).toEqual([
      {
        display_name: '1, Voorstraat, Harlingen, Fryslân, Nederland, 8861BM, Nederland',
        address: { road: 'Voorstraat', house_number: '1', city: 'Harlingen', state: 'Fryslân', postcode: '8861BM', country: 'Nederland' },
      },
    ]);
  });

  it('passes town and village through as they came', async () => {
    fake.nominatimPlaces = [
      {
        display_name: '4, Kerkstraat, Franeker, Waadhoeke, Fryslân, Nederland',
        address: {
          road: 'Kerkstraat',
          house_number: '4',
          town: 'Franeker',
          municipality: 'Waadhoeke',
          state: 'Fryslân',
          postcode: '8801AB',
          country: 'Nederland',
        },
      },
      {
        display_name: '7, Kerkstraat, Midlum, Harlingen, Fryslân, Nederland',
        address: {
          road: 'Kerkstraat',
          house_number: '7',
          village: 'Midlum',
          municipality: 'Harlingen',
          state: 'Fryslân',
          postcode: '8872NA',
          country: 'Nederland',
        },
      },
    ];
    const r = await search('Kerkstraat');
    expect(r.json).toEqual([
      {
        display_name: '4, Kerkstraat, Franeker, Waadhoeke, Fryslân, Nederland',
        address: {
          road: 'Kerkstraat',
          house_number: '4',
          town: 'Franeker',
          municipality: 'Waadhoeke',
          state: 'Fryslân',
          postcode: '8801AB',
          country: 'Nederland',
        },
      },
      {
        display_name: '7, Kerkstraat, Midlum, Harlingen, Fryslân, Nederland',
        address: {
          road: 'Kerkstraat',
          house_number: '7',
          village: 'Midlum',
          municipality: 'Harlingen',
          state: 'Fryslân',
          postcode: '8872NA',
          country: 'Nederland',
        },
      },
    ]);
  });

  it('answers at most 5 suggestions even when the provider returns more', async () => {
    fake.nominatimPlaces = [1, 2, 3, 4, 5, 6, 7].map(place);
    const r = await search('Voorstraat');
    expect(r.json).toHaveLength(5);
    expect(r.json.map((s: { address: { house_number: string } }) => s.address.house_number)).toEqual(['1', '2', '3', '4', '5']);
  });

  it('serves a repeated query from the cache without asking the provider again', async () => {
    fake.nominatimPlaces = [place(1)];
    await search('Voorstraat');
    await search('Voorstraat');
    expect(fake.requests).toHaveLength(1);
  });

  it('answers [] with status 200 when the provider fails with a 500', async () => {
    fake.nominatimPlaces = [place(1)];
    fake.mode = 'fail';
    const r = await search('Voorstraat');
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    // docs/decisions/014: the body is the same as for an unknown address; this header tells the field it failed.
    expect(r.headers.get(GEOCODER_STATUS_HEADER)).toBe('unavailable');
  });

  it('answers [] with status 200 when the provider hangs (the server gives up after 4 s)', { timeout: 10_000 }, async () => {
    fake.nominatimPlaces = [place(1)];
    fake.mode = 'hang';
    const r = await search('Voorstraat');
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    // docs/decisions/014: the body is the same as for an unknown address; this header tells the field it failed.
    expect(r.headers.get(GEOCODER_STATUS_HEADER)).toBe('unavailable');
  });
});

describe('GET /api/geocode/search rate limit', () => {
  it('allows 60 searches a minute per address, then answers 429; another address is unaffected', async () => {
    fake.pdokAddresses = [harlingen('Voorstraat', 1)];
    const ip = freshIp();
    for (let i = 0; i < 60; i++) {
      const r = await search('Voorstraat 1', ip);
      expect(r.status, `search ${i + 1}`).toBe(200);
    }
    const refused = await search('Voorstraat 1', ip);
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ success: false, error: TOO_MANY, code: 'TOO_MANY_REQUESTS' });

    const other = await search('Voorstraat 1', freshIp());
    expect(other.status).toBe(200);
    expect(other.json).toHaveLength(1);
  });

  it('allows the address again once the minute is over', async () => {
    fake.pdokAddresses = [harlingen('Voorstraat', 1)];
    const ip = freshIp();
    for (let i = 0; i < 60; i++) await search('Voorstraat 1', ip);
    expect((await search('Voorstraat 1', ip)).status).toBe(429);
    t.clock.advance(MINUTE);
    const again = await search('Voorstraat 1', ip);
    expect(again.status).toBe(200);
    expect(again.json).toHaveLength(1);
  });
});
