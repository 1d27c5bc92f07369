import { readPdfFontsFrom } from '../../src/platform/pdf-font';
import { bundledPdfFonts } from '../../src/platform/pdf-font-bundled';

// The unit and API tests make PDFs as the Node server does: the font from the generated file (node.ts does the same).
readPdfFontsFrom(bundledPdfFonts);
