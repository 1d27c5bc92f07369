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
  w.text(`€ ${formatEuro(flyer.packagePrice * 100)} per pakket, exclusief btw`, MARGIN, y - 4, { size: 10, bold: true });
  y -= 30;
  centred(`Bestel via ${flyer.tablerName}`, y, { size: 15, bold: true, color: ACCENT });

  // The code's own quiet zone is the page's white around it; each dark module a filled square.
  const top = y - 12;
  const module = QR_SIDE / qr.size;
  const left = centre - QR_SIDE / 2;
  for (let row = 0; row < qr.size; row++) {
    for (let col = 0; col < qr.size; col++) {
      if (!qr.dark(row, col)) continue;
      // A hair wider than the module, so no viewer shows seams between neighbouring squares.
      page.drawRectangle({ x: left + col * module, y: top - (row + 1) * module, width: module + 0.05, height: module + 0.05, color: rgb(0, 0, 0) });
    }
  }

  y = top - QR_SIDE - 16;
  centred('Scan de code, of ga naar:', y, { size: 8.5, color: MUTED });
  for (const line of linkLines(w, flyer.url, 8, column)) {
    y -= 11;
    centred(line, y, { size: 8, color: INK });
  }
  return doc.save();
}
