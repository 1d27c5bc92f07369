import { Hono } from 'hono';
import type { AppDeps } from '../../context';
import type { AppEnv } from '../../http/request-ctx';
import { siteOrigin } from '../../http/site-origin';

// Issue 5 item 3: robots.txt and sitemap.xml for the public pages, with absolute addresses (site-origin.ts).

/** The prerendered public pages (web/lib/prerender.ts lists the same five). */
export const PUBLIC_PAGES = ['/', '/faq', '/bestelinformatie', '/privacy', '/contact'] as const;

/** Where crawlers have no business: the signed-in screens, the order form and every server path. */
const DISALLOWED = ['/admin', '/account', '/protected', '/login', '/register', '/forgot-password', '/reset-password', '/maintenance', '/api/', '/trpc/'];

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function seoRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/robots.txt', (c) => {
    const origin = siteOrigin(deps.config, c.req.url);
    const lines = ['User-agent: *', ...DISALLOWED.map((path) => `Disallow: ${path}`), '', `Sitemap: ${origin}/sitemap.xml`, ''];
    return c.body(lines.join('\n'), 200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' });
  });

  app.get('/sitemap.xml', (c) => {
    const origin = siteOrigin(deps.config, c.req.url);
    const urls = PUBLIC_PAGES.map(
      (path) => `  <url><loc>${xmlEscape(origin + path)}</loc><changefreq>weekly</changefreq><priority>${path === '/' ? '1.0' : '0.7'}</priority></url>`,
    );
    const xml = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
    return c.body(xml, 200, { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' });
  });

  return app;
}
