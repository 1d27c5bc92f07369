import { Font } from '@pdf-lib/standard-fonts';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { renderInvoicePdf } from '../../src/features/invoices/invoice-pdf';
import { renderDeliveryListPdf } from '../../src/features/delivery/delivery-pdf';
import { embedDocumentFonts } from '../../src/platform/pdf-font';
import { sampleInvoice } from '../support/invoice-document';
import { pdfText } from '../support/pdf-text';

// Our PDFs embed the font of src/platform/pdf-font.ts (docs/decisions/059); the Worker ships no standard
// font metrics (src/platform/pdf-standard-fonts.ts, wrangler.toml [alias]). This runs both inside workerd
// as the deployed bundle does, and reads the text back as a reader's copy-paste would.
describe('the embedded PDF font in the Worker bundle', () => {
  it('prints Polish, Czech, Romanian and Turkish names as typed on an invoice and a delivery list', async () => {
    const day = new Date('2026-11-22T10:00:00.000Z');
    const invoice = await renderInvoicePdf(
      sampleInvoice({
        supplyDate: null,
        customer: {
          name: 'Łukasz Wiśniewski 🎄',
          address: 'Dvořákstraat 3',
          postalCode: '8861 AL',
          city: 'Harlingen',
          email: 'lukasz@example.nl',
          kvkNumber: null,
          vatId: null,
        },
      }),
    );
    const text = await pdfText(invoice);
    expect(text).toContain('Factuur aan Łukasz Wiśniewski Dvořákstraat 3 8861 AL Harlingen');
    expect(text).not.toContain('?');

    const list = await renderDeliveryListPdf({
      clubName: 'Ronde Tafel 144 Harlingen',
      tablerName: 'Ștefan Țăranu',
      date: day,
      stops: [
        { name: 'Ayşe Şahin', address: 'Zuiderhaven 2', postalCode: '8861 CK', city: 'Harlingen', phone: '0612345678', notes: 'Bel bij Łucja', amount: 2 },
      ],
    });
    const listText = await pdfText(list);
    expect(listText).toContain('Tabler: Ștefan Țăranu');
    expect(listText).toContain('Ayşe Şahin');
    expect(listText).toContain('Opmerking: Bel bij Łucja');
  });

  it('embeds the regular and bold face with Helvetica widths', async () => {
    const pdf = await PDFDocument.create();
    const { regular, bold } = await embedDocumentFonts(pdf);
    // Arimo has Helvetica's widths: Helvetica's and Helvetica-Bold's metrics give 56.13 and 60.02 (unkerned).
    expect(regular.widthOfTextAtSize('Factuur Ëlsa', 10)).toBeCloseTo(56.13, 2);
    expect(bold.widthOfTextAtSize('Factuur Ëlsa', 10)).toBeCloseTo(60.02, 2);
    expect(regular.widthOfTextAtSize('Łukasz', 10)).toBeGreaterThan(0);
  });

  it('names the embedded font when a document asks for a standard one', () => {
    expect(() => Font.load('Helvetica')).toThrow(
      'The Worker bundle carries no standard PDF font (Helvetica): set text in the embedded font of src/platform/pdf-font.ts.',
    );
  });
});
