import type { R2Bucket } from '@cloudflare/workers-types';
import { assertSafeKey, type FileStore } from './files';

declare const FixedLengthStream: {
  new (length: number): { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> };
};

/** R2 parts must be at least 5 MiB (but the last); 8 MiB keeps memory bounded and requests few. */
const PART_SIZE = 8 * 1024 * 1024;

/**
 * Files in an R2 bucket (Worker). A stream of known length goes through FixedLengthStream, as R2
 * requires; a stream of unknown length (a multipart upload) is sent as an R2 multipart upload in 8 MiB
 * parts, so memory holds one part at a time, never the whole file.
 */
export function createR2FileStore(bucket: R2Bucket): FileStore {
  async function putUnknownLength(key: string, body: ReadableStream<Uint8Array>, contentType: string | undefined): Promise<number> {
    const reader = body.getReader();
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    let total = 0;
    const take = () => {
      const out = new Uint8Array(pendingBytes);
      let offset = 0;
      for (const chunk of pending) {
        out.set(chunk, offset);
        offset += chunk.length;
      }
      pending = [];
      pendingBytes = 0;
      return out;
    };
    const options = contentType ? { httpMetadata: { contentType } } : undefined;
    // Small files (the usual case) are one plain put.
    let upload: Awaited<ReturnType<R2Bucket['createMultipartUpload']>> | null = null;
    const parts: { partNumber: number; etag: string }[] = [];
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (value) {
          pending.push(value);
          pendingBytes += value.length;
          total += value.length;
        }
        if (pendingBytes >= PART_SIZE || (done && upload)) {
          if (!upload) upload = await bucket.createMultipartUpload(key, options);
          if (pendingBytes > 0 || parts.length === 0) parts.push(await upload.uploadPart(parts.length + 1, take()));
        }
        if (done) break;
      }
      if (upload) await upload.complete(parts);
      else await bucket.put(key, take(), options);
      return total;
    } catch (error) {
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
  };
}
