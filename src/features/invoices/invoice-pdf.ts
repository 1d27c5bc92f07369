import { PDFDocument, type PDFImage, type PDFPage } from 'pdf-lib';
import { negateAmounts, type InvoiceAmounts } from './invoice-amounts';
import { formatDateLong, formatEuro, formatPercent } from '../../core/nl-format';
import { KVK_NUMBER_LABEL, VAT_ID_LABEL } from '../../core/business-ids';
import { embedDocumentFonts } from '../../platform/pdf-font';
import { ACCENT, LEFT, MUTED, PAGE_HEIGHT, PAGE_WIDTH, RIGHT, Writer } from '../../platform/pdf-writer';
import { normaliseIban } from '../settings/setting-rules';

/**
 * The invoice as a one-page A4 PDF (docs/architecture.md §3). It carries what a Dutch invoice must
 * show (Belastingdienst 'factuureisen', Handelsregisterwet): the supplier's name, address, KvK number and
 * VAT id; a unique sequential number; the invoice date and the supply date; the customer's name and
 * address; quantity and kind of goods; the unit price excl. VAT; per VAT rate the base and the VAT; the
 * total; and the payment terms with the IBAN and the payment reference, beside an optional SEPA payment
 * QR code. A credit note (kind 'credit_note') has the same layout with its own number from the same
 * series, names the invoice it corrects with its date (a Dutch credit note must), prints the amounts
 * negated and asks for no payment.
 *
 * Built with pdf-lib in the embedded font of platform/pdf-font.ts (Latin with its accents; what it lacks is
 * handled by `printable` in platform/pdf-writer.ts). pdf-lib is plain JavaScript, so the same code runs on
 * Node and the Worker.
 */
/** What both kinds of document carry; `kind` (below) tells them apart. */
export interface InvoiceDocumentBase {
  /** The document's own number: the invoice number, or the credit note's number in the same series. */
  invoiceNumber: string;
  orderReference: string;
  /** The date of this document (for a credit note: the day it was made). */
  invoiceDate: Date;
  /**
   * The day the goods were delivered, or null while they are not: the document then names no delivery
   * date. A Dutch invoice must name it only when it is known and differs from the invoice date
   * (docs/decisions/059).
   */
  supplyDate: Date | null;
  /**
   * The payment terms. A credit note asks for no payment and shows neither; they stay required so one
   * document builder can serve both kinds.
   */
  dueDate: Date;
  paymentTermDays: number;
  club: { name: string; address: string; email: string; kvkNumber: string; vatId: string; iban: string };
  /** A business customer's KvK number and VAT id are printed under its address (docs/decisions/078); null for none. */
  customer: { name: string; address: string; postalCode: string; city: string; email: string; kvkNumber: string | null; vatId: string | null };
  /** What is sold, e.g. 'Kerstpakket'. */
  description: string;
  /**
   * The invoice's amounts, positive. A credit note prints them negated (`negateAmounts`), so the caller
   * passes the same amounts as for the invoice it corrects; amounts already negative are printed as given.
   */
  amounts: InvoiceAmounts;
  /**
   * The SEPA payment QR code as a PNG (`paymentQrPng` in epc-qr.ts), drawn beside the payment terms of an
   * invoice; the caller makes it so the invoice mail can show the very same image. A credit note never
   * shows one: nobody must pay a credit note by scanning it.
   */
  paymentQrPng?: Uint8Array;
  /**
   * The customer's order page, printed under the payment terms while the club takes online payments
   * (docs/decisions/066); an invoice issued without them, or a credit note, names none.
   */
  orderPageUrl?: string;
}

export interface InvoicePdfInvoice extends InvoiceDocumentBase {
  /** Absent means 'invoice', for callers from before credit notes. */
  kind?: 'invoice';
}

export interface InvoicePdfCreditNote extends InvoiceDocumentBase {
  kind: 'credit_note';
  /** The invoice this credit note corrects (a Dutch credit note must name it). */
  corrects: { invoiceNumber: string; invoiceDate: Date };
}

export type InvoiceDocument = InvoicePdfInvoice | InvoicePdfCreditNote;

const QR_SIZE = 112;

/**
 * An IBAN as it is printed, in groups of four ('NL91 ABNA 0417 1643 00'), joined by no-break spaces so a
 * line never breaks inside the number (docs/decisions/059), however the setting was typed.
 */
export function printedIban(iban: string): string {
  return (normaliseIban(iban).match(/.{1,4}/g) ?? []).join('\u00a0');
}

