import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeAssets, pickEncoding } from './node-assets';

// The file server alone; what the app makes of its answers (caching, the shell, precompressed copies from a
// real build step) is in test/api/static-files.test.ts.

let root: string;
let serve: ReturnType<typeof createNodeAssets>;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'kerstactie-assets-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'faq.html'), '<!doctype html><title>FAQ</title>');
  writeFileSync(join(root, 'logo.png'), Buffer.alloc(4096, 7));
  writeFileSync(join(tmpdir(), 'kerstactie-secret.txt'), 'secret');
  serve = createNodeAssets(root);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const get = (path: string, headers: Record<string, string> = {}) => serve(new Request(`http://127.0.0.1${path}`, { headers }));

describe('createNodeAssets', () => {
  it('finds prerendered pages as <path>.html and refuses paths outside its folder', async () => {
    expect((await get('/faq')).status).toBe(200);
    expect((await get('/no-such-page')).status).toBe(404);
    expect((await get('/..%2Fkerstactie-secret.txt')).status).toBe(404);
    expect((await get('/%E0%A4%A')).status).toBe(400);
  });

  it('sends a file without compressed copies as it is, with no Vary', async () => {
    const png = await get('/logo.png', { 'accept-encoding': 'br, gzip' });
    expect(png.headers.get('content-encoding')).toBeNull();
    expect(png.headers.get('vary')).toBeNull();
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await png.arrayBuffer())).toEqual(Buffer.alloc(4096, 7));
  });

  it('keeps only existing files in memory: a thousand random misses leave the cache as it was', async () => {
    await get('/faq');
    const before = serve.cachedFiles();
    expect(before).toBeGreaterThan(0);
    for (let i = 0; i < 1000; i++) {
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

describe('pickEncoding', () => {
  it('prefers Brotli, honours q-values and q=0, and falls back to gzip', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(pickEncoding('gzip;q=1.0, br;q=1')).toBe('br');
    expect(pickEncoding('BR ; Q=0.9')).toBe('br');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*;q=0.5, br;q=0')).toBe('gzip');
  });

  it('sends plain for identity, no header, a refusal of both, or identity ranked higher', () => {
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(null)).toBeNull();
    expect(pickEncoding('')).toBeNull();
    expect(pickEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(pickEncoding('deflate, zstd')).toBeNull();
    expect(pickEncoding('identity;q=1, gzip;q=0.5')).toBeNull();
    expect(pickEncoding('gzip;q=abc')).toBeNull();
  });

  it('chooses only among the copies the file has', () => {
    expect(pickEncoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(pickEncoding('br', ['gzip'])).toBeNull();
    expect(pickEncoding('br, gzip', [])).toBeNull();
  });
});
