import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createR2FileStore, R2_PART_SIZE } from '../../src/platform/files-r2';
import { adminCookie } from './sign-in';

/**
 * docs/decisions/013: APKs of any allowed size on R2. The APK is generated as a stream, piece by piece, and
 * hashed as a stream on the way up and the way down, so the test holds a few chunks in memory, never the
 * whole file (a 20 MiB APK as arrays, blobs and form bodies would be several copies of 20 MiB).
 */
type Bucket = Parameters<typeof createR2FileStore>[0];
type MultipartUpload = Awaited<ReturnType<Bucket['createMultipartUpload']>>;
const bindings = env as unknown as { APKS: Bucket };
const site = 'https://kerst.example';

// workerd's streaming digest (a Web Crypto extension): the bytes pass through, only the hash stays.
declare const crypto: Crypto & { DigestStream: new (algorithm: string) => WritableStream<Uint8Array> & { digest: Promise<ArrayBuffer> } };
declare const FixedLengthStream: new (length: number) => TransformStream<Uint8Array, Uint8Array>;

const CHUNK = 64 * 1024;

/** Chunk `index` of a file: xorshift32 seeded by the index, so no two chunks (and no two parts) are alike. */
function chunkAt(index: number, length: number): Uint8Array {
  const words = new Uint32Array(Math.ceil(length / 4));
  let x = (index + 1) * 0x9e3779b1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  return new Uint8Array(words.buffer, 0, length);
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(crc: number, bytes: Uint8Array): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

const manifest = new TextEncoder().encode('<manifest package="nl.kerstactie.app"/>');
const names = [new TextEncoder().encode('AndroidManifest.xml'), new TextEncoder().encode('classes.dex')];

/** Bytes of the streamed APK: two stored entries, each followed by a data descriptor, then the directory. */
function apkLength(dexBytes: number): number {
  const sizes = [manifest.length, dexBytes];
  return names.reduce((n, name, i) => n + 30 + name.length + sizes[i]! + 16 + 46 + name.length, 22);
}

/**
 * A valid ZIP (an APK is one) of `dexBytes` deterministic bytes, made while it is read. Entries use the
 * data-descriptor flag so their CRC can follow their data, as a streaming ZIP writer does.
 */
function* apkChunks(dexBytes: number): Generator<Uint8Array> {
  const centrals: Uint8Array[] = [];
  let offset = 0;
  function* entry(name: Uint8Array, size: number, data: Iterable<Uint8Array>): Generator<Uint8Array> {
    const local = new Uint8Array(30 + name.length);
    const l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true);
    l.setUint16(4, 20, true);
    l.setUint16(6, 0x0008, true);
    l.setUint16(26, name.length, true);
    local.set(name, 30);
    yield local;
    let crc = 0;
    for (const chunk of data) {
      crc = crc32(crc, chunk);
      yield chunk;
    }
    const descriptor = new Uint8Array(16);
    const d = new DataView(descriptor.buffer);
    d.setUint32(0, 0x08074b50, true);
    d.setUint32(4, crc, true);
    d.setUint32(8, size, true);
    d.setUint32(12, size, true);
    yield descriptor;
    const central = new Uint8Array(46 + name.length);
    const c = new DataView(central.buffer);
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, 20, true);
    c.setUint16(6, 20, true);
    c.setUint16(8, 0x0008, true);
    c.setUint32(16, crc, true);
    c.setUint32(20, size, true);
    c.setUint32(24, size, true);
    c.setUint16(28, name.length, true);
    c.setUint32(42, offset, true);
    central.set(name, 46);
    centrals.push(central);
    offset += local.length + size + descriptor.length;
  }
  yield* entry(names[0]!, manifest.length, [manifest]);
  yield* entry(
    names[1]!,
    dexBytes,
    (function* () {
      for (let at = 0, index = 0; at < dexBytes; at += CHUNK, index++) yield chunkAt(index, Math.min(CHUNK, dexBytes - at));
    })(),
  );
  const directory = centrals.reduce((n, c) => n + c.length, 0);
  yield* centrals;
  const end = new Uint8Array(22);
  const e = new DataView(end.buffer);
  e.setUint32(0, 0x06054b50, true);
  e.setUint16(8, centrals.length, true);
  e.setUint16(10, centrals.length, true);
  e.setUint32(12, directory, true);
  e.setUint32(16, offset, true);
  yield end;
}

/** A pull stream over chunks made on demand, so only the chunk being read is in memory. */
function streamOf(chunks: Iterator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
}

const apkStream = (dexBytes: number) => streamOf(apkChunks(dexBytes));

