import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';

/** docs/decisions/015, 054: robots.txt and sitemap.xml, with the site's public address when one is configured. */

let plain: TestApp;
let behindProxy: TestApp;

beforeAll(async () => {
  plain = await createTestApp();
  behindProxy = await createTestApp({ env: { PUBLIC_URL: 'https://kerstactie.example.nl/' } });
});

afterAll(async () => {
  await plain?.close();
  await behindProxy?.close();
});

const PAGES = ['/', '/faq', '/bestelinformatie', '/privacy', '/contact'];

describe('GET /sitemap.xml', () => {
  it('lists the five public pages on the default origin http://HOST:PORT without PUBLIC_URL', async () => {
    const response = await plain.request('/sitemap.xml');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect([...response.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual(PAGES.map((path) => `http://127.0.0.1:8787${path}`));
    expect(response.text).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  });

  it('uses PUBLIC_URL when set, whatever Host the proxy sends', async () => {
    const response = await behindProxy.request('/sitemap.xml', { headers: { host: 'internal:8787' } });
    expect([...response.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual(PAGES.map((path) => `https://kerstactie.example.nl${path}`));
  });
});

describe('GET /robots.txt', () => {
  it('allows the public pages and the order form, keeps crawlers out of the rest, and names the sitemap', async () => {
    const response = await behindProxy.request('/robots.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.text).toBe(
      [
        'User-agent: *',
        'Disallow: /admin',
        'Disallow: /account',
        'Disallow: /protected',
        'Disallow: /login',
        'Disallow: /register',
        'Disallow: /forgot-password',
        'Disallow: /reset-password',
        'Disallow: /maintenance',
        'Disallow: /bestelling',
        'Disallow: /bestellen',
        'Disallow: /aanmelden',
        'Disallow: /clubs',
        'Disallow: /api/',
        'Disallow: /trpc/',
        '',
        'Sitemap: https://kerstactie.example.nl/sitemap.xml',
        '',
      ].join('\n'),
    );
  });

  it('keeps crawlers out of the REST API where API_BASE_PATH puts it', async () => {
    const based = await createTestApp({ env: { API_BASE_PATH: '/kerst' } });
    try {
      const response = await based.request('/robots.txt');
      expect(response.text).toContain('Disallow: /kerst/api/\n');
      expect(response.text).not.toContain('Disallow: /api/');
    } finally {
      await based.close();
    }
  });

  it('answers only GET and HEAD', async () => {
    const response = await plain.request('/robots.txt', { method: 'POST', body: {}, headers: { origin: 'http://127.0.0.1' } });
    expect(response.status).toBe(404);
  });
});
