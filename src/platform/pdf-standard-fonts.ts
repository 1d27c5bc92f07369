/**
 * The Worker bundle's stand-in for `@pdf-lib/standard-fonts` (wrangler.toml `[alias]`, and the workerd test
 * projects the same way). That package carries the metrics of all 14 standard PDF fonts, 127 KiB of the
 * bundle; our documents set text in Helvetica and Helvetica-Bold only, so the Worker ships those two and
 * the encodings, and pdf-lib gets the same `Font`, `FontNames` and `Encodings` it imports from the package.
 * Node keeps the package itself (size does not matter there). A document asking for another standard font
 * fails with a clear error: add its metrics to `METRICS` below.
 *
 * The package files are imported by relative path because the alias also catches the package's subpaths.
 */
import helveticaBold from '../../node_modules/@pdf-lib/standard-fonts/es/Helvetica-Bold.compressed.json';
import helvetica from '../../node_modules/@pdf-lib/standard-fonts/es/Helvetica.compressed.json';
import { decompressJson } from '../../node_modules/@pdf-lib/standard-fonts/es/utils.js';

export { Encodings } from '../../node_modules/@pdf-lib/standard-fonts/es/Encoding.js';

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

/** The compressed AFM metrics the Worker carries, by font name. */
const METRICS: Partial<Record<string, string>> = {
  [FontNames.Helvetica]: helvetica,
  [FontNames.HelveticaBold]: helveticaBold,
};

type KernPair = [string, string, number];

/** The font metrics pdf-lib reads (the package's `Font`, same fields and methods). */
export class Font {
  FontName = '';
  FontBBox: [number, number, number, number] = [0, 0, 0, 0];
  CharMetrics: { WX: number; N: string }[] = [];
  KernPairs: KernPair[] = [];
  private CharWidths: Record<string, number> = {};
  private KernPairXAmounts: Record<string, Record<string, number>> = {};

  private static readonly loaded = new Map<string, Font>();

  static load(fontName: string): Font {
    const cached = Font.loaded.get(fontName);
    if (cached) return cached;
    const compressed = METRICS[fontName];
    if (compressed === undefined) {
      throw new Error(`The standard font ${fontName} is not in the Worker bundle; add its metrics in src/platform/pdf-standard-fonts.ts.`);
    }
    const font: Font = Object.assign(new Font(), JSON.parse(decompressJson(compressed)) as Partial<Font>);
    for (const metric of font.CharMetrics) font.CharWidths[metric.N] = metric.WX;
    for (const [left, right, amount] of font.KernPairs) {
      const amounts = font.KernPairXAmounts[left] ?? {};
      amounts[right] = amount;
      font.KernPairXAmounts[left] = amounts;
    }
    Font.loaded.set(fontName, font);
    return font;
  }

  getWidthOfGlyph = (glyphName: string): number | undefined => this.CharWidths[glyphName];

  getXAxisKerningForPair = (left: string, right: string): number | undefined => this.KernPairXAmounts[left]?.[right];
}