async function sha256Of(stream: ReadableStream<Uint8Array>): Promise<string> {
  const digest = new crypto.DigestStream('SHA-256');
  await stream.pipeTo(digest);
  return [...new Uint8Array(await digest.digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A multipart/form-data upload of the streamed APK with a Content-Length, as a browser sends it. */
function uploadBody(code: number, name: string, dexBytes: number): { body: ReadableStream<Uint8Array>; length: number; contentType: string } {
  const boundary = 'r2UploadBoundary7MA4YWxkTrZu0gW';
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="version_code"\r\n\r\n${code}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="version_name"\r\n\r\n${name}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="apk_file"; filename="kerstactie.apk"\r\n` +
      `Content-Type: application/vnd.android.package-archive\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const length = head.length + apkLength(dexBytes) + tail.length;
  const body = streamOf(
    (function* () {
      yield head;
      yield* apkChunks(dexBytes);
      yield tail;
    })(),
  );
  // A known length, so the request carries Content-Length instead of chunked encoding.
  return { body: body.pipeThrough(new FixedLengthStream(length)), length, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('APK uploads of any allowed size on R2', () => {
  it('stores an APK of 20 MiB in parts of one size and serves back the same bytes', { timeout: 120_000 }, async () => {
    const cookie = await adminCookie('198.51.100.70');
    // 20 MiB and an odd tail: two full parts and a smaller last one.
    const dexBytes = 20 * 1024 * 1024 + 12_345;
    expect(apkLength(dexBytes)).toBeGreaterThan(2 * R2_PART_SIZE);
    const expected = await sha256Of(apkStream(dexBytes));
    const { body, length, contentType } = uploadBody(2001, '20.0.1', dexBytes);
    const upload = await SELF.fetch(`${site}/api/update/upload`, {
      method: 'POST',
      headers: { cookie, 'content-type': contentType, 'content-length': String(length) },
      body,
    });
    expect(await upload.json()).toMatchObject({ success: true, version: { version_code: 2001, version_name: '20.0.1' } });
    expect(upload.status).toBe(200);

    const latest = await SELF.fetch(`${site}/api/update/latest`);
    expect(latest.status).toBe(200);
    expect(latest.headers.get('content-length')).toBe(String(apkLength(dexBytes)));
    expect(await sha256Of(latest.body as unknown as ReadableStream<Uint8Array>)).toBe(expected);
  });

  type Failure = { part?: number; complete?: boolean };

  /** The real binding, with one step of a multipart upload failing as R2 can (an internal error, 10001). */
  function failingBucket(fail: Failure) {
    const real = bindings.APKS;
    const seen = { upload: null as MultipartUpload | null, aborted: false };
    const bucket = {
      put: real.put.bind(real),
      createMultipartUpload: async (key: string, options?: Parameters<Bucket['createMultipartUpload']>[1]) => {
        const upload = await real.createMultipartUpload(key, options);
        seen.upload = upload;
        return {
          key: upload.key,
          uploadId: upload.uploadId,
          uploadPart: (partNumber: number, value: Uint8Array) =>
            partNumber === fail.part
              ? Promise.reject(new Error('uploadPart: We encountered an internal error. (10001)'))
              : upload.uploadPart(partNumber, value),
          complete: (parts: Parameters<MultipartUpload['complete']>[0]) =>
            fail.complete ? Promise.reject(new Error('completeMultipartUpload: We encountered an internal error. (10001)')) : upload.complete(parts),
          abort: () => {
            seen.aborted = true;
            return upload.abort();
          },
        };
      },
    };
    return { bucket: bucket as unknown as Bucket, seen };
  }

  it.each([
    ['the second part', { part: 2 } as Failure, 'uploadPart: We encountered an internal error. (10001)'],
    ['the completion', { complete: true } as Failure, 'completeMultipartUpload: We encountered an internal error. (10001)'],
  ])('aborts the R2 multipart upload and leaves no object when %s fails', { timeout: 60_000 }, async (_what, fail, message) => {
    const { bucket, seen } = failingBucket(fail);
    const key = `apks/failing-${fail.part ?? 'complete'}.apk`;
    await expect(createR2FileStore(bucket).put(key, apkStream(2 * R2_PART_SIZE + 1000))).rejects.toThrow(message);
    expect(seen.aborted).toBe(true);
    expect(await bindings.APKS.head(key)).toBeNull();
    // The aborted upload is gone in R2 itself: it takes no further parts.
    await expect(bindings.APKS.resumeMultipartUpload(key, seen.upload!.uploadId).uploadPart(1, new Uint8Array(16))).rejects.toThrow();
  });
});
