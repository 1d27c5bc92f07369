import { Font } from '@pdf-lib/standard-fonts';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';

// The Worker ships only the two standard fonts our documents use (src/platform/pdf-standard-fonts.ts,
// wrangler.toml [alias]); this runs the aliased module inside workerd as the deployed bundle does.
describe('pdf-lib standard fonts in the Worker bundle', () => {
  it('sets text in Helvetica and Helvetica-Bold', async () => {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage();
    const regular = await pdf.embedFont(StandardFonts.Helvetica);
    const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
    page.drawText('Kerstpakket € 75,00 – Ëlsa', { font: regular, size: 12, x: 50, y: 700 });
    page.drawText('Factuur', { font: bold, size: 18, x: 50, y: 750 });
    // The widths the full package gives on Node (kerning and accented glyphs included).
    expect(regular.widthOfTextAtSize('Factuur Ëlsa AV', 10)).toBeCloseTo(71.05, 2);
    expect(bold.widthOfTextAtSize('Factuur Ëlsa AV', 10)).toBeCloseTo(75.69, 2);
    expect(regular.heightAtSize(10)).toBeCloseTo(9.25, 2);
    const bytes = await pdf.save();
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
  });

  it('names the missing metrics when a document asks for another font', () => {
    expect(() => Font.load('Courier')).toThrow('The standard font Courier is not in the Worker bundle; add its metrics in src/platform/pdf-standard-fonts.ts.');
  });
});
