import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { crc32, encodeGrayPng } from './png';

/** The chunks of a PNG as [type, data], checking each chunk's CRC on the way. */
function chunksOf(png: Uint8Array): [string, Uint8Array][] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out: [string, Uint8Array][] = [];
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
    expect(view.getUint32(at + 8 + length), `CRC of ${type}`).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
    out.push([type, png.subarray(at + 8, at + 8 + length)]);
    at += 12 + length;
  }
  return out;
}

/** pngjs gives RGBA; a gray image has R = G = B and an opaque alpha. */
function grayOf(png: Uint8Array): { width: number; height: number; gray: number[] } {
  const image = PNG.sync.read(Buffer.from(png));
  const gray: number[] = [];
  for (let i = 0; i < image.data.length; i += 4) {
    expect([image.data[i + 1], image.data[i + 2], image.data[i + 3]]).toEqual([image.data[i], image.data[i], 255]);
    gray.push(image.data[i]!);
  }
  return { width: image.width, height: image.height, gray };
}

describe('crc32', () => {
  it('gives the standard check value and the CRC of an empty IEND chunk', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });
});

describe('encodeGrayPng', () => {
  it('writes the signature, IHDR, IDAT and IEND of an 8-bit grayscale image', async () => {
    const png = await encodeGrayPng({ width: 3, height: 2, pixels: Uint8Array.of(0, 128, 255, 10, 20, 30) });
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunks = chunksOf(png);
    expect(chunks.map(([type]) => type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    // width 3, height 2, bit depth 8, colour type 0 (grayscale), deflate, filter 0, no interlace
    expect([...chunks[0]![1]]).toEqual([0, 0, 0, 3, 0, 0, 0, 2, 8, 0, 0, 0, 0]);
    // The IDAT is zlib data of the rows, each led by filter type 0.
    expect([...inflateSync(chunks[1]![1])]).toEqual([0, 0, 128, 255, 0, 10, 20, 30]);
    expect([...png.subarray(-12)]).toEqual([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
  });

  it('reads back pixel for pixel in an independent decoder (8-bit)', async () => {
    const width = 37;
    const height = 11;
    const pixels = Uint8Array.from({ length: width * height }, (_, i) => (i * 7) % 256);
    const decoded = grayOf(await encodeGrayPng({ width, height, pixels }));
    expect(decoded).toEqual({ width, height, gray: [...pixels] });
  });

  it('stores black and white in 1 bit per pixel, padding rows that do not fill a byte', async () => {
    const width = 13;
    const height = 3;
    const pixels = Uint8Array.from({ length: width * height }, (_, i) => (((i % width) + Math.floor(i / width)) % 3 === 0 ? 0 : 255));
    pixels[1] = 127; // below the middle: black
    pixels[3] = 128; // the middle and above: white
    const png = await encodeGrayPng({ width, height, pixels }, { bitDepth: 1 });
    const chunks = chunksOf(png);
    expect(chunks[0]![1][8]).toBe(1);
    // 13 pixels take 2 bytes per row (+ the filter byte).
    const raw = inflateSync(chunks[1]![1]);
    expect(raw.length).toBe(3 * 3);
    expect([...raw.subarray(0, 3)]).toEqual([0, 0b00111101, 0b10110000]);
    const expected = [...pixels].map((value) => (value >= 128 ? 255 : 0));
    expect(grayOf(png)).toEqual({ width, height, gray: expected });
  });

  it('gives the same bytes for the same image', async () => {
    const image = { width: 64, height: 64, pixels: Uint8Array.from({ length: 64 * 64 }, (_, i) => (i % 5 === 0 ? 0 : 255)) };
    const a = await encodeGrayPng(image, { bitDepth: 1 });
    const b = await encodeGrayPng(image, { bitDepth: 1 });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('refuses a size that does not match the pixels or is not a positive whole number', async () => {
    await expect(encodeGrayPng({ width: 2, height: 2, pixels: new Uint8Array(3) })).rejects.toThrow('Expected 4 pixels, got 3');
    await expect(encodeGrayPng({ width: 0, height: 2, pixels: new Uint8Array(0) })).rejects.toThrow(RangeError);
    await expect(encodeGrayPng({ width: 1.5, height: 2, pixels: new Uint8Array(3) })).rejects.toThrow(RangeError);
  });
});
