import { encodeGrayPng } from './png';

/**
 * A QR code of a text as its modules (the `qrcode` package's encoder), and that grid as a PNG: one encoder,
 * two drawings — a file for a screen, and squares a PDF draws as vectors (docs/decisions/070).
 */
export interface QrModules {
  /** Modules per side, without the quiet zone. */
  size: number;
  dark(row: number, col: number): boolean;
}

export async function qrModules(text: string, errorCorrectionLevel: 'L' | 'M' | 'Q' | 'H' = 'M'): Promise<QrModules> {
  // Imported on first use: a start (a new Worker isolate) need not evaluate the QR library.
  const { create } = await import('qrcode');
  const { modules } = create(text, { errorCorrectionLevel });
  return { size: modules.size, dark: (row, col) => Boolean(modules.get(row, col)) };
}

/** The code as a black-and-white PNG: `moduleSize` pixels a module, and a quiet zone of `quietZone` modules (the standard's 4). */
export function qrPng(qr: QrModules, { moduleSize = 8, quietZone = 4 }: { moduleSize?: number; quietZone?: number } = {}): Promise<Uint8Array> {
  const side = (qr.size + 2 * quietZone) * moduleSize;
  const pixels = new Uint8Array(side * side).fill(255);
  for (let row = 0; row < qr.size; row++) {
    for (let col = 0; col < qr.size; col++) {
      if (!qr.dark(row, col)) continue;
      const top = (row + quietZone) * moduleSize;
      const left = (col + quietZone) * moduleSize;
      for (let y = top; y < top + moduleSize; y++) pixels.fill(0, y * side + left, y * side + left + moduleSize);
    }
  }
  return encodeGrayPng({ width: side, height: side, pixels }, { bitDepth: 1 });
}
