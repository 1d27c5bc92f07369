import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../scripts/precompress.mjs';
import { createNodeAssets } from '../../src/platform/node-assets';
import { createTestApp, type TestApp } from '../support/test-app';

// docs/decisions/016: the Node app serving a small build of its own, compressed by the build's step (scripts/precompress.mjs).

const script = `export const greeting = ${JSON.stringify('hallo kerstpakket '.repeat(300))};\n`;
const page = (title: string) =>
  `<!doctype html><html lang="nl"><head><title>${title}</title></head><body>${'<p>Kerstactie Harlingen</p>'.repeat(80)}</body></html>`;
const shellHtml = `<!doctype html><html lang="nl"><head><title>Kerstactie</title><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div>${'<!-- shell -->'.repeat(40)}</body></html>`;
const png = Buffer.alloc(4096, 7);

let root: string;
let t: TestApp;
/** The Brotli copy as the test left it on disk: made at quality 1, unlike anything the step or a server would make. */
let scriptBr: Buffer;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'kerstactie-static-'));
  mkdirSync(join(root, 'assets'));
  mkdirSync(join(root, 'images'));
  mkdirSync(join(root, '.vite'));
  writeFileSync(join(root, 'assets/app-abc123.js'), script);
  writeFileSync(join(root, 'index.html'), page('Home'));
  writeFileSync(join(root, 'faq.html'), page('FAQ'));
  writeFileSync(join(root, 'app.html'), shellHtml);
  writeFileSync(join(root, 'favicon.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<circle r="1"/>'.repeat(30)}</svg>`);
  writeFileSync(join(root, 'images/logo.png'), png);
  writeFileSync(join(root, 'tiny.txt'), 'ok');
  writeFileSync(join(root, 'order-sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(root, '.vite/manifest.json'), JSON.stringify({ 'main.tsx': { file: 'assets/app-abc123.js' } }));
  await precompress(root);
  // Replace the step's Brotli copy by a valid one of different bytes: whatever is sent must be the file on
  // disk, not a compression made for the request.
  scriptBr = brotliCompressSync(script, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
  expect(scriptBr).not.toEqual(readFileSync(join(root, 'assets/app-abc123.js.br')));
  writeFileSync(join(root, 'assets/app-abc123.js.br'), scriptBr);

  t = await createTestApp();
  t.deps.assets = createNodeAssets(root);
});

afterAll(async () => {
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => t.app.request(`http://127.0.0.1${path}`, { method, headers });
const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe('the build step (scripts/precompress.mjs)', () => {
  it('writes Brotli and gzip copies of the text files that decompress to the file, and none that would not be smaller', () => {
    for (const file of ['assets/app-abc123.js', 'index.html', 'faq.html', 'app.html', 'favicon.svg']) {
      const plain = readFileSync(join(root, file));
      const br = readFileSync(join(root, `${file}.br`));
      const gz = readFileSync(join(root, `${file}.gz`));
      expect(brotliDecompressSync(br), file).toEqual(plain);
      expect(gunzipSync(gz), file).toEqual(plain);
      expect(br.length, file).toBeLessThan(plain.length);
      expect(gz.length, file).toBeLessThan(plain.length);
    }
    expect(existsSync(join(root, 'tiny.txt.br'))).toBe(false);
    expect(existsSync(join(root, 'tiny.txt.gz'))).toBe(false);
    expect(existsSync(join(root, 'images/logo.png.br'))).toBe(false);
  });

  it('keeps the copies out of the Worker upload (Cloudflare compresses itself)', () => {
    const ignored = readFileSync(join(root, '.assetsignore'), 'utf8').split('\n');
    expect(ignored).toContain('*.br');
    expect(ignored).toContain('*.gz');
  });

  it('removes a copy left by an earlier run once it no longer pays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kerstactie-static-'));
    writeFileSync(join(dir, 'robots.txt'), 'ok');
    writeFileSync(join(dir, 'robots.txt.gz'), 'stale');
    await precompress(dir);
    expect(existsSync(join(dir, 'robots.txt.gz'))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('static files on Node', () => {
  it('sends the Brotli copy byte for byte to a browser that accepts it, with Vary and its length', async () => {
    const response = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const body = await bytes(response);
    expect(body).toEqual(scriptBr);
    expect(Number(response.headers.get('content-length'))).toBe(body.length);
    expect(brotliDecompressSync(body).toString()).toBe(script);
    // Again: still the file on disk, not a compression made (and kept) on the first request.
    expect(await bytes(await get('/assets/app-abc123.js', { 'accept-encoding': 'br' }))).toEqual(scriptBr);
  });

  it('sends the gzip copy when Brotli is refused or ranked lower', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip', 'br;q=0.1, gzip;q=0.9']) {
      const response = await get('/assets/app-abc123.js', { 'accept-encoding': accept });
      expect(response.headers.get('content-encoding'), accept).toBe('gzip');
      const body = await bytes(response);
      expect(body, accept).toEqual(readFileSync(join(root, 'assets/app-abc123.js.gz')));
      expect(Number(response.headers.get('content-length'))).toBe(body.length);
      expect(gunzipSync(body).toString()).toBe(script);
    }
  });

  it('sends the plain file for identity or no Accept-Encoding, still with Vary', async () => {
    for (const headers of [{ 'accept-encoding': 'identity' }, {}, { 'accept-encoding': 'br;q=0, gzip;q=0' }] as Record<string, string>[]) {
      const response = await get('/assets/app-abc123.js', headers);
      expect(response.headers.get('content-encoding')).toBeNull();
      expect(response.headers.get('vary')).toBe('Accept-Encoding');
      expect(await response.text()).toBe(script);
      expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(script));
    }
  });

  it('caches hashed assets for a year, immutable, in every encoding', async () => {
    for (const accept of ['br', 'gzip', 'identity']) {
      const response = await get('/assets/app-abc123.js', { 'accept-encoding': accept });
      expect(response.headers.get('cache-control'), accept).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-security-policy'), accept).toContain("frame-ancestors 'none'");
    }
  });

  it('has pages revalidated: no-cache, a strong ETag per encoding, and 304 with no body for GET and HEAD', async () => {
    for (const [path, accept] of [
      ['/faq', 'br'],
      ['/', 'gzip'],
      ['/faq', 'identity'],
    ] as const) {
      const first = await get(path, { accept: 'text/html', 'accept-encoding': accept });
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe('no-cache');
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]{27}"$/);
      for (const method of ['GET', 'HEAD']) {
        const again = await get(path, { accept: 'text/html', 'accept-encoding': accept, 'if-none-match': `"other", ${etag}` }, method);
        expect(again.status, `${method} ${path} ${accept}`).toBe(304);
        expect(await again.text()).toBe('');
        expect(again.headers.get('etag')).toBe(etag);
        expect(again.headers.get('cache-control')).toBe('no-cache');
        expect(again.headers.get('vary')).toBe('Accept-Encoding');
        // Security headers are on every answer, a 304 too.
        expect(again.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        expect(again.headers.get('x-content-type-options')).toBe('nosniff');
      }
      // If-None-Match compares weakly.
      expect((await get(path, { 'accept-encoding': accept, 'if-none-match': `W/${etag}` })).status).toBe(304);
    }
    const br = (await get('/faq', { 'accept-encoding': 'br' })).headers.get('etag');
    const plain = await get('/faq', { 'if-none-match': br! });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('etag')).not.toBe(br);
    expect(await plain.text()).toBe(page('FAQ'));
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const head = await get('/faq', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-encoding')).toBe('br');
    expect(Number(head.headers.get('content-length'))).toBe(readFileSync(join(root, 'faq.html.br')).length);
    expect(await head.text()).toBe('');
  });

  it('serves the shell for other page routes as a page: no-cache, ETag and 304', async () => {
    for (const path of ['/admin', '/assets/not-a-file']) {
      const shell = await get(path, { accept: 'text/html', 'accept-encoding': 'br' });
      expect(shell.status, path).toBe(200);
      expect(brotliDecompressSync(await bytes(shell)).toString(), path).toBe(shellHtml);
      expect(shell.headers.get('cache-control'), path).toBe('no-cache');
      const again = await get(path, { accept: 'text/html', 'accept-encoding': 'br', 'if-none-match': shell.headers.get('etag')! });
      expect(again.status, path).toBe(304);
    }
  });

  it('gives other files an hour, with ETag and 304', async () => {
    for (const path of ['/favicon.svg', '/images/logo.png', '/tiny.txt']) {
      const response = await get(path, { 'accept-encoding': 'br' });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('public, max-age=3600');
      const again = await get(path, { 'accept-encoding': 'br', 'if-none-match': response.headers.get('etag')! });
      expect(again.status, path).toBe(304);
    }
    expect((await get('/favicon.svg', { 'accept-encoding': 'br' })).headers.get('content-encoding')).toBe('br');
    const logo = await get('/images/logo.png', { 'accept-encoding': 'br' });
    expect(logo.headers.get('content-encoding')).toBeNull();
    expect(await bytes(logo)).toEqual(png);
    const tiny = await get('/tiny.txt', { 'accept-encoding': 'br' });
    expect(tiny.headers.get('content-encoding')).toBeNull();
    expect(await tiny.text()).toBe('ok');
  });

  it("has the member app's service worker revalidated like a page (docs/decisions/069)", async () => {
    const response = await get('/order-sw.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const again = await get('/order-sw.js', { 'if-none-match': response.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('never serves the compressed copies or build internals as paths of their own', async () => {
    for (const path of [
      '/assets/app-abc123.js.br',
      '/assets/app-abc123.js.gz',
      '/faq.html.br',
      '/faq.html.gz',
      '/.vite/manifest.json',
      '/.assetsignore',
      '/%2Evite/manifest.json',
    ]) {
      for (const accept of ['*/*', 'text/html']) {
        const response = await get(path, { accept, 'accept-encoding': 'br' });
        expect(response.status, `${path} ${accept}`).toBe(404);
        expect(response.headers.get('cache-control'), path).toBeNull();
      }
    }
  });
});
