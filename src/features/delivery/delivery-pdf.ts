import { PDFDocument, type PDFPage } from 'pdf-lib';
import { embedDocumentFonts } from '../../platform/pdf-font';
import { ACCENT, INK, LEFT, MUTED, PAGE_HEIGHT, PAGE_WIDTH, RIGHT, Writer } from '../../platform/pdf-writer';
import { formatDateLong } from '../../core/nl-format';

/**
 * A tabler's delivery list (docs/decisions/023) as an A4 PDF to print and take in the car: one line per order in
 * driving order, with an empty box to tick by pen at each door. Every page repeats the header, so a loose
 * sheet still says whose list it is. Set in the embedded font of src/platform/pdf-font.ts, like the
 * invoices, so names print as typed (docs/decisions/059).
 */

export interface DeliveryStop {
  name: string;
  address: string;
  postalCode: string;
  city: string;
  phone: string;
  notes: string | null;
  /** Packages to hand over. */
  amount: number;
}

export interface DeliveryListDocument {
  clubName: string;
  tablerName: string;
  /** The day the list is printed for, as the header shows it. */
  date: Date;
  /** Already in driving order. */
  stops: DeliveryStop[];
}

/** Rows stop above this line; the footer lives below it. */
const BOTTOM = 62;

const BOX_SIZE = 13;
const COLUMN = {
  box: LEFT,
  name: LEFT + 44,
  address: LEFT + 190,
  phone: LEFT + 350,
};
const NAME_WIDTH = COLUMN.address - COLUMN.name - 10;
const ADDRESS_WIDTH = COLUMN.phone - COLUMN.address - 10;
/** The phone column ends where the right-aligned package count begins. */
const PHONE_WIDTH = RIGHT - 42 - COLUMN.phone;
const TEXT_SIZE = 10;
const LINE = 13;
const NOTE_SIZE = 9;
const NOTE_LINE = 11.5;
const ROW_PADDING = 7;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * `value` in lines no wider than `maxWidth`, broken between words, and inside a word only when the word
 * alone is wider (a web address in the notes) so nothing runs off the page.
 */
