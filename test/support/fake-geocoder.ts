import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AddressSuggestion } from '../../src/features/geocode/geocode.service';

/**
 * A stand-in for the address search providers of docs/architecture.md §3, on loopback: the PDOK Locatieserver
 * (`/suggest`, then `/lookup?id=`) and a Nominatim-compatible `/search`. It records every request and
 * can be told to fail (HTTP 500), to hang (never answer) or to answer garbage (not JSON), so the
 * proxy's error paths can be tested.
 *
 * Like a careless provider it returns every match, whatever `rows`/`limit` say: the server's own cap
 * of 5 suggestions is what the tests check.
 */

/** One BAG address as PDOK's lookup returns it. */
export interface FakePdokAddress {
  id: string;
  weergavenaam: string;
  straatnaam: string;
  huisnummer: number;
  huisletter?: string;
  huis_nlt: string;
  postcode: string;
  woonplaatsnaam: string;
  gemeentenaam: string;
  provincienaam: string;
}

/** One place as a Nominatim `/search?format=json&addressdetails=1` returns it. */
export type FakeNominatimPlace = {
  display_name: string;
  // Nominatim sends the fields of our answer's shape and more (country_code, suburb, …).
  address: AddressSuggestion['address'] & { [key: string]: string | undefined };
};

export interface RecordedRequest {
  /** The path without the query string, e.g. `/suggest`. */
  path: string;
  query: Record<string, string>;
  userAgent: string | undefined;
}

export type FakeGeocoderMode = 'ok' | 'fail' | 'hang' | 'garbage';

export interface FakeGeocoder {
  /** Base URL, e.g. http://127.0.0.1:54321 — what the geocoder_url setting points at. */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  pdokAddresses: FakePdokAddress[];
  nominatimPlaces: FakeNominatimPlace[];
  /** ok: answer; fail: HTTP 500 for every request; hang: never answer; garbage: HTTP 200 with a body that is not JSON. */
  mode: FakeGeocoderMode;
  /** Forgets the recorded requests, goes back to 'ok' and drops hanging connections. */
  reset(): void;
  close(): Promise<void>;
}

/** Words of a query, lower-cased: a doc matches when its name holds every word. */
function matches(name: string, query: string): boolean {
  const haystack = name.toLowerCase();
  return query
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

export async function startFakeGeocoder(): Promise<FakeGeocoder> {
  const hanging = new Set<ServerResponse>();

  const fake: FakeGeocoder = {
    url: '',
    requests: [],
    pdokAddresses: [],
    nominatimPlaces: [],
    mode: 'ok',
    reset() {
      fake.requests.length = 0;
      fake.mode = 'ok';
      for (const response of hanging) response.destroy();
      hanging.clear();
    },
    close: async () => undefined,
  };

  function json(response: ServerResponse, status: number, body: unknown) {
    response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  }

  function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    fake.requests.push({
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      userAgent: request.headers['user-agent'],
    });
    if (fake.mode === 'hang') {
      hanging.add(response);
      response.on('close', () => hanging.delete(response));
      return;
    }
    if (fake.mode === 'fail') return json(response, 500, { error: 'Internal Server Error' });
    if (fake.mode === 'garbage') {
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end('<html><body>Bad gateway</body></html>');
      return;
    }

    const q = url.searchParams.get('q') ?? '';
    switch (url.pathname) {
      case '/suggest': {
        const docs = fake.pdokAddresses
          .filter((a) => matches(a.weergavenaam, q))
          .map((a) => ({ id: a.id, weergavenaam: a.weergavenaam, type: 'adres', score: 10 }));
        return json(response, 200, { response: { numFound: docs.length, start: 0, maxScore: 10, docs } });
      }
      case '/lookup': {
        const id = url.searchParams.get('id');
        const docs = fake.pdokAddresses.filter((a) => a.id === id).map((a) => ({ ...a, type: 'adres' }));
        return json(response, 200, { response: { numFound: docs.length, start: 0, maxScore: 1, docs } });
      }
      case '/search':
        return json(
          response,
          200,
          fake.nominatimPlaces.filter((p) => matches(p.display_name, q)),
        );
      default:
        return json(response, 404, { error: 'Not found' });
    }
  }

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      fake.reset();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** A PDOK address in Harlingen, for tests: `pdokAddress('Voorstraat', 12, 'A')`. */
export function pdokAddress(street: string, number: number, letter = '', place = 'Harlingen', postcode = '8861BM'): FakePdokAddress {
  const huisNlt = `${number}${letter}`;
  return {
    id: `adr-${street.toLowerCase()}-${huisNlt.toLowerCase()}-${place.toLowerCase()}`,
    weergavenaam: `${street} ${huisNlt}, ${postcode} ${place}`,
    straatnaam: street,
    huisnummer: number,
    ...(letter ? { huisletter: letter } : {}),
    huis_nlt: huisNlt,
    postcode,
    woonplaatsnaam: place,
    gemeentenaam: 'Harlingen',
    provincienaam: 'Fryslân',
  };
}
