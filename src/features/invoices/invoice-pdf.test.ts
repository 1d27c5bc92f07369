import { inflateSync } from 'node:zlib';
import { PDFDict, PDFDocument, PDFName, type PDFNumber, PDFRawStream } from 'pdf-lib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { SAMPLE_INVOICE_DATE, sampleInvoice } from '../../../test/support/invoice-document';
import { pdfLines } from '../../../test/support/pdf-lines';
import { pdfText } from '../../../test/support/pdf-text';
import { decodeQrRgba, rgbToRgba } from '../../../test/support/qr-decode';
import { epcPayload, paymentQrPng, type EpcPayment } from './epc-qr';
import { computeInvoiceAmounts, negateAmounts } from './invoice-amounts';
import { printedIban, renderInvoicePdf, type InvoicePdfCreditNote } from './invoice-pdf';

describe('renderInvoicePdf (Dutch invoice requirements)', () => {
  it('is a one-page PDF with every particular a Dutch invoice needs', async () => {
    const pdf = await renderInvoicePdf(sampleInvoice());
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    const text = await pdfText(pdf);
    for (const expected of [
      // supplier
      'Ronde Tafel 144 Harlingen',
      'Voorstraat 1, 8861 BJ Harlingen',
      'KvK-nummer: 12345678',
      'Btw-id: NL001234567B01',
      'IBAN: NL91 ABNA 0417 1643 00',
      // number and dates
      'FACTUUR',
      'Factuurnummer F2026-0007',
      'Factuurdatum 22 november 2026',
      'Leverdatum 22 november 2026',
      'Bestelnummer KP-2026-0012',
      'Vervaldatum 6 december 2026',
      // customer
      'Marieke de Vries',
      'Noorderhaven 12',
      '8861 AL Harlingen',
      // quantity × price excl. VAT, VAT per rate, totals
      'Kerstpakket 3 € 75,00 € 225,00',
      'btw 21% € 225,00 € 47,25',
      'Totaal excl. btw € 225,00',
      'Totaal btw € 47,25',
      'Totaal incl. btw € 272,25',
      // payment terms and reference
      'binnen 14 dagen',
      'uiterlijk op 6 december 2026',
      'Betalingskenmerk: F2026-0007 (bestelling KP-2026-0012)',
    ]) {
      expect(text, expected).toContain(expected);
    }
  });

  it('shows each part of the VAT split and a line per rate', async () => {
    const amounts = computeInvoiceAmounts(3, 7500, [
      { label: 'Levensmiddelen', share_percent: 50, vat_rate: 9 },
      { label: 'Non-food', share_percent: 50, vat_rate: 21 },
    ]);
    const text = await pdfText(await renderInvoicePdf(sampleInvoice({ amounts })));
    expect(text).toContain('waarvan Levensmiddelen (50%, btw 9%) € 112,50');
    expect(text).toContain('waarvan Non-food (50%, btw 21%) € 112,50');
    expect(text).toContain('btw 9% € 112,50 € 10,13');
    expect(text).toContain('btw 21% € 112,50 € 23,63');
    expect(text).toContain('Totaal btw € 33,76');
    expect(text).toContain('Totaal incl. btw € 258,76');
  });

  it('prints names as typed in the embedded font, leaves emoji out and marks other scripts instead of failing', async () => {
    const text = await pdfText(
      await renderInvoicePdf(
        sampleInvoice({
          customer: {
            name: 'Zoë Łukasiewicz-Ōta 東京 😀',
            address: 'Kerkstraat 1\nachterom',
            postalCode: '1234 AB',
            city: "'s-Hertogenbosch",
            email: 'z@example.nl',
            kvkNumber: null,
            vatId: null,
          },
        }),
      ),
    );
    expect(text).toContain('Factuur aan Zoë Łukasiewicz-Ōta ?? Kerkstraat 1');
    expect(text).toContain('Kerkstraat 1 achterom');
    expect(text).toContain("1234 AB 's-Hertogenbosch");
  });

  it('prints "Łukasz Wiśniewski" exactly, on the invoice and the credit note', async () => {
    const customer = { ...sampleInvoice().customer, name: 'Łukasz Wiśniewski' };
    for (const pdf of [await renderInvoicePdf(sampleInvoice({ customer })), await renderInvoicePdf(creditNote({ customer }))]) {
      expect(await pdfText(pdf)).toContain('aan Łukasz Wiśniewski Noorderhaven 12');
    }
  });

  it("prints a business customer's KvK number and VAT id under its address, and a private customer's invoice has neither", async () => {
    const customer = { ...sampleInvoice().customer, name: 'Bakkerij Wiersma BV', kvkNumber: '87654321', vatId: 'NL009876543B02' };
    for (const pdf of [await renderInvoicePdf(sampleInvoice({ customer })), await renderInvoicePdf(creditNote({ customer }))]) {
      expect(await pdfText(pdf)).toContain(
        'aan Bakkerij Wiersma BV Noorderhaven 12 8861 AL Harlingen marieke@example.nl KvK-nummer: 87654321 Btw-id: NL009876543B02',
      );
    }
    const onlyVat = await pdfText(await renderInvoicePdf(sampleInvoice({ customer: { ...customer, kvkNumber: null } })));
    expect(onlyVat).toContain('marieke@example.nl Btw-id: NL009876543B02');
    expect(onlyVat).not.toContain('87654321');
    // A private customer's block ends with the e-mail address; the club's own numbers are printed once, at the top right.
    const text = await pdfText(await renderInvoicePdf(sampleInvoice()));
    expect(text).not.toMatch(/marieke@example\.nl (KvK|Btw)/);
    expect(text.match(/KvK-nummer: /g)).toHaveLength(1);
  });

  it('names no delivery date before the packages are delivered, and the delivery day after', async () => {
    const before = await pdfText(await renderInvoicePdf(sampleInvoice({ supplyDate: null })));
    expect(before).not.toContain('Leverdatum');
    expect(before).toContain('Factuurdatum 22 november 2026 Bestelnummer KP-2026-0012 Vervaldatum 6 december 2026');
    const after = await pdfText(await renderInvoicePdf(sampleInvoice({ supplyDate: new Date('2026-11-19T16:00:00.000Z') })));
    expect(after).toContain('Factuurdatum 22 november 2026 Leverdatum 19 november 2026 Bestelnummer KP-2026-0012');
    const credit = await pdfText(await renderInvoicePdf(creditNote({ supplyDate: null })));
    expect(credit).toContain('Bij factuur F2026-0007 Bestelnummer KP-2026-0012');
  });

  it('prints the IBAN in groups of four, never broken over two lines, however the setting was typed', async () => {
    expect(printedIban(' nl91abna 0417164300')).toBe('NL91\u00a0ABNA\u00a00417\u00a01643\u00a000');
    // This address puts the IBAN at the end of the footer's first line, where plain spaces let it wrap after 'NL91'.
    for (const address of ['Voorstraat 1, 8861 BJ Harlingen', 'Voorstraat 1, 8861 BJ Harlingen, bij de oude haven']) {
      const club = { ...sampleInvoice().club, address, iban: 'NL91 ABNA 0417 1643 00' };
      const lines = await pdfLines(await renderInvoicePdf(sampleInvoice({ club, paymentQrPng: await paymentQrPng(qrPayment) })));
      const withIban = lines.filter((line) => line.includes('NL91'));
      expect(withIban).toHaveLength(3);
      for (const line of withIban) expect(line, line).toContain('NL91 ABNA 0417 1643 00');
    }
  });

  it('gives the same bytes for the same invoice (nothing depends on the clock)', async () => {
    const a = await renderInvoicePdf(sampleInvoice());
    const b = await renderInvoicePdf(sampleInvoice());
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});

function creditNote(overrides: Partial<InvoicePdfCreditNote> = {}): InvoicePdfCreditNote {
  return {
    ...sampleInvoice(),
    kind: 'credit_note',
    invoiceNumber: 'F2026-0008',
    invoiceDate: new Date('2026-12-01T10:00:00.000Z'),
    corrects: { invoiceNumber: 'F2026-0007', invoiceDate: SAMPLE_INVOICE_DATE },
    ...overrides,
  };
}

const qrPayment: EpcPayment = { iban: 'NL91ABNA0417164300', name: 'Ronde Tafel 144 Harlingen', amountCents: 27225, remittance: 'F2026-0007' };

interface PdfImage {
  width: number;
  height: number;
  filter: string | undefined;
  hasDecodeParms: boolean;
  /** The stream's bytes, inflated when Flate-compressed. */
  pixels: Uint8Array;
}

/** Every image XObject in the file, as pdf-lib reads it back. */
async function imagesOf(pdf: Uint8Array): Promise<PdfImage[]> {
  const doc = await PDFDocument.load(pdf);
  const images: PdfImage[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream) || object.dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    const number = (key: string) => (object.dict.get(PDFName.of(key)) as PDFNumber).asNumber();
    const filter = object.dict.get(PDFName.of('Filter'))?.toString();
    images.push({
      width: number('Width'),
      height: number('Height'),
      filter,
      hasDecodeParms: object.dict.get(PDFName.of('DecodeParms')) instanceof PDFDict,
      // pdf-lib stores a PNG as its raw RGB pixels, Flate-compressed without a predictor.
      pixels: filter === '/FlateDecode' ? new Uint8Array(inflateSync(object.contents)) : object.contents,
    });
  }
  return images;
}

describe('renderInvoicePdf with the payment QR code', () => {
  it('embeds the QR code beside the payment terms, and it reads back to the EPC payload', async () => {
    const png = await paymentQrPng(qrPayment);
    const pdf = await renderInvoicePdf(sampleInvoice({ paymentQrPng: png }));
    const images = await imagesOf(pdf);
    expect(images).toHaveLength(1);
    const [image] = images;
    const source = PNG.sync.read(Buffer.from(png));
    expect(image).toMatchObject({ width: source.width, height: source.height, filter: '/FlateDecode', hasDecodeParms: false });
    expect(image!.pixels).toHaveLength(source.width * source.height * 3);
    expect(decodeQrRgba(rgbToRgba(image!.pixels), image!.width, image!.height)).toBe(epcPayload(qrPayment));
    expect(decodeQrRgba(rgbToRgba(image!.pixels), image!.width, image!.height)).toBe(
      'BCD\n002\n1\nSCT\n\nRonde Tafel 144 Harlingen\nNL91ABNA0417164300\nEUR272.25\n\n\nF2026-0007',
    );

    const text = await pdfText(pdf);
    expect(text).toContain('Scan met je bank-app om te betalen');
    // The payment terms stay whole beside the code.
    for (const expected of [
      'Gelieve het totaalbedrag van € 272,25 binnen 14 dagen',
      'uiterlijk op 6 december 2026',
      'Betalingskenmerk: F2026-0007 (bestelling KP-2026-0012)',
    ]) {
      expect(text, expected).toContain(expected);
    }
  });

  it('embeds no image and no scan caption when no QR code is given', async () => {
    const pdf = await renderInvoicePdf(sampleInvoice());
    expect(await imagesOf(pdf)).toEqual([]);
    expect(await pdfText(pdf)).not.toContain('Scan met');
  });

  it('gives the same bytes for the same invoice with its QR code', async () => {
    const png = await paymentQrPng(qrPayment);
    const a = await renderInvoicePdf(sampleInvoice({ paymentQrPng: png }));
    const b = await renderInvoicePdf(sampleInvoice({ paymentQrPng: png }));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});

describe('renderInvoicePdf for a credit note', () => {
  it('is titled Creditnota, has its own number, names the invoice it corrects and shows every amount negative', async () => {
    const pdf = await renderInvoicePdf(creditNote());
    const text = await pdfText(pdf);
    for (const expected of [
      'Ronde Tafel 144 Harlingen',
      'KvK-nummer: 12345678',
      'Btw-id: NL001234567B01',
      'CREDITNOTA',
      'Creditnota aan',
      'Creditnotanummer F2026-0008',
      'Creditnotadatum 1 december 2026',
      'Bij factuur F2026-0007',
      'Leverdatum 22 november 2026',
      'Bestelnummer KP-2026-0012',
      'Marieke de Vries',
      'Creditnota bij factuur F2026-0007 van 22 november 2026',
      'Kerstpakket -3 € 75,00 € -225,00',
      'btw 21% € -225,00 € -47,25',
      'Totaal excl. btw € -225,00',
      'Totaal btw € -47,25',
      'Totaal incl. btw € -272,25',
      'Het bedrag van € 272,25 wordt verrekend met factuur F2026-0007 of, als je die al betaald hebt, teruggestort op je rekening. Je hoeft niets te betalen.',
      'Kenmerk: F2026-0008 (factuur F2026-0007, bestelling KP-2026-0012)',
    ]) {
      expect(text, expected).toContain(expected);
    }
    for (const absent of ['FACTUUR', 'Factuurnummer', 'Vervaldatum', 'Gelieve', 'Betalingskenmerk', 'Scan met', '€ 272,25 binnen']) {
      expect(text, absent).not.toContain(absent);
    }
    expect(await imagesOf(pdf)).toEqual([]);
    const doc = await PDFDocument.load(pdf);
    expect(doc.getTitle()).toBe('Creditnota F2026-0008');
    expect(doc.getSubject()).toBe('Creditnota F2026-0008 voor bestelling KP-2026-0012');
  });

  it('never shows a payment QR code, even when one is passed', async () => {
    const pdf = await renderInvoicePdf(creditNote({ paymentQrPng: await paymentQrPng(qrPayment) }));
    expect(await imagesOf(pdf)).toEqual([]);
    expect(await pdfText(pdf)).not.toContain('Scan met');
  });

  it('negates each part of the VAT split and each rate', async () => {
    const amounts = computeInvoiceAmounts(3, 7500, [
      { label: 'Levensmiddelen', share_percent: 50, vat_rate: 9 },
      { label: 'Non-food', share_percent: 50, vat_rate: 21 },
    ]);
    const text = await pdfText(await renderInvoicePdf(creditNote({ amounts })));
    expect(text).toContain('waarvan Levensmiddelen (50%, btw 9%) € -112,50');
    expect(text).toContain('waarvan Non-food (50%, btw 21%) € -112,50');
    expect(text).toContain('btw 9% € -112,50 € -10,13');
    expect(text).toContain('btw 21% € -112,50 € -23,63');
    expect(text).toContain('Totaal btw € -33,76');
    expect(text).toContain('Totaal incl. btw € -258,76');
    expect(text).toContain('Het bedrag van € 258,76 wordt verrekend');
  });

  it('prints amounts that were already negated as they are, not positive again', async () => {
    const amounts = negateAmounts(computeInvoiceAmounts(3, 7500, [{ label: 'Kerstpakket', share_percent: 100, vat_rate: 21 }]));
    const text = await pdfText(await renderInvoicePdf(creditNote({ amounts })));
    expect(text).toContain('Kerstpakket -3 € 75,00 € -225,00');
    expect(text).toContain('Totaal incl. btw € -272,25');
  });

  it('gives the same bytes for the same credit note', async () => {
    const a = await renderInvoicePdf(creditNote());
    const b = await renderInvoicePdf(creditNote());
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});

describe('negateAmounts', () => {
  it('negates quantity, bases, VAT and totals and keeps the unit price', () => {
    const amounts = computeInvoiceAmounts(2, 7500, [
      { label: 'Levensmiddelen', share_percent: 60, vat_rate: 9 },
      { label: 'Non-food', share_percent: 40, vat_rate: 21 },
    ]);
    expect(negateAmounts(amounts)).toEqual({
      quantity: -2,
      unitPriceCents: 7500,
      netCents: -15000,
      parts: [
        { label: 'Levensmiddelen', share_percent: 60, vat_rate: 9, baseCents: -9000 },
        { label: 'Non-food', share_percent: 40, vat_rate: 21, baseCents: -6000 },
      ],
      vat: [
        { rate: 9, baseCents: -9000, vatCents: -810 },
        { rate: 21, baseCents: -6000, vatCents: -1260 },
      ],
      vatTotalCents: -2070,
      totalCents: -17070,
    });
    expect(negateAmounts(negateAmounts(amounts))).toEqual(amounts);
  });

  it('keeps zero as 0, never -0', () => {
    const negated = negateAmounts(computeInvoiceAmounts(1, 0, [{ label: 'Gratis', share_percent: 100, vat_rate: 0 }]));
    expect(Object.is(negated.totalCents, 0)).toBe(true);
    expect(Object.is(negated.vat[0]!.vatCents, 0)).toBe(true);
  });
});
