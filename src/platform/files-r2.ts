import type { R2Bucket } from '@cloudflare/workers-types';
import { assertSafeKey, type FileStore } from './files';

declare const FixedLengthStream: {
  new (length: number): { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> };
};

/**
 * R2 requires every part of a multipart upload but the last to have the same size, of at least 5 MiB
 * (parts of varying size fail on complete with error 10048). 8 MiB keeps memory at one part and the
 * requests few: 100 MB is 12 parts, R2 allows 10,000.
 */
export const R2_PART_SIZE = 8 * 1024 * 1024;

type MultipartUpload = Awaited<ReturnType<R2Bucket['createMultipartUpload']>>;

/**
 * Files in an R2 bucket (Worker). A stream of known length goes through FixedLengthStream, as R2
 * requires; a stream of unknown length (a multipart upload) is cut into parts of exactly R2_PART_SIZE,
 * so memory holds one part at a time, never the whole file. A file smaller than one part is one put.
 */
export function createR2FileStore(bucket: R2Bucket): FileStore {
  async function putUnknownLength(key: string, body: ReadableStream<Uint8Array>, contentType: string | undefined): Promise<number> {
    const reader = body.getReader();
    const options = contentType ? { httpMetadata: { contentType } } : undefined;
    let part = new Uint8Array(R2_PART_SIZE);
    let filled = 0;
    let total = 0;
    let upload: MultipartUpload | null = null;
    const parts: { partNumber: number; etag: string }[] = [];
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.length;
        // A chunk may straddle a part boundary: fill the part, send it whole, carry the rest over.
        for (let offset = 0; offset < value.length; ) {
          const taken = Math.min(R2_PART_SIZE - filled, value.length - offset);
          part.set(value.subarray(offset, offset + taken), filled);
          filled += taken;
          offset += taken;
          if (filled === R2_PART_SIZE) {
            upload ??= await bucket.createMultipartUpload(key, options);
            parts.push(await upload.uploadPart(parts.length + 1, part));
            // A fresh buffer: the sent one may still be referenced by the finished request.
            part = new Uint8Array(R2_PART_SIZE);
            filled = 0;
          }
        }
      }
      if (!upload) {
        const stored = await bucket.put(key, part.subarray(0, filled), options);
        if (!stored) throw new Error(`R2 refused to store ${key}`);
        return total;
      }
      // Only the last part may be smaller; a file of whole parts has no extra one.
      if (filled > 0) parts.push(await upload.uploadPart(parts.length + 1, part.subarray(0, filled)));
      await upload.complete(parts);
      return total;
    } catch (error) {
      // Stop the writer upstream (its pending write fails instead of waiting), and leave no parts behind.
      await reader.cancel(error).catch(() => undefined);
      await upload?.abort().catch(() => undefined);
      throw error;
    }
  }

  return {
    async put(key, body, options) {
      assertSafeKey(key);
      if (!(body instanceof Uint8Array) && options?.size === undefined) {
        return { size: await putUnknownLength(key, body, options?.contentType) };
      }
      let value: ReadableStream<Uint8Array> | Uint8Array = body;
      if (!(body instanceof Uint8Array)) {
        const fixed = new FixedLengthStream(options!.size!);
        void body.pipeTo(fixed.writable).catch(() => undefined);
        value = fixed.readable;
      }
      const stored = await bucket.put(key, value as never, {
        httpMetadata: options?.contentType ? { contentType: options.contentType } : undefined,
      });
      if (!stored) throw new Error(`R2 refused to store ${key}`);
      return { size: stored.size };
    },
    async get(key) {
      assertSafeKey(key);
      const object = await bucket.get(key);
      if (!object) return null;
      return { body: object.body as unknown as ReadableStream<Uint8Array>, size: object.size };
    },
    async delete(key) {
      assertSafeKey(key);
      await bucket.delete(key);
    },
    async exists(key) {
      assertSafeKey(key);
      return (await bucket.head(key)) !== null;
    },
    async list(prefix) {
      const keys: string[] = [];
      let cursor: string | undefined;
      // R2 answers up to 1,000 keys a page, in key order.
      do {
        const page = await bucket.list({ prefix, ...(cursor ? { cursor } : {}) });
        for (const object of page.objects) keys.push(object.key);
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      return keys;
    },
  };
}