function wrap(w: Writer, value: string, size: number, maxWidth: number, bold = false): string[] {
  const fits = (text: string) => w.width(text, size, bold) <= maxWidth;
  const lines: string[] = [];
  let line = '';
  for (const word of w
    .printable(value)
    .split(' ')
    .filter((part) => part !== '')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = '';
    for (const char of word) {
      if (line !== '' && !fits(line + char)) {
        lines.push(line);
        line = char;
      } else {
        line += char;
      }
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** One order laid out in its columns, measured before anything is drawn so the row never splits over two pages. */
function layoutStop(w: Writer, stop: DeliveryStop) {
  const name = wrap(w, stop.name, TEXT_SIZE, NAME_WIDTH, true);
  const address = [...wrap(w, stop.address, TEXT_SIZE, ADDRESS_WIDTH), ...wrap(w, `${stop.postalCode} ${stop.city}`, TEXT_SIZE, ADDRESS_WIDTH)];
  const phone = wrap(w, stop.phone, TEXT_SIZE, PHONE_WIDTH);
  const notes = stop.notes ? wrap(w, `Opmerking: ${stop.notes}`, NOTE_SIZE, RIGHT - COLUMN.name) : [];
  const mainLines = Math.max(1, name.length, address.length, phone.length);
  const height = ROW_PADDING * 2 + mainLines * LINE + (notes.length > 0 ? 2 + notes.length * NOTE_LINE : 0);
  return { name, address, phone, notes, mainLines, height };
}

export async function renderDeliveryListPdf(list: DeliveryListDocument): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const title = `Bezorglijst ${list.tablerName}`;
  doc.setTitle(title);
  doc.setAuthor(list.clubName);
  doc.setSubject(`${title}, ${formatDateLong(list.date)}`);
  doc.setCreator('Kerstactie');
  doc.setProducer('Kerstactie (pdf-lib)');
  doc.setLanguage('nl-NL');
  doc.setCreationDate(list.date);
  doc.setModificationDate(list.date);
  const { regular, bold } = await embedDocumentFonts(doc);

  const orderCount = list.stops.length;
  const packageCount = list.stops.reduce((sum, stop) => sum + stop.amount, 0);
  const totals = `Te bezorgen: ${plural(orderCount, 'bestelling', 'bestellingen')}, ${plural(packageCount, 'pakket', 'pakketten')}`;

  const writers: Writer[] = [];
  /** A new page with the header; answers the page's writer and the y where the rows start. */
  function newPage(): { page: PDFPage; w: Writer; y: number } {
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    const w = new Writer(page, regular, bold);
    writers.push(w);
    let y = PAGE_HEIGHT - 56;
    w.text(list.clubName, LEFT, y, { size: 13, bold: true, color: ACCENT });
    w.text('Bezorglijst', RIGHT, y, { size: 20, bold: true, color: ACCENT, align: 'right' });
    y -= 26;
    w.text(`Tabler: ${list.tablerName}`, LEFT, y, { size: 12, bold: true });
    w.text(formatDateLong(list.date), RIGHT, y, { size: 11, align: 'right' });
    y -= 16;
    w.text(totals, LEFT, y, { size: 10, color: MUTED });
    if (orderCount === 0) return { page, w, y };
    y -= 24;
    w.text('Bezorgd', COLUMN.box, y, { size: 8, bold: true, color: MUTED });
    w.text('Naam', COLUMN.name, y, { size: 8, bold: true, color: MUTED });
    w.text('Adres', COLUMN.address, y, { size: 8, bold: true, color: MUTED });
    w.text('Telefoon', COLUMN.phone, y, { size: 8, bold: true, color: MUTED });
    w.text('Pakketten', RIGHT, y, { size: 8, bold: true, color: MUTED, align: 'right' });
    y -= 6;
    w.rule(y);
    return { page, w, y };
  }

  let { page, w, y } = newPage();
  if (orderCount === 0) {
    y -= 40;
    w.text('Er is niets te bezorgen.', LEFT, y, { size: 14, bold: true });
    y -= 20;
    w.paragraph('Deze tabler heeft geen bestellingen die nog bezorgd moeten worden.', LEFT, y, RIGHT - LEFT, { size: 11 });
  }
  for (const stop of list.stops) {
    const row = layoutStop(w, stop);
    if (y - row.height < BOTTOM) ({ page, w, y } = newPage());
    const top = y - ROW_PADDING;
    const baseline = top - TEXT_SIZE;
    page.drawRectangle({ x: COLUMN.box + 8, y: baseline - 3, width: BOX_SIZE, height: BOX_SIZE, borderColor: INK, borderWidth: 1 });
    for (const [i, line] of row.name.entries()) w.text(line, COLUMN.name, baseline - i * LINE, { size: TEXT_SIZE, bold: true });
    for (const [i, line] of row.address.entries()) w.text(line, COLUMN.address, baseline - i * LINE, { size: TEXT_SIZE });
    for (const [i, line] of row.phone.entries()) w.text(line, COLUMN.phone, baseline - i * LINE, { size: TEXT_SIZE });
    w.text(String(stop.amount), RIGHT, baseline, { size: 12, bold: true, align: 'right' });
    const notesTop = baseline - row.mainLines * LINE - 2;
    for (const [i, line] of row.notes.entries()) w.text(line, COLUMN.name, notesTop - i * NOTE_LINE, { size: NOTE_SIZE, color: MUTED });
    y -= row.height;
    w.rule(y);
  }

  // The page count is known only now.
  writers.forEach((footer, i) => {
    footer.rule(BOTTOM - 14);
    footer.text(`${list.clubName} · ${title} · ${formatDateLong(list.date)}`, LEFT, BOTTOM - 28, { size: 8, color: MUTED });
    footer.text(`Pagina ${i + 1} van ${writers.length}`, RIGHT, BOTTOM - 28, { size: 8, color: MUTED, align: 'right' });
  });
  return doc.save();
}
