import { createHash } from 'node:crypto';
import type { R2Bucket } from '@cloudflare/workers-types';
import { describe, expect, it } from 'vitest';
import { createR2FileStore, R2_PART_SIZE } from './files-r2';

type Failure = { part?: number; complete?: boolean; put?: boolean };

/** A bucket that records what the store sends, and fails where told (the real one runs in test/worker). */
function recordingBucket(fail: Failure = {}) {
  const sent = { puts: [] as Uint8Array[], parts: [] as Uint8Array[], completed: null as number[] | null, aborted: false, created: 0 };
  const bucket = {
    async put(_key: string, value: Uint8Array) {
      if (fail.put) throw new Error('put: We encountered an internal error. Please try again. (10001)');
      sent.puts.push(value.slice());
      return { size: value.byteLength };
    },
    async createMultipartUpload(key: string) {
      sent.created++;
      return {
        key,
        uploadId: 'upload-1',
        async uploadPart(partNumber: number, value: Uint8Array) {
          if (partNumber === fail.part) throw new Error(`uploadPart: part ${partNumber} failed (10001)`);
          sent.parts.push(value.slice());
          return { partNumber, etag: `etag-${partNumber}` };
        },
        async complete(parts: { partNumber: number }[]) {
          if (fail.complete) throw new Error('completeMultipartUpload: internal error (10001)');
          sent.completed = parts.map((part) => part.partNumber);
          return {};
        },
        async abort() {
          sent.aborted = true;
        },
      };
    },
  };
  return { bucket: bucket as unknown as R2Bucket, sent };
}

/** `total` bytes of a position-dependent pattern, in chunks of an odd size that straddle part boundaries. */
function patternStream(total: number, chunk = 100_003) {
  const state = { cancelled: null as unknown, sent: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.sent >= total) return controller.close();
      const length = Math.min(chunk, total - state.sent);
      controller.enqueue(new Uint8Array(length).map((_, i) => ((state.sent + i) * 7 + ((state.sent + i) >> 16)) & 0xff));
      state.sent += length;
    },
    cancel(reason) {
      state.cancelled = reason;
    },
  });
  return { stream, state };
}

/** Digests, not arrays, are compared: a deep equality over millions of elements exhausts the heap. */
function sha256Of(parts: Uint8Array[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

async function patternDigest(total: number): Promise<string> {
  return sha256Of([new Uint8Array(await new Response(patternStream(total).stream).arrayBuffer())]);
}

describe('the R2 file store (streams of unknown length)', () => {
  it('cuts a large stream into parts of exactly one size, only the last one smaller, in order', async () => {
    const { bucket, sent } = recordingBucket();
    const total = 2 * R2_PART_SIZE + 12_345;
    const { size } = await createR2FileStore(bucket).put('apks/big.apk', patternStream(total).stream, {
      contentType: 'application/vnd.android.package-archive',
    });
    expect(size).toBe(total);
    expect(sent.parts.map((part) => part.length)).toEqual([R2_PART_SIZE, R2_PART_SIZE, 12_345]);
    expect(sent.completed).toEqual([1, 2, 3]);
    expect(sent.puts).toEqual([]);
    expect(sha256Of(sent.parts)).toBe(await patternDigest(total));
  });

  it('sends a stream of whole parts without an empty last part', async () => {
    const { bucket, sent } = recordingBucket();
    await createR2FileStore(bucket).put('apks/even.apk', patternStream(2 * R2_PART_SIZE, 1 << 16).stream);
    expect(sent.parts.map((part) => part.length)).toEqual([R2_PART_SIZE, R2_PART_SIZE]);
    expect(sent.completed).toEqual([1, 2]);
  });

  it('stores a stream smaller than one part with a single put', async () => {
    const { bucket, sent } = recordingBucket();
    const { size } = await createR2FileStore(bucket).put('apks/small.apk', patternStream(300_000).stream);
    expect(size).toBe(300_000);
    expect(sent.created).toBe(0);
    expect(sent.puts).toHaveLength(1);
    expect(sha256Of(sent.puts)).toBe(await patternDigest(300_000));
  });

  it.each([
    ['a part upload', { part: 2 } as Failure, 'uploadPart: part 2 failed (10001)'],
    ['the completion', { complete: true } as Failure, 'completeMultipartUpload: internal error (10001)'],
  ])('aborts the multipart upload and stops reading when %s fails', async (_what, fail, message) => {
    const { bucket, sent } = recordingBucket(fail);
    const source = patternStream(3 * R2_PART_SIZE + 1);
    await expect(createR2FileStore(bucket).put('apks/broken.apk', source.stream)).rejects.toThrow(message);
    expect(sent.aborted).toBe(true);
    expect(sent.completed).toBeNull();
    if (fail.part) {
      // The writer upstream learns of the failure instead of waiting on a stream nobody reads.
      expect((source.state.cancelled as Error).message).toBe(message);
      expect(source.state.sent).toBeLessThan(3 * R2_PART_SIZE);
    }
  });

  it('rejects when the single put of a small stream fails', async () => {
    const { bucket } = recordingBucket({ put: true });
    await expect(createR2FileStore(bucket).put('apks/small.apk', patternStream(1000).stream)).rejects.toThrow('put: We encountered an internal error');
  });
});

describe('the R2 file store (listing)', () => {
  it('follows the cursor over every page of a listing', async () => {
    const pages = [
      { objects: [{ key: 'series/invoice/2026/0001' }, { key: 'series/invoice/2026/0002' }], truncated: true, cursor: 'c1' },
      { objects: [{ key: 'series/invoice/2026/0003' }], truncated: false },
    ];
    const asked: unknown[] = [];
    const bucket = {
      async list(options: { prefix: string; cursor?: string }) {
        asked.push(options);
        return pages[options.cursor ? 1 : 0];
      },
    } as unknown as R2Bucket;
    expect(await createR2FileStore(bucket).list('series/invoice/2026/')).toEqual([
      'series/invoice/2026/0001',
      'series/invoice/2026/0002',
      'series/invoice/2026/0003',
    ]);
    expect(asked).toEqual([{ prefix: 'series/invoice/2026/' }, { prefix: 'series/invoice/2026/', cursor: 'c1' }]);
  });
});
