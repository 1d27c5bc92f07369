/**
 * The generated figures of the PDF font (scripts/pdf-fonts.mjs writes src/platform/pdf-fonts.generated.json) and
 * where each runtime reads them from (docs/decisions/059, amended). Only types and a path here: importing this
 * module does not put the font into a bundle.
 */
export type PdfFontData = typeof import('./pdf-fonts.generated.json');

/** Where the build puts a copy of the font's figures among the static assets, for the Worker to fetch. */
export const PDF_FONT_ASSET = '/pdf/arimo.json';

/** The Worker's source: its static assets (the ASSETS binding), fetched when the first PDF is made. */
export function pdfFontsFromAssets(fetchAsset: (request: Request) => Promise<Response>): () => Promise<PdfFontData> {
  return async () => {
    const response = await fetchAsset(new Request(`https://assets.invalid${PDF_FONT_ASSET}`));
    if (!response.ok) throw new Error(`The PDF font ${PDF_FONT_ASSET} is missing from the static assets (HTTP ${response.status}): build the SPA first`);
    return (await response.json()) as PdfFontData;
  };
}
