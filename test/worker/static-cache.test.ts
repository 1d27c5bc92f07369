import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

// docs/decisions/016: the Worker's files (the assets binding over dist/web, `npm run build:web`) cache like Node's
// (src/http/asset-caching.ts), in place of Cloudflare's default of revalidating everything.

const site = 'https://kerst.example';
const page = (path: string, headers: Record<string, string> = {}) => SELF.fetch(`${site}${path}`, { headers: { accept: 'text/html', ...headers } });

/** A hashed script of the build, as the home page loads it. */
async function homeScript(): Promise<string> {
  const html = await (await page('/')).text();
  const path = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!path) throw new Error('The home page loads no script from /assets/');
  return path;
}

describe('static files on the Worker', () => {
  it('caches hashed assets for a year, immutable', async () => {
    const path = await homeScript();
    const response = await SELF.fetch(`${site}${path}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    await response.arrayBuffer();
  });

  it('has pages and the SPA shell revalidated: no-cache, and 304 on a matching ETag with the security headers', async () => {
    for (const path of ['/', '/faq', '/admin']) {
      const first = await page(path);
      expect(first.status, path).toBe(200);
      expect(first.headers.get('cache-control'), path).toBe('no-cache');
      await first.text();
      const etag = first.headers.get('etag');
      expect(etag, path).toBeTruthy();
      const again = await page(path, { 'if-none-match': etag! });
      expect(again.status, path).toBe(304);
      expect(again.headers.get('cache-control'), path).toBe('no-cache');
      expect(again.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(await again.text(), path).toBe('');
    }
  });

  it('gives other files an hour', async () => {
    const favicon = await SELF.fetch(`${site}/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('cache-control')).toBe('public, max-age=3600');
    await favicon.arrayBuffer();
  });

  it("has the member app's service worker revalidated like a page, and serves its manifest (docs/decisions/069)", async () => {
    const worker = await SELF.fetch(`${site}/order-sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toMatch(/javascript/);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    expect(await worker.text()).toContain('order-page');
    const manifest = await SELF.fetch(`${site}/order.webmanifest`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    expect(await manifest.json()).toMatchObject({ start_url: '/order', scope: '/order', display: 'standalone' });
  });

  it("leaves the build's compressed copies out of the assets (.assetsignore)", async () => {
    const path = await homeScript();
    for (const copy of [`${path}.br`, `${path}.gz`, '/index.html.br', '/.assetsignore']) {
      const response = await SELF.fetch(`${site}${copy}`);
      expect(response.status, copy).toBe(404);
      expect(response.headers.get('cache-control'), copy).toBeNull();
      await response.arrayBuffer();
    }
  });
});
