import type { Config } from '../env';

const publicOrigins = new Map<string, string>();

/**
 * The site's own address for absolute links (sitemap, mailed reset links): PUBLIC_URL when set (behind a
 * proxy the request may show an inner address), else the address the request came in on. Cheap enough
 * to work out for every request: PUBLIC_URL is parsed once, and a request's URL is already absolute and
 * normalised (WHATWG serialisation), so its origin is everything before the path's first '/'.
 */
export function siteOrigin(config: Pick<Config, 'publicUrl'>, requestUrl: string): string {
  if (config.publicUrl) {
    let origin = publicOrigins.get(config.publicUrl);
    if (origin === undefined) {
      origin = new URL(config.publicUrl).origin;
      publicOrigins.set(config.publicUrl, origin);
    }
    return origin;
  }
  const pathStart = requestUrl.indexOf('/', requestUrl.indexOf('//') + 2);
  return pathStart === -1 ? requestUrl : requestUrl.slice(0, pathStart);
}
