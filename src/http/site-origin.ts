import type { Config } from '../env';

/**
 * The site's own address for absolute links (sitemap, mailed reset links): PUBLIC_URL when set (behind a
 * proxy the request may show an inner address), else the address the request came in on.
 */
export function siteOrigin(config: Pick<Config, 'publicUrl'>, requestUrl: string): string {
  return config.publicUrl ? new URL(config.publicUrl).origin : new URL(requestUrl).origin;
}
