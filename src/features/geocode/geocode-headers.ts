// The response headers of GET /api/geocode/search, read by the address field in the browser
// (web/components/address-search.tsx): one module without imports, so the web bundle takes only these names.

/** Names the provider whose data an answer holds, so the field shows the attribution its terms ask for. */
export const GEOCODER_PROVIDER_HEADER = 'X-Geocoder-Provider';

/**
 * `unavailable` when the provider failed. The body is then `[]` as for an address nobody has (docs/architecture.md §4), and
 * this header tells the two apart: the field says 'No addresses found' only when the provider said so (docs/decisions/014).
 */
export const GEOCODER_STATUS_HEADER = 'X-Geocoder-Status';
export const GEOCODER_UNAVAILABLE = 'unavailable';
