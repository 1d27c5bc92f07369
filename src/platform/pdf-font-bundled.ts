import type { PdfFontData } from './pdf-font-source';

/** Node's source of the PDF font: the generated file, bundled into the server (its size costs Node nothing). */
export async function bundledPdfFonts(): Promise<PdfFontData> {
  return (await import('./pdf-fonts.generated.json')).default;
}
