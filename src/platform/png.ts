/**
 * A minimal PNG writer (PNG spec, ISO/IEC 15948) for grayscale images such as QR codes. It uses only
 * web-standard APIs (CompressionStream, Response), never node:zlib or Buffer, so the same code runs on
 * Node and inside the Worker.
 */

export interface GrayImage {
  width: number;
  height: number;
  /** One byte per pixel, row by row from the top: 0 is black, 255 white. */
  pixels: Uint8Array;
}

export interface PngOptions {
  /**
   * 8 keeps every gray level; 1 stores black and white only (a pixel below 128 is black), which makes
   * a QR code's file about eight times smaller before compression.
   */
  bitDepth?: 1 | 8;
}

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const COLOR_TYPE_GRAYSCALE = 0;
const MAX_DIMENSION = 0x7fffffff;

let crcTable: Uint32Array | undefined;

/** CRC-32 as PNG chunks use it (ISO 3309 / ITU-T V.42, polynomial 0xEDB88320). */
export function crc32(bytes: Uint8Array, initial = 0): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = ~initial >>> 0;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  // The CRC covers the type and the data, not the length.
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** zlib-wrapped deflate (RFC 1950), which is what IDAT holds. */
async function deflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The scanlines, each led by filter type 0 (None): QR images are flat, other filters gain little. */
function scanlines(image: GrayImage, bitDepth: 1 | 8): Uint8Array {
  const { width, height, pixels } = image;
  const rowBytes = bitDepth === 8 ? width : Math.ceil(width / 8);
  const out = new Uint8Array(height * (rowBytes + 1));
  for (let y = 0; y < height; y++) {
    const start = y * (rowBytes + 1) + 1;
    const row = pixels.subarray(y * width, (y + 1) * width);
    if (bitDepth === 8) {
      out.set(row, start);
      continue;
    }
    for (let x = 0; x < width; x++) {
      // 1-bit grayscale: 1 is white; the most significant bit is the leftmost pixel.
      if (row[x]! >= 128) out[start + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return out;
}

export async function encodeGrayPng(image: GrayImage, options: PngOptions = {}): Promise<Uint8Array> {
  const bitDepth = options.bitDepth ?? 8;
  const { width, height, pixels } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > MAX_DIMENSION || height > MAX_DIMENSION) {
    throw new RangeError(`A PNG needs a positive whole width and height, got ${width}×${height}`);
  }
  if (pixels.length !== width * height) throw new RangeError(`Expected ${width * height} pixels, got ${pixels.length}`);

  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header[8] = bitDepth;
  header[9] = COLOR_TYPE_GRAYSCALE;
  // Bytes 10–12: compression 0 (deflate), filter method 0, no interlace.

  const parts = [SIGNATURE, chunk('IHDR', header), chunk('IDAT', await deflate(scanlines(image, bitDepth))), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