/**
 * Renders the invoice or credit note; the same input gives the same bytes (dates come from the input,
 * not the clock). The parts below draw top to bottom, each from the height the one above it ended at.
 */
export async function renderInvoicePdf(invoice: InvoiceDocument): Promise<Uint8Array> {
  const credit = invoice.kind === 'credit_note' ? invoice : null;
  const title = credit ? 'Creditnota' : 'Factuur';
  const doc = await PDFDocument.create();
  describeDocument(doc, invoice, title);
  const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  const fonts = await embedDocumentFonts(doc);
  const w = new Writer(page, fonts.regular, fonts.bold);
  const iban = printedIban(invoice.club.iban);
  const amounts = credit && invoice.amounts.totalCents >= 0 ? negateAmounts(invoice.amounts) : invoice.amounts;

  let y = drawSupplier(w, invoice.club, title, iban);
  y = drawCustomerAndParticulars(w, invoice, title, y);
  if (credit) y = drawCorrectedInvoice(w, credit, y);
  y = drawGoodsLine(w, invoice.description, amounts, y);
  y = drawVatPerRate(w, amounts, y);
  y = drawTotals(w, amounts, y);
  if (credit) drawSettlement(w, credit, amounts, y - 20);
  else await drawPaymentTerms(doc, page, w, invoice, amounts, iban, y - 20);
  drawFooter(w, invoice.club, iban);

  return doc.save();
}

/** The columns right of the description: the particulars' labels, quantity and VAT rate; price and VAT base. */
const MIDDLE_X = 330;
const PRICE_X = 440;

/** The document's properties a PDF reader shows (title, author, language), dated by the document, not the clock. */
function describeDocument(doc: PDFDocument, invoice: InvoiceDocument, title: string): void {
  doc.setTitle(`${title} ${invoice.invoiceNumber}`);
  doc.setAuthor(invoice.club.name);
  doc.setSubject(`${title} ${invoice.invoiceNumber} voor bestelling ${invoice.orderReference}`);
  doc.setCreator('Kerstactie');
  doc.setProducer('Kerstactie (pdf-lib)');
  doc.setLanguage('nl-NL');
  doc.setCreationDate(invoice.invoiceDate);
  doc.setModificationDate(invoice.invoiceDate);
}

/** Supplier (left) and the document's kind with the supplier's registration numbers (right). */
function drawSupplier(w: Writer, club: InvoiceDocument['club'], title: string, iban: string): number {
  let y = PAGE_HEIGHT - 60;
  w.text(club.name, LEFT, y, { size: 16, bold: true, color: ACCENT });
  w.text(title.toUpperCase(), RIGHT, y, { size: 20, bold: true, color: ACCENT, align: 'right' });
  y -= 18;
  const supplierLines = [club.address, club.email].filter((line) => line.trim() !== '');
  for (const line of supplierLines) {
    y = w.paragraph(line, LEFT, y, 280, { size: 9, color: MUTED, lineHeight: 12 });
  }
  let ry = PAGE_HEIGHT - 78;
  for (const [label, value] of [
    [KVK_NUMBER_LABEL, club.kvkNumber],
    [VAT_ID_LABEL, club.vatId],
    ['IBAN', iban],
  ] as const) {
    w.text(`${label}: ${value}`, RIGHT, ry, { size: 9, color: MUTED, align: 'right' });
    ry -= 12;
  }
  return Math.min(y, ry);
}

/** Customer (left) and the document's particulars (right): its number, its dates, the order. */
function drawCustomerAndParticulars(w: Writer, invoice: InvoiceDocument, title: string, above: number): number {
  const { customer } = invoice;
  const top = above - 36;
  let y = top;
  w.text(`${title} aan`, LEFT, y, { size: 9, bold: true, color: MUTED });
  y -= 15;
  const registration = [customer.kvkNumber && `${KVK_NUMBER_LABEL}: ${customer.kvkNumber}`, customer.vatId && `${VAT_ID_LABEL}: ${customer.vatId}`];
  for (const line of [customer.name, customer.address, `${customer.postalCode} ${customer.city}`.trim(), customer.email, ...registration]) {
    if (!line?.trim()) continue;
    y = w.paragraph(line, LEFT, y, 250, { size: 10, lineHeight: 13 });
  }
  let my = top;
  for (const [label, value] of particulars(invoice)) {
    w.text(label, MIDDLE_X, my, { size: 10, bold: true });
    w.text(value, RIGHT, my, { size: 10, align: 'right' });
    my -= 14;
  }
  return Math.min(y, my);
}

