import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/**
 * Reads a QR code back the way a banking app's camera would: from pixels, with an independent decoder
 * (jsQR), and the PNG read by an independent decoder (pngjs). A test that only compared our own
 * module matrix with itself would not notice a PNG or a QR code that no scanner can read.
 */

/** The text of the QR code in RGBA pixels (4 bytes per pixel, row by row); null when none is found. */
export function decodeQrRgba(rgba: Uint8Array, width: number, height: number): string | null {
  const clamped = new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  // A payment QR is dark on light; 'dontInvert' refuses an inverted code a banking app might not read.
  return jsQR(clamped, width, height, { inversionAttempts: 'dontInvert' })?.data ?? null;
}

/** The text of the QR code in a PNG file; null when none is found. */
export function decodeQrPng(png: Uint8Array): string | null {
  const image = PNG.sync.read(Buffer.from(png));
  return decodeQrRgba(new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength), image.width, image.height);
}

/** RGB (3 bytes per pixel) → RGBA, opaque. */
export function rgbToRgba(rgb: Uint8Array): Uint8Array {
  const rgba = new Uint8Array((rgb.length / 3) * 4);
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
    rgba[j] = rgb[i]!;
    rgba[j + 1] = rgb[i + 1]!;
    rgba[j + 2] = rgb[i + 2]!;
    rgba[j + 3] = 255;
  }
  return rgba;
}
