import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiskFileStore } from './files-disk';
import type { FileStore } from './files';

let root: string;
let store: FileStore;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kerstactie-files-'));
  store = createDiskFileStore(join(root, 'store'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function streamOf(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function allFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true }).map(String);
  } catch {
    return [];
  }
}

describe('the disk file store', () => {
  it('stores a stream and gives the same bytes and size back', async () => {
    const a = new Uint8Array(70_000).map((_, i) => i % 251);
    const b = new Uint8Array(5_000).fill(7);
    const put = await store.put('apks/app_v12_1.2.0.apk', streamOf(a, b), { size: 75_000 });
    expect(put).toEqual({ size: 75_000 });
    expect(await store.exists('apks/app_v12_1.2.0.apk')).toBe(true);
    const got = await store.get('apks/app_v12_1.2.0.apk');
    expect(got?.size).toBe(75_000);
    const bytes = await bytesOf(got!.body);
    expect(bytes.subarray(0, 70_000)).toEqual(a);
    expect(bytes.subarray(70_000)).toEqual(b);
  });

  it('stores a byte array without an announced size', async () => {
    expect(await store.put('invoice.pdf', new TextEncoder().encode('%PDF-1.7'))).toEqual({ size: 8 });
    expect(new TextDecoder().decode(await bytesOf((await store.get('invoice.pdf'))!.body))).toBe('%PDF-1.7');
  });

  it('replaces a file stored under the same key', async () => {
    await store.put('app_latest.apk', new Uint8Array([1, 2, 3]));
    await store.put('app_latest.apk', new Uint8Array([9]));
    const got = await store.get('app_latest.apk');
    expect(got?.size).toBe(1);
    expect(await bytesOf(got!.body)).toEqual(new Uint8Array([9]));
  });

  it('answers null and false for a key that was never stored', async () => {
    expect(await store.get('nothing.apk')).toBeNull();
    expect(await store.exists('nothing.apk')).toBe(false);
  });

  it('deletes a file, and deleting a missing file is not an error', async () => {
    await store.put('weg.apk', new Uint8Array([1]));
    await store.delete('weg.apk');
    expect(await store.exists('weg.apk')).toBe(false);
    expect(await store.get('weg.apk')).toBeNull();
    await expect(store.delete('weg.apk')).resolves.toBeUndefined();
  });

  it('rejects a stream whose size differs from the announced one and leaves neither the file nor a .partial', async () => {
    await expect(store.put('apks/short.apk', streamOf(new Uint8Array(100)), { size: 101 })).rejects.toThrow('Stored size 100 differs from the announced 101');
    expect(await store.exists('apks/short.apk')).toBe(false);
    expect(allFiles(join(root, 'store')).filter((f) => f.endsWith('.apk') || f.endsWith('.partial'))).toEqual([]);
  });

  it('keeps the previous file when a replacement fails its size check', async () => {
    await store.put('app_latest.apk', new Uint8Array([1, 2, 3]));
    await expect(store.put('app_latest.apk', new Uint8Array([4, 5]), { size: 3 })).rejects.toThrow();
    expect(await bytesOf((await store.get('app_latest.apk'))!.body)).toEqual(new Uint8Array([1, 2, 3]));
    expect(allFiles(join(root, 'store')).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('leaves no .partial behind when the stream itself fails', async () => {
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10));
        controller.error(new Error('connection reset'));
      },
    });
    await expect(store.put('broken.apk', failing, { size: 20 })).rejects.toThrow();
    expect(await store.exists('broken.apk')).toBe(false);
    expect(allFiles(join(root, 'store')).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it.each(['../x', 'a/../../x', '/etc/passwd', 'a//b', './x', 'a/./b', 'a\\b', '', 'a b.apk', 'apks/'])(
    'refuses the unsafe key %j for put, get and delete',
    async (key) => {
      await expect(store.put(key, new Uint8Array([1]))).rejects.toThrow('Unsafe storage key');
      await expect(store.get(key)).rejects.toThrow('Unsafe storage key');
      await expect(store.delete(key)).rejects.toThrow('Unsafe storage key');
    },
  );

  it('never writes or reads outside its folder', async () => {
    writeFileSync(join(root, 'outside.txt'), 'secret');
    await expect(store.get('../outside.txt')).rejects.toThrow('Unsafe storage key');
    await expect(store.exists('../outside.txt')).rejects.toThrow('Unsafe storage key');
    await expect(store.delete('../outside.txt')).rejects.toThrow('Unsafe storage key');
    expect(readdirSync(root)).toContain('outside.txt');
  });

  it('lists the keys under a prefix, sorted, without other folders or unfinished writes', async () => {
    await store.put('series/invoice/2026/0002', new Uint8Array());
    await store.put('series/invoice/2026/0010', new Uint8Array());
    await store.put('series/invoice/2025/0007', new Uint8Array());
    await store.put('invoices/F2026-0002-ab.pdf', new Uint8Array([1]));
    writeFileSync(join(root, 'store', 'series/invoice/2026/0011.1a2b.partial'), '');
    expect(await store.list('series/invoice/2026/')).toEqual(['series/invoice/2026/0002', 'series/invoice/2026/0010']);
    expect(await store.list('series/')).toEqual(['series/invoice/2025/0007', 'series/invoice/2026/0002', 'series/invoice/2026/0010']);
    expect(await store.list('invoices/F2026-')).toEqual(['invoices/F2026-0002-ab.pdf']);
    expect(await store.list('series/invoice/2027/')).toEqual([]);
    await expect(store.list('../')).rejects.toThrow('Unsafe storage key');
  });
});

describe('file modes', () => {
  it('makes folders 0700 and files 0600, streamed or not', async () => {
    await store.put('invoices/2026/F2026-0001.pdf', new Uint8Array([1, 2, 3]));
    await store.put('apks/app.apk', streamOf(new Uint8Array([4, 5])));
    const mode = (path: string) => statSync(join(root, 'store', path)).mode & 0o777;
    expect(mode('invoices')).toBe(0o700);
    expect(mode('invoices/2026')).toBe(0o700);
    expect(mode('invoices/2026/F2026-0001.pdf')).toBe(0o600);
    expect(mode('apks/app.apk')).toBe(0o600);
  });
});