/** The particulars of the document as label and value, in the order they are printed. */
function particulars(invoice: InvoiceDocument): [string, string][] {
  const supplied: [string, string][] = invoice.supplyDate ? [['Leverdatum', formatDateLong(invoice.supplyDate)]] : [];
  return invoice.kind === 'credit_note'
    ? [
        ['Creditnotanummer', invoice.invoiceNumber],
        ['Creditnotadatum', formatDateLong(invoice.invoiceDate)],
        ['Bij factuur', invoice.corrects.invoiceNumber],
        ...supplied,
        ['Bestelnummer', invoice.orderReference],
      ]
    : [
        ['Factuurnummer', invoice.invoiceNumber],
        ['Factuurdatum', formatDateLong(invoice.invoiceDate)],
        ...supplied,
        ['Bestelnummer', invoice.orderReference],
        ['Vervaldatum', formatDateLong(invoice.dueDate)],
      ];
}

/** A credit note names the invoice it corrects, number and date, where the reader starts on the amounts. */
function drawCorrectedInvoice(w: Writer, credit: InvoicePdfCreditNote, above: number): number {
  const y = above - 24;
  w.text(`Creditnota bij factuur ${credit.corrects.invoiceNumber} van ${formatDateLong(credit.corrects.invoiceDate)}`, LEFT, y, { size: 11, bold: true });
  return y + 6;
}

/** The line: quantity × price excl. VAT, with the parts of the VAT split when there is more than one. */
function drawGoodsLine(w: Writer, description: string, amounts: InvoiceAmounts, above: number): number {
  let y = above - 30;
  w.text('Omschrijving', LEFT, y, { size: 9, bold: true, color: MUTED });
  w.text('Aantal', MIDDLE_X, y, { size: 9, bold: true, color: MUTED, align: 'right' });
  w.text('Prijs excl. btw', PRICE_X, y, { size: 9, bold: true, color: MUTED, align: 'right' });
  w.text('Bedrag excl. btw', RIGHT, y, { size: 9, bold: true, color: MUTED, align: 'right' });
  y -= 6;
  w.rule(y);
  y -= 15;
  w.text(description, LEFT, y, { size: 10 });
  w.text(String(amounts.quantity), MIDDLE_X, y, { size: 10, align: 'right' });
  w.text(formatEuro(amounts.unitPriceCents), PRICE_X, y, { size: 10, align: 'right' });
  w.text(formatEuro(amounts.netCents), RIGHT, y, { size: 10, align: 'right' });
  y -= 14;
  if (amounts.parts.length > 1) {
    for (const part of amounts.parts) {
      w.text(`waarvan ${part.label} (${formatPercent(part.share_percent)}, btw ${formatPercent(part.vat_rate)})`, LEFT + 12, y, { size: 9, color: MUTED });
      w.text(formatEuro(part.baseCents), RIGHT, y, { size: 9, color: MUTED, align: 'right' });
      y -= 12;
    }
  }
  y -= 4;
  w.rule(y);
  return y;
}

/** VAT per rate: the base and the VAT amount (Dutch invoices show both per rate). */
function drawVatPerRate(w: Writer, amounts: InvoiceAmounts, above: number): number {
  let y = above - 24;
  w.text('Btw-tarief', MIDDLE_X, y, { size: 9, bold: true, color: MUTED, align: 'right' });
  w.text('Grondslag', PRICE_X, y, { size: 9, bold: true, color: MUTED, align: 'right' });
  w.text('Btw-bedrag', RIGHT, y, { size: 9, bold: true, color: MUTED, align: 'right' });
  y -= 6;
  w.rule(y, 250);
  y -= 14;
  for (const line of amounts.vat) {
    w.text(`btw ${formatPercent(line.rate)}`, MIDDLE_X, y, { size: 10, align: 'right' });
    w.text(formatEuro(line.baseCents), PRICE_X, y, { size: 10, align: 'right' });
    w.text(formatEuro(line.vatCents), RIGHT, y, { size: 10, align: 'right' });
    y -= 14;
  }
  y -= 2;
  w.rule(y, 250);
  return y;
}

/** Totals excl. VAT, VAT and incl. VAT, the last in bold. */
function drawTotals(w: Writer, amounts: InvoiceAmounts, above: number): number {
  let y = above - 18;
  for (const [label, cents, bold] of [
    ['Totaal excl. btw', amounts.netCents, false],
    ['Totaal btw', amounts.vatTotalCents, false],
    ['Totaal incl. btw', amounts.totalCents, true],
  ] as const) {
    w.text(label, PRICE_X, y, { size: bold ? 12 : 10, bold, align: 'right' });
    w.text(formatEuro(cents), RIGHT, y, { size: bold ? 12 : 10, bold, align: 'right' });
    y -= bold ? 18 : 14;
  }
  return y;
}

