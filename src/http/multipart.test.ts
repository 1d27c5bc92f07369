import { describe, expect, it } from 'vitest';
import { boundaryOf, formParts, readMultipart, type PartHeaders } from './multipart';

async function collect(body: Uint8Array, boundary: string, chunkSize: number) {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < body.length; i += chunkSize) controller.enqueue(body.slice(i, i + chunkSize));
      controller.close();
    },
  });
  const parts: { headers: PartHeaders; data: string }[] = [];
  let current: { headers: PartHeaders; chunks: Uint8Array[] } | null = null;
  await readMultipart(stream, boundary, {
    onPart: (headers) => {
      current = { headers, chunks: [] };
    },
    onData: (chunk) => {
      current!.chunks.push(chunk);
    },
    onPartEnd: () => {
      const bytes = new Uint8Array(current!.chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const c of current!.chunks) {
        bytes.set(c, at);
        at += c.length;
      }
      parts.push({ headers: current!.headers, data: new TextDecoder().decode(bytes) });
    },
  });
  return parts;
}

describe('the streaming multipart reader', () => {
  it('reads fields and files the way FormData encodes them, whatever the chunk size', async () => {
    const data = new FormData();
    data.append('version_code', '12');
    data.append('apk_file', new Blob(['PK\u0003\u0004 body with\r\n-- dashes and \r\n--almost boundaries']), 'app "v1".apk');
    const request = new Request('http://x/', { method: 'POST', body: data });
    const boundary = boundaryOf(request.headers.get('content-type'));
    const body = new Uint8Array(await request.arrayBuffer());
    for (const chunkSize of [1, 3, 17, 64, 100_000]) {
      const parts = await collect(body, boundary, chunkSize);
      expect(parts).toEqual([
        { headers: { name: 'version_code', filename: undefined, contentType: undefined }, data: '12' },
        {
          headers: { name: 'apk_file', filename: expect.stringContaining('app'), contentType: 'application/octet-stream' },
          data: 'PK\u0003\u0004 body with\r\n-- dashes and \r\n--almost boundaries',
        },
      ]);
    }
  });

  it('refuses a body that is not multipart/form-data, and one that ends early', async () => {
    expect(() => boundaryOf('application/json')).toThrow('Expected a multipart/form-data body');
    const truncated = new TextEncoder().encode('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue without end');
    await expect(collect(truncated, 'b', 8)).rejects.toThrow('Malformed multipart body');
  });

  it('hands out the parts one by one with their data as streams, skipping what a reader leaves', async () => {
    const data = new FormData();
    data.append('version_code', '12');
    data.append('other', new Blob(['never read']), 'skip.bin');
    data.append('apk_file', new Blob(['PK\u0003\u0004 the file']), 'a.apk');
    const request = new Request('http://x/', { method: 'POST', body: data });
    const boundary = boundaryOf(request.headers.get('content-type'));
    const seen: { name: string; filename: string | undefined; data: string | null }[] = [];
    for await (const part of formParts(request.body, boundary)) {
      seen.push({ name: part.name, filename: part.filename, data: part.name === 'other' ? null : await new Response(part.body).text() });
    }
    expect(seen).toEqual([
      { name: 'version_code', filename: undefined, data: '12' },
      { name: 'other', filename: 'skip.bin', data: null },
      { name: 'apk_file', filename: 'a.apk', data: 'PK\u0003\u0004 the file' },
    ]);
  });

  it('fails the read of a part when the body ends early', async () => {
    const truncated = new TextEncoder().encode('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue without end');
    const read = async () => {
      for await (const part of formParts(new Response(truncated).body, 'b')) await new Response(part.body).text();
    };
    await expect(read()).rejects.toThrow('Malformed multipart body');
  });
});
