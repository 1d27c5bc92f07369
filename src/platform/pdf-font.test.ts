import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { buildPdfFonts, PDF_FONTS_FILE } from '../../scripts/pdf-fonts.mjs';
import { pdfLines } from '../../test/support/pdf-lines';
import { embedDocumentFonts } from './pdf-font';
import { LEFT, PAGE_HEIGHT, PAGE_WIDTH, Writer } from './pdf-writer';

type Generated = Record<string, unknown> & { regular: { ttfDeflated: string }; bold: { ttfDeflated: string } };

/** The file's content with each face's font inflated, so a different zlib build does not count as a change. */
function comparable(data: Generated) {
  const face = ({ ttfDeflated, ...rest }: { ttfDeflated: string }) => ({ ...rest, ttf: inflateRawSync(Buffer.from(ttfDeflated, 'base64')).toString('base64') });
  return { ...data, regular: face(data.regular), bold: face(data.bold) };
}

async function writer() {
  const doc = await PDFDocument.create();
  const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  const { regular, bold } = await embedDocumentFonts(doc);
  return { doc, w: new Writer(page, regular, bold) };
}

describe('the embedded PDF font (docs/decisions/059)', () => {
  it('is what scripts/pdf-fonts.mjs makes from the installed font package', async () => {
    const committed = JSON.parse(readFileSync(PDF_FONTS_FILE, 'utf8')) as Generated;
    expect(comparable(committed)).toEqual(comparable((await buildPdfFonts()) as Generated));
  }, 30_000);

  it('prints names in Latin scripts as typed, and reads back the same from the PDF', async () => {
    const { doc, w } = await writer();
    const names = ['Łukasz Wiśniewski', 'Antonín Dvořák', 'Ștefan Țăranu', 'Ayşe Şahin', 'Gödöllő Erzsébet', 'Jūratė Žukauskienė', 'Ġużeppi Ħabib'];
    for (const [i, name] of names.entries()) w.text(name, LEFT, 700 - i * 20, { bold: i % 2 === 1 });
    expect(await pdfLines(await doc.save())).toEqual(names);
  });

  it('leaves emoji out, joins letter and accent, keeps the nearest letter the font has, and prints ? for other scripts', async () => {
    const { w } = await writer();
    expect(w.printable('Jan 🎅🏽 de Vries 👨‍👩‍👧 🇳🇱')).toBe('Jan de Vries');
    expect(w.printable('Zoë Łukasiewicz-Ōta 東京 😀')).toBe('Zoë Łukasiewicz-Ōta ??');
    // 's' + combining acute is one letter; Vietnamese ễ keeps the accent the font has; ﬁ is f and i.
    expect(w.printable('Wis\u0301niewski Nguyễn ﬁets')).toBe('Wiśniewski Nguyên fiets');
    // A soft hyphen and a zero-width space are invisible and stay so; line breaks and tabs are spaces.
    expect(w.printable('Noorder\u00adhaven\u200b 12\nachterom\t1')).toBe('Noorderhaven 12 achterom 1');
    // Unicode's spaces: no-break ones stay no-break, the others are plain spaces.
    expect(w.printable('1\u202f000\u2009m')).toBe('1\u00a0000 m');
  });

  it('keeps words joined by no-break spaces on one line when a paragraph wraps', async () => {
    const { doc, w } = await writer();
    const iban = 'IBAN\u00a0NL91\u00a0ABNA\u00a00417\u00a01643\u00a000';
    w.paragraph(`Maak het over op ${iban} vandaag`, LEFT, 700, w.width('Maak het over op IBAN', 10));
    // PDF.js reads a no-break space back as a plain one.
    expect(await pdfLines(await doc.save())).toEqual(['Maak het over op', 'IBAN NL91 ABNA 0417 1643 00', 'vandaag']);
  });
});
