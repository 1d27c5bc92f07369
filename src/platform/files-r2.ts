import type { R2Bucket } from '@cloudflare/workers-types';
import { assertSafeKey, type FileStore } from './files';

declare const FixedLengthStream: {
  new (length: number): { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> };
};

/** Files in an R2 bucket (Worker). A stream of known length is piped through FixedLengthStream, as R2 requires. */
export function createR2FileStore(bucket: R2Bucket): FileStore {
  return {
    async put(key, body, options) {
      assertSafeKey(key);
      let value: ReadableStream<Uint8Array> | Uint8Array = body;
      if (!(body instanceof Uint8Array)) {
        if (options?.size === undefined) throw new Error('R2 needs the size of a streamed upload');
        const fixed = new FixedLengthStream(options.size);
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
