import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeAssets, pickEncoding } from './node-assets';

let root: string;
let serve: ReturnType<typeof createNodeAssets>;
const script = `export const greeting = ${JSON.stringify('hallo '.repeat(500))};\n`;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'kerstactie-assets-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'assets/app-abc123.js'), script);
  writeFileSync(join(root, 'faq.html'), '<!doctype html><title>FAQ</title>');
  writeFileSync(join(root, 'logo.png'), Buffer.alloc(4096, 7));
  writeFileSync(join(tmpdir(), 'kerstactie-secret.txt'), 'secret');
  serve = createNodeAssets(root);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const get = (path: string, headers: Record<string, string> = {}) => serve(new Request(`http://127.0.0.1${path}`, { headers }));

describe('createNodeAssets', () => {
  it('sends Brotli or gzip when the browser accepts it, and the plain file otherwise', async () => {
    const br = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const brBody = Buffer.from(await br.arrayBuffer());
    expect(Number(br.headers.get('content-length'))).toBe(brBody.length);
    expect(brBody.length).toBeLessThan(script.length / 10);
    expect(brotliDecompressSync(brBody).toString()).toBe(script);

    const gz = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(script);

    const plain = await get('/assets/app-abc123.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(script);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('does not compress images or tiny files', async () => {
    const png = await get('/logo.png', { 'accept-encoding': 'br' });
    expect(png.headers.get('content-encoding')).toBeNull();
    const page = await get('/faq', { 'accept-encoding': 'br' });
    expect(page.headers.get('content-encoding')).toBeNull();
    expect(page.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await get('/faq');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await get('/faq', { 'if-none-match': `"other", ${etag}` });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('finds prerendered pages as <path>.html and refuses paths outside its folder', async () => {
    expect((await get('/faq')).status).toBe(200);
    expect((await get('/no-such-page')).status).toBe(404);
    expect((await get('/..%2Fkerstactie-secret.txt')).status).toBe(404);
    expect((await get('/%E0%A4%A')).status).toBe(400);
  });
});

describe('pickEncoding', () => {
  it('prefers Brotli, honours q=0 and falls back to gzip', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(null)).toBeNull();
    expect(pickEncoding('*')).toBe('gzip');
  });

  it('keeps only existing files in memory: thousands of random misses leave the cache as it was', async () => {
    await get('/faq');
    const before = serve.cachedFiles();
    expect(before).toBeGreaterThan(0);
    for (let i = 0; i < 3000; i++) {
      const miss = await get(`/${crypto.randomUUID()}/${'x'.repeat(200)}${i}`);
      expect(miss.status).toBe(404);
    }
    expect(serve.cachedFiles()).toBe(before);
    // A file added after a miss is found on the next request (misses are not remembered).
    expect((await get('/late.txt')).status).toBe(404);
    writeFileSync(join(root, 'late.txt'), 'now here');
    expect((await get('/late.txt')).status).toBe(200);
  });
});
