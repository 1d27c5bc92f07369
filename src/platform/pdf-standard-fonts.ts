/**
 * The Worker bundle's stand-in for `@pdf-lib/standard-fonts` (wrangler.toml `[alias]`, and the workerd test
 * projects the same way). That package carries the metrics of all 14 standard PDF fonts and their
 * encodings, 127 KiB of the bundle; our documents set their text in the font they embed
 * (src/platform/pdf-font.ts, docs/decisions/059) and use no standard font, so the Worker ships none. pdf-lib
 * imports `Font`, `FontNames` and `Encodings` from the package; this module gives it the same names, and a
 * standard font asked for fails with a clear error. Node keeps the package itself (size does not matter
 * there).
 */

export enum FontNames {
  Courier = 'Courier',
  CourierBold = 'Courier-Bold',
  CourierOblique = 'Courier-Oblique',
  CourierBoldOblique = 'Courier-BoldOblique',
  Helvetica = 'Helvetica',
  HelveticaBold = 'Helvetica-Bold',
  HelveticaOblique = 'Helvetica-Oblique',
  HelveticaBoldOblique = 'Helvetica-BoldOblique',
  TimesRoman = 'Times-Roman',
  TimesRomanBold = 'Times-Bold',
  TimesRomanItalic = 'Times-Italic',
  TimesRomanBoldItalic = 'Times-BoldItalic',
  Symbol = 'Symbol',
  ZapfDingbats = 'ZapfDingbats',
}

/** pdf-lib reads an encoding only after `Font.load` of a standard font, which never succeeds here. */
export const Encodings: Record<string, never> = {};

/** What pdf-lib's standard-font embedder calls first; it refuses every font. */
export const Font = {
  load(fontName: string): never {
    throw new Error(`The Worker bundle carries no standard PDF font (${fontName}): set text in the embedded font of src/platform/pdf-font.ts.`);
  },
};
