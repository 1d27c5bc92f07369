import { Hono } from 'hono';
import type { AppDeps } from '../../context';
import { PRIVATE_SCREENS, PUBLIC_PAGES } from '../../core/public-pages';
import { TRPC_ROOT } from '../../core/server-paths';
import type { AppEnv } from '../../http/app-env';

// docs/decisions/015: robots.txt and sitemap.xml for the public pages, with absolute addresses on the club's origin (docs/decisions/054).

const SITEMAP_PATHS = PUBLIC_PAGES.filter((page) => page.sitemap).map((page) => page.path);

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function seoRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  // Where crawlers have no business: the SPA's private screens and the server's own paths.
  const disallowed = [...PRIVATE_SCREENS, `${deps.config.apiBasePath}/api/`, `${TRPC_ROOT}/`];
  app.get('/robots.txt', (c) => {
    // The club's origin (docs/decisions/071), read per request: with PORT=0, Node names the port only once it is listening.
    const origin = deps.clubs.originOf(c.get('club'));
    const lines = ['User-agent: *', ...disallowed.map((path) => `Disallow: ${path}`), '', `Sitemap: ${origin}/sitemap.xml`, ''];
    return c.body(lines.join('\n'), 200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' });
  });

  app.get('/sitemap.xml', (c) => {
    const origin = deps.clubs.originOf(c.get('club'));
    const urls = SITEMAP_PATHS.map(
      (path) => `  <url><loc>${xmlEscape(origin + path)}</loc><changefreq>weekly</changefreq><priority>${path === '/' ? '1.0' : '0.7'}</priority></url>`,
    );
    const xml = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
    return c.body(xml, 200, { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' });
  });

  return app;
}
