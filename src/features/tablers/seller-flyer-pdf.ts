import { PDFDocument, rgb } from 'pdf-lib';
import { formatEuro } from '../../core/nl-format';
import { embedDocumentFonts } from '../../platform/pdf-font';
import { ACCENT, INK, MUTED, Writer } from '../../platform/pdf-writer';
import type { QrModules } from '../../platform/qr-code';

/**
 * A tabler's flyer (docs/decisions/070): A6 portrait to print and hand out, with the club, the package, whose
 * link it is, the QR code of the link drawn as squares (sharp at any print size) and the link as text.
 */
export interface SellerFlyer {
  clubName: string;
  /** Euros per package, excluding VAT. */
  packagePrice: number;
  tablerName: string;
  url: string;
}

// A6 in points (105 × 148 mm).
const WIDTH = 297.64;
const HEIGHT = 419.53;
const MARGIN = 24;
const QR_SIDE = 150;
/** What one package is, in the words of the public home page. */
const PACKAGE_LINE =
  'Met de hand ingepakt door onze leden: een canvas tas vol lekkers met een drinkbeker. De volledige winst gaat naar goede doelen in de regio.';

/** The link in lines no wider than `maxWidth`, cut anywhere: a link has no spaces to break at. */
function linkLines(w: Writer, url: string, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const char of url) {
    if (line !== '' && w.width(line + char, size) > maxWidth) {
      lines.push(line);
      line = '';
    }
    line += char;
  }
  return line === '' ? lines : [...lines, line];
}

/** Words in lines no wider than `maxWidth` (a word wider than that stands alone). */
function wrapCentred(w: Writer, text: string, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of w.printable(text).split(/ +/)) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && w.width(candidate, size, true) > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  return line === '' ? lines : [...lines, line];
}

/** The dark modules as an SVG path in module units, y downwards: one rectangle per run of dark modules in a row. */
function qrPath(qr: QrModules): string {
  const parts: string[] = [];
  for (let row = 0; row < qr.size; row++) {
    for (let col = 0; col < qr.size; ) {
      if (!qr.dark(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < qr.size && qr.dark(row, col)) col++;
      parts.push(`M${start} ${row}h${col - start}v1h${start - col}z`);
    }
  }
  return parts.join('');
}

export async function renderSellerFlyerPdf(flyer: SellerFlyer, qr: QrModules): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Bestel via ${flyer.tablerName}`);
  doc.setAuthor(flyer.clubName);
  doc.setCreator('Kerstactie');
  doc.setProducer('Kerstactie (pdf-lib)');
  doc.setLanguage('nl-NL');
  const page = doc.addPage([WIDTH, HEIGHT]);
  const fonts = await embedDocumentFonts(doc);
  const w = new Writer(page, fonts.regular, fonts.bold);
  const centre = WIDTH / 2;
  const column = WIDTH - 2 * MARGIN;
  const centred = (text: string, y: number, options: { size: number; bold?: boolean; color?: typeof INK }) =>
    w.text(text, centre - w.width(text, options.size, options.bold) / 2, y, options);

  let y = HEIGHT - MARGIN - 14;
  y = w.paragraph(`Kerstactie ${flyer.clubName}`, MARGIN, y, column, { size: 14, bold: true, color: ACCENT, lineHeight: 17 });
  y = w.paragraph('Kerstpakketten voor het goede doel', MARGIN, y - 2, column, { size: 11, bold: true, lineHeight: 14 });
  y = w.paragraph(PACKAGE_LINE, MARGIN, y - 2, column, { size: 8.5, color: MUTED, lineHeight: 11 });
  w.text(`${formatEuro(flyer.packagePrice * 100)} per pakket, exclusief btw`, MARGIN, y - 4, { size: 10, bold: true });
  y -= 30;
  // A long name gets a smaller size first, then more lines.
  const seller = `Bestel via ${flyer.tablerName}`;
  let size = 15;
  while (size > 11 && w.width(seller, size, true) > column) size -= 0.5;
  const sellerLines = wrapCentred(w, seller, size, column);
  for (const [index, line] of sellerLines.entries()) centred(line, y - index * (size + 3), { size, bold: true, color: ACCENT });
  y -= (sellerLines.length - 1) * (size + 3);

  // The code's own quiet zone is the page's white around it. The dark modules are one path (a rectangle per run
  // of them in a row), so no viewer draws hairline seams between neighbouring squares.
  const top = y - 12;
  page.drawSvgPath(qrPath(qr), { x: centre - QR_SIDE / 2, y: top, scale: QR_SIDE / qr.size, color: rgb(0, 0, 0), borderWidth: 0 });

  y = top - QR_SIDE - 16;
  centred('Scan de code, of ga naar:', y, { size: 8.5, color: MUTED });
  for (const line of linkLines(w, flyer.url, 8, column)) {
    y -= 11;
    centred(line, y, { size: 8, color: INK });
  }
  return doc.save();
}