/** A credit note asks no payment, so no payment request and no QR code: the customer must not pay it by mistake. */
function drawSettlement(w: Writer, credit: InvoicePdfCreditNote, amounts: InvoiceAmounts, top: number): void {
  let y = top;
  w.text('Verrekening', LEFT, y, { size: 11, bold: true, color: ACCENT });
  y -= 16;
  y = w.paragraph(
    `Het bedrag van ${formatEuro(Math.abs(amounts.totalCents))} wordt verrekend met factuur ${credit.corrects.invoiceNumber} ` +
      `of, als je die al betaald hebt, teruggestort op je rekening. Je hoeft niets te betalen.`,
    LEFT,
    y,
    RIGHT - LEFT,
    { size: 10, lineHeight: 14 },
  );
  y -= 4;
  w.text(`Kenmerk: ${credit.invoiceNumber} (factuur ${credit.corrects.invoiceNumber}, bestelling ${credit.orderReference})`, LEFT, y, {
    size: 10,
    bold: true,
  });
}

/** Payment terms and reference; with a QR code the text makes room for it on the right. */
async function drawPaymentTerms(
  doc: PDFDocument,
  page: PDFPage,
  w: Writer,
  invoice: InvoiceDocument,
  amounts: InvoiceAmounts,
  iban: string,
  top: number,
): Promise<void> {
  const qr = invoice.paymentQrPng ? await doc.embedPng(invoice.paymentQrPng) : null;
  const textWidth = qr ? RIGHT - LEFT - QR_SIZE - 24 : RIGHT - LEFT;
  let y = top;
  w.text('Betaling', LEFT, y, { size: 11, bold: true, color: ACCENT });
  y -= 16;
  y = w.paragraph(
    `Gelieve het totaalbedrag van ${formatEuro(amounts.totalCents)} binnen ${invoice.paymentTermDays} dagen na de factuurdatum, ` +
      `uiterlijk op ${formatDateLong(invoice.dueDate)}, over te maken op IBAN\u00a0${iban} ten name van ${invoice.club.name}, ` +
      `onder vermelding van het betalingskenmerk.`,
    LEFT,
    y,
    textWidth,
    { size: 10, lineHeight: 14 },
  );
  y -= 4;
  y = w.paragraph(`Betalingskenmerk: ${invoice.invoiceNumber} (bestelling ${invoice.orderReference})`, LEFT, y, textWidth, { size: 10, bold: true });
  if (qr) drawPaymentQr(page, w, qr, top);
  if (invoice.orderPageUrl) {
    // Below the QR code and its caption, across the page: the link is longer than the column beside the code.
    y = Math.min(y, top - 132) - 6;
    w.text('Liever online betalen (iDEAL)? Dat kan op je bestelpagina:', LEFT, y, { size: 10 });
    w.text(invoice.orderPageUrl, LEFT, y - 14, { size: 9, color: ACCENT });
  }
}

/** The SEPA payment QR code right of the payment terms, with a line under it on what it is for. */
function drawPaymentQr(page: PDFPage, w: Writer, qr: PDFImage, sectionTop: number): void {
  // The image's own white quiet zone keeps the code clear of the text beside it.
  const qrTop = sectionTop + 10;
  page.drawImage(qr, { x: RIGHT - QR_SIZE, y: qrTop - QR_SIZE, width: QR_SIZE, height: QR_SIZE });
  const centre = RIGHT - QR_SIZE / 2;
  let cy = qrTop - QR_SIZE - 2;
  for (const line of ['Scan met je bank-app', 'om te betalen']) {
    w.text(line, centre + w.width(line, 8) / 2, cy, { size: 8, color: MUTED, align: 'right' });
    cy -= 10;
  }
}

/** Thanks, and the supplier's particulars once more along the bottom of the page. */
function drawFooter(w: Writer, club: InvoiceDocument['club'], iban: string): void {
  w.rule(70);
  w.paragraph('Hartelijk dank voor je steun! De volledige opbrengst van de kerstactie gaat naar goede doelen in de regio.', LEFT, 56, RIGHT - LEFT, {
    size: 9,
    color: MUTED,
  });
  w.paragraph(
    [club.name, club.address, `KvK ${club.kvkNumber}`, `Btw-id ${club.vatId}`, `IBAN\u00a0${iban}`].filter((s) => s.trim() !== '').join(' · '),
    LEFT,
    42,
    RIGHT - LEFT,
    { size: 8, color: MUTED },
  );
}
